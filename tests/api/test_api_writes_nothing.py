"""The API renders, the domain writes (issue 40 item 4): what import-linter cannot see, read from the code.

import-linter's contracts (pyproject.toml) see imports only: it keeps `ledger.roundtrips` to the hot path's
write and its key, but it cannot tell a read of a model's manager from a write, and it sees `django.db`
only as `django`. So this test reads the API's modules: no ORM write (a manager's or queryset's create,
update, delete, ..., a model's save or delete), no transaction, no cursor. A write goes through
`ledger.services` (or `ledger.idempotency` for the keys' answers), inside the domain's transaction.
"""

from __future__ import annotations

import ast
from pathlib import Path

API = Path(__file__).resolve().parents[2] / "api"
WRITES = {
    "save",
    "create",
    "bulk_create",
    "bulk_update",
    "get_or_create",
    "update_or_create",
    "update",
    "delete",
    "select_for_update",
    "raw",
}
DATABASE = {"transaction", "connection", "connections", "cursor", "atomic", "on_commit"}


def _offences(path: Path) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in WRITES:
            found.append(f"{path.name}:{node.lineno}: .{node.func.attr}(...)")
        elif isinstance(node, ast.ImportFrom) and node.module in ("django.db", "django.db.transaction"):
            found += [f"{path.name}:{node.lineno}: imports {a.name}" for a in node.names if a.name in DATABASE]
        elif isinstance(node, ast.Attribute) and node.attr in DATABASE - {"transaction"}:
            found.append(f"{path.name}:{node.lineno}: .{node.attr}")
    return found


def test_the_api_makes_no_orm_write_and_no_transaction() -> None:
    modules = sorted(API.glob("*.py"))
    assert len(modules) > 20  # the API's modules were found
    offences = [o for path in modules for o in _offences(path)]
    assert offences == []


def test_the_check_sees_a_write(tmp_path: Path) -> None:
    """The reading can fail: a write and a transaction in a module are found."""
    module = tmp_path / "view.py"
    module.write_text(
        "from django.db import transaction\n"
        "def post(request, hand):\n"
        "    with transaction.atomic():\n"
        "        Hand.objects.filter(pk=1).update(raw={})\n"
        "        hand.save()\n"
    )
    assert len(_offences(module)) == 4  # the import, .atomic, .update(...), .save(...)
