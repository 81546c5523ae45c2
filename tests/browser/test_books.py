"""The treasurer's evening and the club's books in a real browser, on a 390 px phone: the books (a
payment recorded and reversed), a statement downloaded and its CSV read back, the leaderboard switched to
each currency, three past evenings imported with their dates and the periods checked on the player page,
and the player's own balance. A screenshot of each page. Then, at 390 px and 1280 px in English, French
and Russian, a treasurer's whole evening: closed, each transfer recorded from the settlement's links (one
partly then the rest, one written off, one overpaid after the question, reversed, paid again), amounts
typed as people type them, and a two-currency statement read back from its CSV."""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from ledger.models import Club, MoneyTransaction, Player, Session
from ledger.services.clubs import player_create
from ledger.services.sessions import session_close
from tests.browser.conftest import BROWSER, api_get, login, screenshot
from tests.ledger_fixtures import AMERICAN_HANDS, example_sheet, fresh, open_session, record_all

pytestmark = BROWSER

PHONE = {"width": 390, "height": 844}
NAMES = ["Ann", "Ben", "Cleo", "Dan"]


def evening(admin: Any, club: Club, players: list[Player], currency: str, per_counter: str = "0.01") -> Session:
    session = open_session(admin, club, players, stake={"currency": currency, "per_counter": per_counter})
    record_all(admin, session, AMERICAN_HANDS)
    session_close(actor=admin, session_id=session.pk, expected_version=fresh(session).version)
    return fresh(session)  # counters [-30, -115, 90, 55] at the stake; the follow-up posts the money


def no_overflow(page: Any) -> None:
    assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]


