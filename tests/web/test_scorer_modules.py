"""The scorer's ES modules (static/clubscore/scorer/): the unit tests (tests/js/) read the server's legal
shape from fixtures that are what `ledger.selectors.deal_legal` says today, so the script's tests cannot
drift from the one reader; and the page names every module the script imports, so the service worker
keeps each one and the page opens offline."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from ledger.models import Session
from ledger.selectors import deal_legal

ROOT = Path(__file__).resolve().parent.parent.parent
FIXTURES = ROOT / "tests" / "js" / "fixtures"
SCORER = ROOT / "static" / "clubscore" / "scorer.js"


@pytest.mark.parametrize("variant", ["american", "french"])
def test_the_js_fixture_is_the_servers_legal_shape(variant: str) -> None:
    kept = json.loads((FIXTURES / f"legal-{variant}.json").read_text(encoding="utf-8"))
    assert kept == deal_legal(variant=variant, rules={}, number=2, first=None)


IMPORT = re.compile(r"^import [^;]* from '\./([a-z]+\.js)';$", re.M)


def imported_modules() -> set[str]:
    """Every module the entry imports, and each one's own imports, to the end (paths from static/clubscore/)."""
    found: set[str] = set()
    todo = [(SCORER.parent, SCORER)]
    while todo:
        folder, path = todo.pop()
        for name in IMPORT.findall(path.read_text(encoding="utf-8").replace("'./scorer/", "'./")):
            module = (folder / "scorer" if path == SCORER else folder) / name
            key = str(module.relative_to(SCORER.parent))
            if key not in found:
                found.add(key)
                todo.append((module.parent, module))
    return found


def test_the_scorer_page_names_every_module_it_imports(client_for: Any, scorer: Any, session: Session) -> None:
    imported = imported_modules()
    # every module of scorer/ is used (types.js holds JSDoc types only, imported by the type checker)
    assert imported == {f"scorer/{p.name}" for p in (SCORER.parent / "scorer").glob("*.js")} - {"scorer/types.js"}
    html = client_for(scorer).get(f"/sessions/{session.pk}/score/").content.decode()
    preloaded = set(re.findall(r'<link rel="modulepreload" href="/static/clubscore/(scorer/[a-z]+\.js)">', html))
    assert preloaded == imported
    assert '<script type="module" src="/static/clubscore/scorer.js"></script>' in html
