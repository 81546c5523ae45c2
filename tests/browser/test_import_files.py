"""Issue 29, points 7 and 8 on the import page: a file of 100,000 nested arrays (an uncaught "Maximum
call stack size exceeded", and none of the 10 valid files chosen with it showed), a Latin-1 file (it
became "Zo\\ufffd" silently), and a new name that looks like a player's of the club."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from ledger.models import Club, Player, Session
from tests.browser.conftest import BROWSER, PHONE, login, screenshot
from tests.ledger_fixtures import example_sheet

pytestmark = BROWSER

NAMES = ["Ann", "Ben", "Cleo", "Dan"]


def test_a_deep_file_and_a_latin1_file_are_refused_and_the_ten_others_shown(
    new_page: Any, treasurer: Any, club: Club, players: list[Player], tmp_path: Path
) -> None:
    files = []
    for i in range(10):
        sheet = example_sheet("american-evening-defaults")
        sheet["players"] = NAMES
        path = tmp_path / f"evening-2024-01-{i + 10}.json"
        path.write_text(json.dumps(sheet))
        files.append(path)
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    latin1 = tmp_path / "latin1.json"
    latin1_sheet = {**example_sheet("american-evening-defaults"), "players": ["Zoé", "Ben", "Cleo", "Dan"]}
    latin1.write_bytes(json.dumps(latin1_sheet, ensure_ascii=False).encode("latin-1"))
    page = new_page(PHONE)
    login(page, "treasurer", f"/clubs/{club.pk}/import/")
    page.set_input_files("#sheet-files", [str(f) for f in [files[0], deep, *files[1:], latin1]])
    expect(page.locator(".sheet-card")).to_have_count(12)
    expect(page.locator('.sheet-card.is-error[data-file="deep.json"]')).to_contain_text("nests too deeply")
    expect(page.locator('.sheet-card.is-error[data-file="latin1.json"]')).to_contain_text("not UTF-8")
    expect(page.locator(".sheet-card:not(.is-error)")).to_have_count(10)
    expect(page.locator("#import-all")).to_have_text("Import 10 evenings")
    expect(page.locator(".look-alike")).to_have_count(0)  # the club's own players, by their own names
    screenshot(page, "import-deep-and-latin1")
    assert page.errors == []


def test_a_new_name_that_looks_like_a_players_is_warned_in_the_preview(
    new_page: Any, treasurer: Any, club: Club, players: list[Player], tmp_path: Path
) -> None:
    sheet = example_sheet("american-evening-defaults")
    sheet["players"] = ["\u0410nn", "\U0001d401\U0001d41e\U0001d427", "Cleo", "Dan"]  # Cyrillic А, bold 𝐁𝐞𝐧
    path = tmp_path / "evening-2024-02-01.json"
    path.write_text(json.dumps(sheet, ensure_ascii=False), encoding="utf-8")
    page = new_page(PHONE)
    login(page, "treasurer", f"/clubs/{club.pk}/import/")
    page.set_input_files("#sheet-files", [str(path)])
    warnings = page.locator(".sheet-card .look-alike")
    expect(warnings).to_have_count(2)
    expect(warnings.nth(0)).to_contain_text("“\u0410nn” looks like “Ann”, already a player of the club")
    expect(warnings.nth(1)).to_contain_text("looks like “Ben”")
    screenshot(page, "import-look-alike")
    assert page.errors == []


def test_the_import_writes_a_stake_as_the_server_does_in_french(
    new_page: Any, treasurer: Any, club: Club, players: list[Player], tmp_path: Path, live_server: Any
) -> None:
    """Issue 26: one formatter for amounts. A stake of 1000.125 is «1000,125» on the import page as the
    server writes it (ledger/currency.py, `decimal_text`), not Intl's «1 000,125»."""
    sheet = example_sheet("american-evening-defaults")
    sheet["players"] = NAMES
    sheet["stake"] = {"currency": "EUR", "per_counter": "1000.125"}
    path = tmp_path / "evening-2024-03-01.json"
    path.write_text(json.dumps(sheet))
    page = new_page(PHONE)
    page.context.add_cookies([{"name": "django_language", "value": "fr", "url": live_server.url}])
    login(page, "treasurer", f"/clubs/{club.pk}/import/")
    page.set_input_files("#sheet-files", [str(path)])
    expect(page.locator(".sheet-card p.muted").first).to_contain_text("un jeton = 1000,125 EUR")
    assert page.errors == []


NB = "\u00a0"
PREVIEW_TRANSFERS = {  # american-evening-defaults at a cent a counter: money [-103, 192, -103, 12], 2 to the pool
    "en": ["Ann pays Ben $1.03", "Cleo pays Ben $0.89", "Cleo pays Dan $0.12", "Cleo pays the club's pool $0.02"],
    "fr": [
        f"Ann → Ben : 1,03{NB}$",
        f"Cleo → Ben : 0,89{NB}$",
        f"Cleo → Dan : 0,12{NB}$",
        f"Cleo → la poule du club : 0,02{NB}$",
    ],
    "ru": [  # «Ann → Cleo: 4,85 €», the settlement's one form (the preview had lost its colon)
        f"Ann → Ben: 1,03{NB}$",
        f"Cleo → Ben: 0,89{NB}$",
        f"Cleo → Dan: 0,12{NB}$",
        f"Cleo → корзина клуба: 0,02{NB}$",
    ],
}


@pytest.mark.parametrize("language", ["en", "fr", "ru"])
def test_the_preview_writes_each_transfer_as_the_settlement_does(
    new_page: Any, treasurer: Any, club: Club, players: list[Player], tmp_path: Path, live_server: Any, language: str
) -> None:
    sheet = example_sheet("american-evening-defaults")
    sheet["players"] = NAMES
    path = tmp_path / "evening-2024-03-01.json"
    path.write_text(json.dumps(sheet))
    page = new_page(PHONE)
    page.context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
    login(page, "treasurer", f"/clubs/{club.pk}/import/")
    page.set_input_files("#sheet-files", [str(path)])
    preview = page.locator(".sheet-card ul.small li")
    expect(preview).to_have_text(PREVIEW_TRANSFERS[language])
    screenshot(page, f"import-preview-{language}")
    page.click("#import-all")
    expect(page.locator(".sheet-card.is-done")).to_have_count(1)
    session = Session.objects.get(club=club)
    page.goto(f"/sessions/{session.pk}/settlement/")
    settled = page.locator("#payments li").evaluate_all(
        "lis => lis.map(li => { const c = li.cloneNode(true); c.querySelectorAll('a').forEach(a => a.remove());"
        " return c.textContent.replace(/\\s+/g, m => m.includes('\\u00a0') ? '\\u00a0' : ' ').trim(); })"
    )
    assert settled == PREVIEW_TRANSFERS[language]  # the same sentence on both pages
    assert page.errors == []