def test_the_treasurer_records_a_payment_reverses_it_and_downloads_a_statement(
    new_page: Any, treasurer: Any, admin: Any, club: Club, players: list[Player]
) -> None:
    session = evening(admin, club, players, "EUR")
    page = new_page(PHONE)
    login(page, "treasurer", f"/clubs/{club.pk}/")
    screenshot(page, "club-treasurer")
    page.click("text=The club's books")
    book = page.locator("#book-EUR")
    expect(book.locator("tbody tr")).to_have_count(4)
    expect(book.locator(f'tr[data-party="{players[1].pk}"]')).to_contain_text("−€1.15")
    screenshot(page, "books")
    no_overflow(page)

    first = book.locator(".transfers-list li").first
    payer, payee, cents = (
        first.get_attribute("data-from"),
        first.get_attribute("data-to"),
        first.get_attribute("data-amount"),
    )
    first.locator("button.use-transfer").click()
    expect(page.locator("#pay-amount")).to_have_value(f"{int(cents) / 100:.2f}")  # EUR: two decimals, from the server
    page.locator("#payment-form label", has_text="Partly paid").click()
    page.fill("#pay-note", "cash at the bar")
    page.click("text=Record the payment")
    expect(page.locator(".messages")).to_contain_text("Recorded: ")
    tx = MoneyTransaction.objects.get(kind="partly_paid")
    assert tx.for_session_id is None  # the netted list's transfer: a free payment
    assert (tx.note, tx.entries.get(amount__gt=0).account.player_id) == ("cash at the bar", int(payer))
    assert tx.entries.get(amount__lt=0).account.player_id == int(payee)
    line = page.locator(f'.payment-history li[data-transaction="{tx.pk}"]')
    expect(line).to_contain_text("partly paid")
    expect(line).to_contain_text("cash at the bar")

    line.locator("summary", has_text="Reverse").click()
    line.locator("input[name=note]").fill("recorded by mistake")
    line.locator(".confirm-reverse input").check()
    line.locator("button", has_text="Reverse payment").click()
    expect(page.locator(".messages")).to_contain_text(f"Payment #{tx.pk} is reversed.")
    line = page.locator(f'.payment-history li[data-transaction="{tx.pk}"]')
    expect(line).to_have_class(re.compile("is-reversed"))
    expect(line).to_contain_text("recorded by mistake")
    screenshot(page, "books-after-reversal")

    page.goto(f"/sessions/{session.pk}/settlement/")
    expect(page.locator("#evening-paid")).to_contain_text("€0.00 of €1.45 paid (0%)")
    bens = next(p for p in fresh(session).closing["payments"] if p["from"] == 1)  # one of Ben's, at the table
    line = page.locator("#payments li", has_text=f"Ben pays {NAMES[bens['to']]}")
    line.locator(".record-link").click()  # the treasurer's evening: record what was paid at the table
    expect(page.locator("#pay-from")).to_have_value(str(players[1].pk))
    expect(page.locator("#pay-to")).to_have_value(str(players[bens["to"]].pk))
    expect(page.locator("#pay-amount")).to_have_value(f"{bens['cents'] // 100}.{bens['cents'] % 100:02d}")
    expect(page.locator("#pay-evening")).to_contain_text(f"session #{session.pk}")
    page.click("text=Record the payment")
    expect(page.locator(".messages")).to_contain_text("Recorded: Ben → ")
    page.goto(f"/sessions/{session.pk}/settlement/")
    euros = f"€{bens['cents'] // 100}.{bens['cents'] % 100:02d}"
    expect(page.locator("#evening-paid")).to_contain_text(f"{euros} of €1.45 paid ({bens['cents'] * 100 // 145}%)")
    screenshot(page, "settlement-paid")

    debtor = next(p for p in players if p.pk == int(payer))
    page.goto(f"/players/{debtor.pk}/statement/")
    rows = page.locator("#statement-table-EUR tbody tr")
    expect(rows).to_have_count(4)  # oldest first: the close, the payment, its reversal, the payment from the settlement
    expect(rows.nth(2)).to_contain_text(f"payment {tx.pk} reversed")
    screenshot(page, "statement")
    no_overflow(page)
    with page.expect_download() as download:
        page.click("#statement-csv")
    text = Path(download.value.path()).read_text(encoding="utf-8")
    assert text.startswith("\ufeff")
    table = list(csv.DictReader(io.StringIO(text.removeprefix("\ufeff"))))
    assert [r["What"].split(" ")[0] for r in table] == ["session", "partly", "payment", "paid"]
    assert table[1]["Amount"] == f"{int(cents) // 100}.{int(cents) % 100:02d}"  # EUR's two decimals
    assert table[2]["Amount"] == "-" + table[1]["Amount"]
    assert table[2]["Balance"] == table[0]["Amount"]  # the reversal opens the debt again
    assert table[3]["Balance"] == f"-{(115 - bens['cents']) // 100}.{(115 - bens['cents']) % 100:02d}"
    assert table[1]["Note"] == "cash at the bar" and table[2]["Note"] == "recorded by mistake"
    assert all(r["Currency"] == "EUR" and re.fullmatch(r"-?\d+\.\d\d", r["Amount"]) for r in table)
    assert page.errors == []


def test_a_player_sees_his_own_balance_and_downloads_his_statement(
    new_page: Any, player_user: Any, admin: Any, club: Club
) -> None:
    players = [
        player_create(actor=admin, club_id=club.pk, name=n, user=player_user if n == "Ben" else None) for n in NAMES
    ]
    evening(admin, club, players, "JPY", "1")
    page = new_page(PHONE)
    login(page, "player", f"/clubs/{club.pk}/")
    expect(page.locator("text=The club's books")).to_have_count(0)
    page.click("text=My balance")
    expect(page.locator('#statement-balances li[data-currency="JPY"]')).to_contain_text("−¥115")  # no decimals
    screenshot(page, "statement-player")
    with page.expect_download() as download:
        page.click("#statement-csv")
    text = Path(download.value.path()).read_text(encoding="utf-8").removeprefix("\ufeff")
    table = list(csv.DictReader(io.StringIO(text)))
    assert [(r["Currency"], r["Amount"], r["Balance"]) for r in table] == [("JPY", "-115", "-115")]
    page.goto(f"/players/{players[1].pk}/")
    expect(page.locator("#statement-link")).to_be_visible()
    expect(page.locator("#rating-words")).to_have_text(re.compile(r"^about -?\d+, give or take \d+( · .+)?$"))
    page.goto(f"/players/{players[0].pk}/")  # another player's figures, but not his money
    expect(page.locator("h1")).to_have_text("Ann")
    expect(page.locator("#statement-link")).to_have_count(0)
    page.goto(f"/clubs/{club.pk}/books/")
    expect(page.locator("h1")).not_to_have_text("The club's books")
    assert page.errors == []


