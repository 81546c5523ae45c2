"""The other pages in a real browser: the live score sheet, the settlement and its print layout, the player
and club pages (with or without the statistics endpoints), the rules; a screenshot of each."""

from __future__ import annotations

import re
from typing import Any

from django.test import Client
from playwright.sync_api import expect

from ledger import selectors
from ledger.engine import settle
from ledger.models import Club, Player, Session
from ledger.services.hands import hand_record
from ledger.services.sessions import session_close
from tests.browser.conftest import BROWSER, login, screenshot
from tests.browser.test_scorer import THREE
from tests.ledger_fixtures import PASSWORD, fresh, open_session, record_all

pytestmark = BROWSER

TABLET = {"width": 1024, "height": 768}


def closed_session(admin: Any, club: Club, players: list[Player]) -> Session:
    session = open_session(admin, club, players, stake={"currency": "USD", "per_counter": "0.01"})
    record_all(admin, session, THREE)
    session_close(actor=admin, session_id=session.pk, pools="divide", expected_version=fresh(session).version)
    return fresh(session)


def test_the_sheet_refreshes_as_deals_arrive(
    new_page: Any, scorer: Any, admin: Any, club: Club, players: list[Player]
) -> None:
    session = open_session(admin, club, players)
    record_all(admin, session, THREE[:1])
    page = new_page(TABLET)
    login(page, "scorer", f"/sessions/{session.pk}/sheet/")
    expect(page.locator("tbody tr[data-deal]")).to_have_count(1)
    hand_record(actor=admin, session_id=session.pk, hand=THREE[1])  # another phone records deal 2
    expect(page.locator("tbody tr[data-deal]")).to_have_count(2, timeout=20_000)
    settlement = settle(selectors.session_sheet(session=fresh(session)))
    totals = page.locator("tfoot [data-total-seat] .num").evaluate_all("els => els.map(e => Number(e.dataset.n))")
    assert totals == settlement["balances"]
    row = page.locator('tr[data-deal="2"] td[data-seat] > .num').evaluate_all(
        "els => els.map(e => Number(e.dataset.n))"
    )
    assert row == settlement["hands"][1]["deltas"]
    screenshot(page, "sheet")
    assert page.errors == []


def test_settlement_shows_who_pays_whom_and_prints_on_one_page(
    new_page: Any, treasurer: Any, admin: Any, club: Club, players: list[Player]
) -> None:
    session = open_session(admin, club, players, stake={"currency": "USD", "per_counter": "0.01"})
    record_all(admin, session, THREE)
    page = new_page()
    login(page, "treasurer", f"/sessions/{session.pk}/settlement/")
    expect(page.locator(".notice")).to_contain_text("Not closed yet")
    page.click("text=Close and settle")  # asks first: the browser holds the form until it is confirmed
    assert fresh(session).status == Session.Status.OPEN
    page.check('input[name="confirm"]')
    page.click("text=Close and settle")
    expect(page.locator("#payments")).to_be_visible()
    result = selectors.session_settlement(session=fresh(session))
    close = result["close"]
    names = ["Ann", "Ben", "Cleo", "Dan"]
    items = page.locator("#payments li")
    expect(items).to_have_count(len(close["payments"]))
    for i, p in enumerate(close["payments"]):
        dollars = f"${p['cents'] // 100}.{p['cents'] % 100:02d}"
        payer, payee = (names[x] if x != "pool" else "the club's pool" for x in (p["from"], p["to"]))
        expect(items.nth(i)).to_have_text(
            re.compile(rf"^{payer} pays {re.escape(payee)} {re.escape(dollars)}(\s+record)?$")
        )
    finals = page.locator("#final-table td.final .num").evaluate_all("els => els.map(e => Number(e.dataset.n))")
    assert finals == close["final"]
    screenshot(page, "settlement")
    page.emulate_media(media="print")
    expect(page.locator(".close-form")).to_be_hidden()
    expect(page.locator("header.top")).to_be_hidden()
    pdf = page.pdf(format="A4", print_background=False)
    assert len(re.findall(rb"/Type\s*/Page(?!s)", pdf)) == 1  # it prints on one page
    screenshot(page, "settlement-print")
    assert page.errors == []


