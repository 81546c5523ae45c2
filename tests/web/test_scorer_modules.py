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


def test_the_scorer_page_names_every_module_it_imports(client_for: Any, scorer: Any, session: Session) -> None:
    imported = set(re.findall(r"^import .* from '\./(scorer/[a-z]+\.js)';$", SCORER.read_text(), re.M))
    assert imported == {"scorer/queue.js", "scorer/pad.js", "scorer/derive.js"}
    html = client_for(scorer).get(f"/sessions/{session.pk}/score/").content.decode()
    preloaded = set(re.findall(r'<link rel="modulepreload" href="/static/clubscore/(scorer/[a-z]+\.js)">', html))
    assert preloaded == imported
    assert '<script type="module" src="/static/clubscore/scorer.js"></script>' in html