def test_the_leaderboard_switches_to_each_currency(
    new_page: Any, player_user: Any, admin: Any, club: Club, players: list[Player]
) -> None:
    evening(admin, club, players, "EUR")
    evening(admin, club, players, "JPY", "1")
    evening(admin, club, players, "JPY", "1")
    page = new_page(PHONE)
    login(page, "player", f"/clubs/{club.pk}/")
    currencies = page.locator("#board-currency")
    expect(currencies).to_be_hidden()
    page.locator("#leaderboard label", has_text="Money").click()
    expect(currencies).to_be_visible()
    expect(currencies.locator("label")).to_have_text(["JPY", "EUR"])  # the most used first
    for currency, shown in (("JPY", "¥"), ("EUR", "€")):
        currencies.locator("label", has_text=currency).click()
        query = f"period=all&by=money&currency={currency}"
        expect(page.locator("#leaderboard")).to_have_attribute("data-shown", query)
        rows = api_get(page, f"/api/v1/clubs/{club.pk}/leaderboard/?{query}")["rows"]
        lines = page.locator("#board-table tbody tr")
        expect(lines).to_have_count(len(rows))
        expect(page.locator("#board-table thead")).to_contain_text(f"Money ({currency})")
        cents = lines.locator(".money").evaluate_all("els => els.map(e => Number(e.dataset.cents))")
        assert cents == [r["value"] for r in rows]
        expect(lines.first).to_contain_text(shown)
        screenshot(page, f"leaderboard-{currency}")
    page.locator("#leaderboard label", has_text="This year").click()
    page.locator("#leaderboard label", has_text="Success rate").click()
    expect(page.locator("#leaderboard")).to_have_attribute("data-shown", "period=year&by=success")
    expect(currencies).to_be_hidden()
    no_overflow(page)
    assert page.errors == []


SHEETS = [  # (file, example, the day it was played)
    ("club-night-2024-01-10.json", "american-evening-defaults", "2024-01-10"),
    ("spring.json", "fontainebleau-evening-defaults", "2024-03-07"),
    ("may-2025.json", "american-stake-half-cent", "2025-05-02"),
]