def test_player_page_renders_statistics_when_the_api_answers(
    new_page: Any, scorer: Any, admin: Any, club: Club, players: list[Player]
) -> None:
    closed_session(admin, club, players)
    cleo = players[2]  # she bid (and made) the seven
    api = Client()
    api.login(username="scorer", password=PASSWORD)
    stats = api.get(f"/api/v1/players/{cleo.pk}/stats/")
    page = new_page()
    login(page, "scorer", f"/players/{cleo.pk}/")
    body = page.locator("#stats-body")
    if stats.status_code == 200:
        data = stats.json()
        figures = page.locator("#stats-figures")
        expect(figures).to_contain_text(f"sessions{data['sessions']}")
        expect(figures).to_contain_text(f"deals{data['deals']}")
        for variant, figures_of in data["variants"].items():
            contracts = figures_of.get("contracts", [])
            rows = body.locator(f'table.contracts[data-variant="{variant}"] tbody tr')
            expect(rows).to_have_count(len(contracts))
            for i, c in enumerate(contracts):
                cells = rows.nth(i).locator("td")
                expect(cells.nth(0)).to_have_text(str(c["played"]))
                expect(cells.nth(1)).to_have_text(str(c["made"]))
                expect(cells.nth(2)).to_have_text(f"{round(c['rate'] * 100)}%")
            if contracts:
                expect(body.locator("canvas")).to_have_count(
                    len([v for v in data["variants"].values() if v.get("contracts")])
                )
    else:
        assert stats.status_code == 404, stats.content
        expect(body).to_contain_text("Detailed statistics are not available from this server yet.")
    expect(page.locator("#sessions-table tbody tr")).to_have_count(1)
    expect(page.locator("#counters-chart")).to_be_visible()
    page.wait_for_function("() => window.Chart && Chart.getChart(document.getElementById('counters-chart'))")
    screenshot(page, "player")
    assert page.errors == []


def test_club_page_leaderboard_switches(
    new_page: Any, scorer: Any, admin: Any, club: Club, players: list[Player]
) -> None:
    closed_session(admin, club, players)
    api = Client()
    api.login(username="scorer", password=PASSWORD)
    board = api.get(f"/api/v1/clubs/{club.pk}/leaderboard/?period=all&by=money")
    page = new_page()
    login(page, "scorer", f"/clubs/{club.pk}/")
    page.locator("#leaderboard label", has_text="Money").click()
    expect(page.locator("#leaderboard")).to_have_attribute("data-shown", "period=all&by=money&currency=USD")
    body = page.locator("#leaderboard .board-body")
    if board.status_code == 200:
        rows = board.json()["rows"]
        if rows:
            expect(body.locator("tbody tr")).to_have_count(len(rows))
            currency = board.json().get("currency")
            for i, row in enumerate(rows):
                line = body.locator("tbody tr").nth(i)
                expect(line).to_contain_text(row["player"]["name"])
                if currency == "USD":  # minor units, signed
                    sign = "+" if row["value"] > 0 else "−" if row["value"] < 0 else ""
                    expect(line).to_contain_text(f"{sign}${abs(row['value']) // 100}.{abs(row['value']) % 100:02d}")
        else:
            expect(body).to_contain_text("Nobody qualifies")
    else:
        assert board.status_code == 404
        expect(body).to_contain_text("not available from this server yet")
    screenshot(page, "club-leaderboard")


def test_rules_and_home_pages(new_page: Any, scorer: Any, club: Club) -> None:
    page = new_page()
    page.goto("/rules/russian/")
    expect(page.locator("#r-t1")).to_be_visible()
    expect(page.locator("#r-t1 .corrected")).to_have_count(1)
    screenshot(page, "rules-russian")
    page.goto("/rules/american/")
    screenshot(page, "rules-american")
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 360  # wide tables scroll in their box
    page.goto("/login/?next=/")
    page.fill("#id_username", "scorer")
    page.fill("#id_password", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_url("**/clubs/*/")  # a scorer of one club lands on that club
    expect(page.locator("h1")).to_contain_text("Bars Club")
    screenshot(page, "home")
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= 360  # nothing sticks out of a phone's screen
