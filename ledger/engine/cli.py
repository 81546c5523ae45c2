"""`manage.py settle SHEET.json` (or `-` for standard input) without Django: the settlement on stdout and
exit 0, or `{"error": ...}` and exit 2 (1 when the sheet cannot be read).

The command touches no database, so `manage.py` runs it before `django.setup()`, which would cost
several times the settling of an evening (every app and its imports). The Django command
`ledger.management.commands.settle` calls the same code, for `call_command` and `manage.py help`.
"""

from __future__ import annotations

import json
import sys
from typing import Any, BinaryIO

from . import EngineError, settle
from .errors import sheet_error

USAGE = "usage: manage.py settle SHEET.json  (or - for standard input)"


def dumps(data: dict[str, Any]) -> str:
    """The JSON a person can read and the C encoder writes fast: one key of the object a line, and a
    list of objects (the hands, the transfers of a close) one item a line; nothing is indented."""
    lines = []
    for key, value in data.items():
        head = json.dumps(key, ensure_ascii=False) + ": "
        if isinstance(value, list) and value and all(isinstance(item, dict) for item in value):
            items = ",\n  ".join(json.dumps(item, ensure_ascii=False) for item in value)
            lines.append(f"{head}[\n  {items}\n ]")
        else:
            lines.append(head + json.dumps(value, ensure_ascii=False))
    return "{" + ",\n ".join(lines) + "}\n"


def read_sheet(path: str, stdin: BinaryIO) -> str:
    if path == "-":
        return stdin.read().decode("utf-8")
    with open(path, encoding="utf-8") as f:
        return f.read()


def run(path: str, stdin: BinaryIO, stdout: BinaryIO, stderr: BinaryIO) -> int:
    """Settle the sheet at `path` and write the answer; the exit status."""
    try:
        text = read_sheet(path, stdin)
    except OSError as exc:
        stderr.write(f"cannot read {path}: {exc.strerror}\n".encode())
        return 1
    except UnicodeDecodeError:
        text = "\ufffd"  # not UTF-8: answered as a sheet that is not JSON
    status = 0
    try:
        try:
            raw = json.loads(text)
        except ValueError:
            raise sheet_error("sheet", "the score sheet is not valid JSON") from None
        except RecursionError:  # the C decoder's own limit (about 1,000 levels); no sheet is that deep
            raise sheet_error("sheet", "the score sheet is nested too deeply to be read") from None
        answer = settle(raw)
    except EngineError as exc:
        answer, status = exc.as_json(), 2
    stdout.write(dumps(answer).encode("utf-8"))
    stdout.flush()
    return status


def main(argv: list[str]) -> int:
    """`argv` after the command's name: exactly one sheet (a path, or `-`)."""
    if len(argv) != 1 or argv[0] in ("-h", "--help"):
        sys.stderr.write(USAGE + "\n")
        return 0 if argv[:1] in (["-h"], ["--help"]) else 1
    return run(argv[0], sys.stdin.buffer, sys.stdout.buffer, sys.stderr.buffer)