def test_three_past_evenings_imported_with_their_dates_and_their_periods_on_the_player_page(
    new_page: Any, treasurer: Any, club: Club, tmp_path: Path
) -> None:
    files = []
    for name, example, _day in SHEETS:
        sheet = example_sheet(example)
        sheet["players"] = NAMES
        if name == "spring.json":
            sheet.pop("close", None)  # one sheet that does not say how it ends
        path = tmp_path / name
        path.write_text(json.dumps(sheet))
        files.append(path)
    broken = tmp_path / "notes.txt"
    broken.write_text("Ann 12, Ben -3")
    page = new_page(PHONE)
    login(page, "treasurer", f"/clubs/{club.pk}/import/")
    page.set_input_files("#sheet-files", [str(f) for f in [*files, broken]])
    cards = page.locator(".sheet-card")
    expect(cards).to_have_count(4)
    expect(page.locator('.sheet-card.is-error[data-file="notes.txt"]')).to_contain_text("not JSON")
    expect(page.locator("#import-all")).to_have_text("Import 3 evenings")
    first = cards.nth(0)
    expect(first.locator("input[type=date]")).to_have_value("2024-01-10")  # read from the file's name
    expect(first.locator("tbody tr")).to_have_count(4)
    expect(cards.nth(1).locator("fieldset")).to_contain_text("At the close, the pools")
    for i, (_name, _example, day) in enumerate(SHEETS):
        cards.nth(i).locator("input[type=date]").fill(day)
    screenshot(page, "import-preview")
    no_overflow(page)
    page.click("#import-all")
    expect(page.locator("#import-status")).to_have_text("3 evenings imported.")
    expect(page.locator(".sheet-card.is-done")).to_have_count(3)
    expect(page.locator("#import-all")).to_be_hidden()
    screenshot(page, "import-done")
    sessions = list(Session.objects.filter(club=club).order_by("closed_at"))
    assert [s.closed_at.date().isoformat() for s in sessions] == [day for *_, day in SHEETS]
    assert all(s.status == "closed" for s in sessions)

    ann = Player.objects.get(club=club, name="Ann")
    page.goto(f"/players/{ann.pk}/")
    stats = page.locator("#stats")
    expect(stats).to_have_attribute("data-shown", "all")
    expect(page.locator('#stats-figures [data-figure="sessions"] .value')).to_have_text("3")
    expect(page.locator("#stats-period label")).to_have_text(["All time", "2025", "2024"])
    page.locator("#stats-period label", has_text="2024").click()
    expect(stats).to_have_attribute("data-shown", "2024")
    expect(page.locator('#stats-figures [data-figure="sessions"] .value')).to_have_text("2")
    page.locator("#stats-period label", has_text="2025").click()
    expect(stats).to_have_attribute("data-shown", "2025")
    expect(page.locator('#stats-figures [data-figure="sessions"] .value')).to_have_text("1")
    expect(page.locator("#rating-words")).to_have_text(re.compile(r"^about -?\d+, give or take \d+( · .+)?$"))
    dates = page.locator("#sessions-table tbody td:nth-child(2)").all_text_contents()
    assert dates == ["2 May 25", "7 Mar 24", "10 Jan 24"]
    page.wait_for_function("() => document.querySelectorAll('canvas').length >= 2")
    height = page.evaluate("() => document.documentElement.scrollHeight")
    assert height <= 3 * PHONE["height"], height  # the main figures in about three phone screens
    screenshot(page, "player-390")
    no_overflow(page)

    page.goto(f"/sessions/{sessions[0].pk}/settlement/")
    with page.expect_download() as download:
        page.click("#export-json")
    exported = json.loads(Path(download.value.path()).read_text(encoding="utf-8"))
    assert exported["players"] == NAMES and exported["hands"] == example_sheet(SHEETS[0][1])["hands"]
    with page.expect_download() as download:
        page.click("#export-csv")
    rows = list(csv.reader(io.StringIO(Path(download.value.path()).read_text(encoding="utf-8"))))
    assert len(rows) == 1 + len(exported["hands"])
    assert page.errors == []


DESK = {"width": 1280, "height": 900}


@pytest.mark.parametrize(("language", "viewport"), [("fr", DESK), ("ru", PHONE)])
def test_a_reopen_asked_first_and_closed_again_keeps_the_date(
    new_page: Any,
    live_server: Any,
    treasurer: Any,
    admin: Any,
    club: Club,
    players: list[Player],
    language: str,
    viewport: dict[str, int],
) -> None:
    session = evening(admin, club, players, "EUR")
    page = new_page(viewport)
    page.context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
    login(page, "treasurer", f"/sessions/{session.pk}/settlement/")
    played = fresh(session).closed_at
    page.locator("#reopen-form button").click()  # not ticked: the browser asks for the box first
    assert fresh(session).status == Session.Status.CLOSED
    page.locator("#reopen-form input[name=confirm]").check()
    page.locator("#reopen-form button").click()
    expect(page.locator("#played-on")).to_have_value(played.date().isoformat())
    page.locator(".confirm-close input[name=confirm]").check()
    page.locator(".close-form button.primary").click()
    expect(page.locator("#session-history li")).to_have_count(3)
    assert fresh(session).closed_at == played
    screenshot(page, f"settlement-history-{language}-{viewport['width']}")
    if viewport is PHONE:
        no_overflow(page)
    assert page.errors == []


# What a treasurer types and reads in each language, written out by hand (not from the formatter). The
# EUR evening of AMERICAN_HANDS at one cent a counter: Ann -0.30, Ben -1.15, Cleo +0.90, Dan +0.55, so
# the fewest transfers are Ben -> Cleo 0.60, Ben -> Dan 0.55, Ann -> Cleo 0.30 (1.45 in all). The RUB
# evening before it, at 10 roubles a counter: Ben -1,150.00.
NB, NNB, MINUS = "\u00a0", "\u202f", "\u2212"
TYPED = {  # (a part, too many decimals, a thousand and a half with the language's grouping)
    "en": ("0.10", "0.105", "1,000.50"),
    "fr": ("0,10", "0,105", f"1{NNB}000,50"),  # the narrow no-break space, as French grouping is written
    "ru": ("0,10", "0,105", f"1{NB}000,50"),
}
REFUSED = {"en": "euros have 2 decimals", "fr": "les euros ont 2 décimales", "ru": "у евро 2 знака"}
EUROS = {  # cents -> as the page writes it
    "en": {
        90: "€0.90",
        60: "€0.60",
        55: "€0.55",
        30: "€0.30",
        10: "€0.10",
        50: "€0.50",
        145: "€1.45",
        100050: "€1,000.50",
    },
    "fr": {
        c: t
        for c, t in [(90, "0,90"), (60, "0,60"), (55, "0,55"), (30, "0,30"), (10, "0,10"), (50, "0,50"), (145, "1,45")]
    }
    | {100050: f"1{NB}000,50"},
    "ru": {
        c: t
        for c, t in [(90, "0,90"), (60, "0,60"), (55, "0,55"), (30, "0,30"), (10, "0,10"), (50, "0,50"), (145, "1,45")]
    }
    | {100050: f"1{NB}000,50"},
}
for _lang in ("fr", "ru"):
    EUROS[_lang] = {c: f"{t}{NB}€" for c, t in EUROS[_lang].items()}
# Ben's statement, oldest first: (amount, balance) as the page writes them, then as the CSV does.
BEN_EUR = {
    "en": [("−€1.15", "−€1.15"), ("+€0.10", "−€1.05"), ("+€0.50", "−€0.55"), ("+€0.55", "€0.00")],
    "fr": [
        (f"−1,15{NB}€", f"−1,15{NB}€"),
        (f"+0,10{NB}€", f"−1,05{NB}€"),
        (f"+0,50{NB}€", f"−0,55{NB}€"),
        (f"+0,55{NB}€", f"0,00{NB}€"),
    ],
}
BEN_EUR["ru"] = BEN_EUR["fr"]
BEN_RUB = {"en": ("−₽1,150.00", "−₽1,150.00"), "fr": (f"−1{NB}150,00{NB}₽",) * 2, "ru": (f"−1{NB}150,00{NB}₽",) * 2}
BEN_CSV = {  # (currency, amount, balance): no grouping, the language's decimal sign, an ASCII minus
    "en": [
        ("EUR", "-1.15", "-1.15"),
        ("EUR", "0.10", "-1.05"),
        ("EUR", "0.50", "-0.55"),
        ("EUR", "0.55", "0.00"),
        ("RUB", "-1150.00", "-1150.00"),
    ],
}
BEN_CSV["fr"] = BEN_CSV["ru"] = [(c, a.replace(".", ","), b.replace(".", ",")) for c, a, b in BEN_CSV["en"]]
CSV_HEADERS = {
    "en": ("Currency", "Amount", "Balance"),
    "fr": ("Monnaie", "Montant", "Solde"),
    "ru": ("Валюта", "Сумма", "Баланс"),
}
TREASURER_RUNS = [
    pytest.param(language, viewport, id=f"{language}-{viewport['width']}px")
    for language in ("en", "fr", "ru")
    for viewport in (PHONE, DESK)
]


def tied(session: Session, payer: Player, payee: Player) -> list[tuple[str, int, bool]]:
    """The payments tied to one transfer of the evening: (kind, cents, reversed), oldest first."""
    rows = MoneyTransaction.objects.filter(for_session=session, entries__account__player=payer).filter(
        entries__account__player=payee
    )
    return [
        (tx.kind, tx.entries.get(account__player=payer).amount, hasattr(tx, "reversed_by"))
        for tx in rows.order_by("pk").distinct()
    ]


@pytest.mark.parametrize(("language", "viewport"), TREASURER_RUNS)
def test_the_treasurer_follows_every_transfer_of_an_evening_and_reads_a_two_currency_statement_back(
    new_page: Any,
    live_server: Any,
    treasurer: Any,
    admin: Any,
    club: Club,
    players: list[Player],
    language: str,
    viewport: dict[str, int],
) -> None:
    ann, ben, cleo, dan = players
    evening(admin, club, players, "RUB", "10")  # an earlier evening: Ben owes 1,150 roubles from it
    session = open_session(admin, club, players, stake={"currency": "EUR", "per_counter": "0.01"})
    record_all(admin, session, AMERICAN_HANDS)
    euros, (part, too_fine, thousand) = EUROS[language], TYPED[language]
    page = new_page(viewport)
    page.context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
    login(page, "treasurer", f"/sessions/{session.pk}/settlement/")

    page.locator(".confirm-close input[name=confirm]").check()  # the evening closed at the table
    page.locator(".close-form button.primary").click()
    transfers = page.locator("#payments li")
    expect(transfers).to_have_count(3)
    line = {
        (p, q): page.locator(f'#payments li[data-from="{p.pk}"][data-to="{q.pk}"]')
        for p, q in ((ben, cleo), (ben, dan), (ann, cleo))
    }
    for (p, q), cents in zip(line, (60, 55, 30), strict=True):
        expect(line[p, q]).to_contain_text(euros[cents])
        expect(line[p, q]).to_contain_text(p.name)
        expect(line[p, q]).to_contain_text(q.name)
    paid = page.locator("#evening-paid")
    expect(paid).to_have_attribute("data-owed", "145")
    expect(paid).to_have_attribute("data-paid", "0")
    expect(paid).to_contain_text(euros[145])
    screenshot(page, f"treasurer-closed-{language}-{viewport['width']}")

    def record(payer: Player, payee: Player, prefilled: int, typed: str | None = None, status: str = "paid") -> None:
        line[payer, payee].locator(".record-link").click()
        expect(page.locator("#pay-evening")).to_be_visible()  # tied to this evening's transfer
        expect(page.locator("#pay-from")).to_have_value(str(payer.pk))
        expect(page.locator("#pay-to")).to_have_value(str(payee.pk))
        expect(page.locator("#pay-amount")).to_have_value(euros[prefilled].strip("€" + NB))
        if typed is not None:
            page.fill("#pay-amount", typed)
        page.locator(f"#payment-form label:has(input[name=status][value={status}])").click()
        page.locator("#payment-form button.primary").click()

    # Ben -> Cleo: 0,105 is refused in words, then 0,10 of the 0,60, then the rest
    record(ben, cleo, 60, too_fine)
    expect(page.locator("#pay-amount")).to_have_value(too_fine)  # what was typed is kept
    expect(page.locator("#pay-amount")).to_have_attribute("aria-invalid", "true")
    expect(page.locator("#pay-amount-errors")).to_contain_text(REFUSED[language])
    expect(page.locator("#pay-amount")).to_be_in_viewport()  # the refusal is where the treasurer looks
    assert tied(session, ben, cleo) == []
    page.fill("#pay-amount", part)
    page.locator("#payment-form label:has(input[name=status][value=partly_paid])").click()
    page.locator("#payment-form button.primary").click()
    expect(page.locator(".messages")).to_contain_text(euros[10])
    page.goto(f"/sessions/{session.pk}/settlement/")
    expect(line[ben, cleo]).to_have_attribute("data-paid", "10")
    expect(line[ben, cleo]).to_contain_text(euros[10])
    expect(paid).to_have_attribute("data-paid", "10")
    expect(paid).to_contain_text(re.compile(rf"{re.escape(euros[10])}.*{re.escape(euros[145])}.*\(6[{NB} ]?%\)"))
    record(ben, cleo, 50)  # the link offers what is left
    page.goto(f"/sessions/{session.pk}/settlement/")
    expect(line[ben, cleo].locator(".record-link")).to_have_count(0)
    expect(line[ben, cleo].locator(".paid-mark")).to_be_visible()
    assert tied(session, ben, cleo) == [("partly_paid", 10, False), ("paid", 50, False)]

    # Ben -> Dan: given up
    record(ben, dan, 55, status="written_off")
    expect(page.locator(".messages")).to_contain_text(euros[55])
    assert tied(session, ben, dan) == [("written_off", 55, False)]

    # Ann -> Cleo: 1 000,50 typed for 0,30 is asked first, with both balances; confirmed, then reversed
    page.goto(f"/sessions/{session.pk}/settlement/")
    record(ann, cleo, 30, thousand)
    confirm = page.locator("#pay-confirm")
    expect(confirm).to_be_visible()
    expect(confirm).to_contain_text(euros[100050])
    expect(confirm).to_contain_text("Ann")
    expect(confirm).to_contain_text("Cleo")
    assert tied(session, ann, cleo) == []
    screenshot(page, f"treasurer-overpay-{language}-{viewport['width']}")
    page.click("#pay-confirm-button")
    expect(page.locator(".messages")).to_contain_text(euros[100050])
    (over,) = MoneyTransaction.objects.filter(for_session=session, entries__amount=100050)
    history = page.locator(f'.payment-history li[data-transaction="{over.pk}"]')
    # The page loaded whole before the click: once, on a loaded CI machine, the summary was clicked and its
    # details stayed closed (not seen again in 36 runs); a click while the page still lays out may land
    # beside it. The details must then be open, or the test says so here.
    page.wait_for_load_state()
    history.locator("details.reverse summary").click()
    expect(history.locator("details.reverse")).to_have_attribute("open", "")
    history.locator(".confirm-reverse input").check()  # a reversal is asked first (issue 38)
    history.locator("button.danger").click()
    expect(page.locator(f'.payment-history li[data-transaction="{over.pk}"]')).to_have_class(re.compile("is-reversed"))
    page.goto(f"/sessions/{session.pk}/settlement/")
    expect(line[ann, cleo]).to_have_attribute("data-paid", "0")  # the reversed one counts for nothing
    record(ann, cleo, 30)
    assert tied(session, ann, cleo) == [("paid", 100050, True), ("paid", 30, False)]

    page.goto(f"/sessions/{session.pk}/settlement/")
    expect(page.locator("#payments .record-link")).to_have_count(0)
    expect(paid).to_have_attribute("data-paid", "145")
    # Ben's 0.55 to Dan was written off: settled, but no money handed over (the headline says it apart)
    paid_words = rf"{re.escape(euros[90])}.*{re.escape(euros[145])}.*{re.escape(euros[55])}.*\([^)]*100[{NB} ]?%"
    expect(paid).to_contain_text(re.compile(paid_words))
    screenshot(page, f"treasurer-all-paid-{language}-{viewport['width']}")
    if viewport is PHONE:
        no_overflow(page)

    # Ben's statement: a table per currency, its CSV read back with the same figures
    page.goto(f"/players/{ben.pk}/statement/")
    expect(page.locator(".statement-currency")).to_have_count(2)
    assert page.locator(".statement-currency").evaluate_all("s => s.map(e => e.dataset.currency)") == ["EUR", "RUB"]
    shown = []
    for currency in ("EUR", "RUB"):
        rows = page.locator(f"#statement-table-{currency} tbody tr")
        shown += [
            (currency, *(c.strip() for c in row))
            for row in rows.evaluate_all("rs => rs.map(r => [...r.querySelectorAll('td.n')].map(c => c.innerText))")
        ]
    assert shown == [("EUR", *f) for f in BEN_EUR[language]] + [("RUB", *BEN_RUB[language])]
    screenshot(page, f"treasurer-statement-{language}-{viewport['width']}")
    if viewport is PHONE:
        no_overflow(page)
    with page.expect_download() as download:
        page.click("#statement-csv")
    text = Path(download.value.path()).read_text(encoding="utf-8")
    assert text.startswith("\ufeff")
    table = list(csv.reader(io.StringIO(text.removeprefix("\ufeff")), delimiter="," if language == "en" else ";"))
    header, body = table[0], table[1:]
    assert len(body) == 5, body
    at = [header.index(word) for word in CSV_HEADERS[language]]  # the headers in the page's words
    assert [tuple(r[i] for i in at) for r in body] == BEN_CSV[language]
    assert page.errors == []


@pytest.mark.parametrize("width", [360, 390])
def test_on_a_phone_the_form_is_near_the_top_and_a_recorded_payment_is_said_on_screen(
    new_page: Any, treasurer: Any, admin: Any, club: Club, players: list[Player], width: int
) -> None:
    """Issue 38, item 19: with a season of payments the books page was 6,700 px long, its form 4,860 px
    down, and the confirmation of a recorded payment was off-screen after the page came back."""
    ann, ben, cleo, dan = players
    for currency in ("EUR", "USD", "GBP"):
        evening(admin, club, players, currency)
    session = Session.objects.filter(stake__currency="EUR").get()
    from ledger.money import services as money_services

    for _ in range(30):
        money_services.payment_record(
            actor=treasurer,
            club_id=club.pk,
            payer=ann.pk,
            payee=cleo.pk,
            currency="EUR",
            cents=1,
            status="paid",
            session_id=session.pk,
            overpay=True,
        )
    page = new_page({"width": width, "height": 740})
    login(page, "treasurer", f"/clubs/{club.pk}/books/")
    form_top = page.evaluate("() => document.getElementById('record').getBoundingClientRect().top + scrollY")
    height = page.evaluate("() => document.documentElement.scrollHeight")
    assert form_top < 600, form_top  # the form opens the page
    sizes = page.evaluate(
        "() => [...document.querySelectorAll('main > *')].map(e => (e.id || e.tagName) + ':' + e.offsetHeight)"
    )
    print(f"books page at {width} px: {height} px long, form at {form_top} px; {sizes}")
    assert height < 4000, height  # older payments folded (31 payments unfolded: over 7,000 px)
    page.select_option("#pay-from", str(ben.pk))  # Ben owes 1.15 in euros: no question asked
    page.select_option("#pay-to", str(dan.pk))
    page.fill("#pay-amount", "0.10")
    page.select_option("#pay-currency", "EUR")
    page.click("text=Record the payment")
    message = page.locator(".messages")
    expect(message).to_contain_text("Recorded: Ben → Dan")
    box = message.bounding_box()
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 740, box  # on screen, not above it
    assert page.evaluate("() => document.documentElement.scrollWidth") <= width
