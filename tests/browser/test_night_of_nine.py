"""Issue 37's "Done when", played through: a night of nine members on 390 px phones. The treasurer taps
each arrival in at the door and draws two tables; the ninth waits. At table 1 a game of twelve deals is
played to its break and the ninth cuts in from the night page; at table 2 a member leaves after deal 3
and the scorer seats a guest, Quinn, from the scorer page. Every table closed, the room is settled once:
its payments are the fewest (against `tests/exhaustive.py`'s search over every party) and each player's
total is the sum of his results at every table, the leaver and the guest each on his own deals, the
player cut out on his one game. The deals are recorded through the services (the pages are not the
point there); the amounts are worked by hand below from those deals, not read from the engine.

The tables are the club's preset: American, decimal table, `ante` 0 and a stake of one cent a counter.
Without antes no pool ever forms (a failure "doubles" no pool, rules.md §1.5), so each deal moves only
its contract's counters between the four seats and a counter is a cent."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from ledger import selectors
from ledger.engine.room import table_results
from ledger.models import Club, NightTable, Player, Session
from ledger.money import selectors as money_selectors
from ledger.services.presets import preset_create
from tests.browser.a11y import axe_violations
from tests.browser.conftest import BROWSER, login, screenshot
from tests.browser.test_night import _doors_open_to_every_table_playing, _members
from tests.browser.test_presets import Taps
from tests.exhaustive import most_zero_groups
from tests.ledger_fixtures import record_all
from tests.money.helpers import close

pytestmark = BROWSER

PHONE_390 = {"width": 390, "height": 844}
Deal = tuple[dict[str, Any], tuple[int, int, int, int]]
USD = {"currency": "USD", "per_counter": "0.01"}

# Each deal with its counters per seat, worked by hand (rules.md §1.3 A-T2/A-T4, §1.4, §1.6; ante 0).
SEVEN_FAILED_1: Deal = (  # seat 1 bids seven, takes 6: down 1, A-T4 Seven s=1 = 20 to each adversary
    {"bid": "seven", "bidder": 1, "trump": "clubs", "tricks": [3, 6, 2, 2]},
    (20, -60, 20, 20),
)
SEVEN_MADE_2: Deal = (  # seat 2 bids seven, takes 7: A-T2 Seven = 20 from each adversary
    {"bid": "seven", "bidder": 2, "trump": "hearts", "tricks": [2, 2, 7, 2]},
    (-20, -20, 60, -20),
)
PARTOUT: Deal = (  # all pass, 4-4-3-2: seats 0 and 1 lose; seat 2 gets 10x1, seat 3 10x2, halved per loser
    {"bid": "pass", "tricks": [4, 4, 3, 2]},
    (-15, -15, 10, 20),
)
BOSTON_3: Deal = (  # seat 3 bids boston (five), takes 5: A-T2 Five = 10 from each adversary
    {"bid": "boston", "bidder": 3, "trump": "spades", "tricks": [2, 2, 4, 5]},
    (-10, -10, -10, 30),
)
SIX_0: Deal = (  # seat 0 bids six, takes 6: A-T2 Six = 15 from each adversary
    {"bid": "six", "bidder": 0, "trump": "hearts", "tricks": [6, 3, 2, 2]},
    (45, -15, -15, -15),
)
EIGHT_FAILED_3: Deal = (  # seat 3 bids eight, takes 6: down 2, A-T4 Eight s=2 = 35 to each adversary
    {"bid": "eight", "bidder": 3, "trump": "spades", "tricks": [2, 2, 3, 6]},
    (35, 35, 35, -105),
)
ROUND: list[Deal] = [SEVEN_FAILED_1, SEVEN_MADE_2, PARTOUT, BOSTON_3, SIX_0, EIGHT_FAILED_3]
TABLE_1_GAME_1 = ROUND * 2  # twelve deals: the break (000:59)
TABLE_1_GAME_2: list[Deal] = [SIX_0, PARTOUT, BOSTON_3]
TABLE_2_BEFORE: list[Deal] = [SEVEN_MADE_2, SIX_0, PARTOUT]  # the leaver's three deals at seat 1
TABLE_2_AFTER: list[Deal] = [SEVEN_FAILED_1, EIGHT_FAILED_3, BOSTON_3]  # Quinn's, from deal 4
LEAVING_SEAT = 1


def hands(deals: list[Deal]) -> list[dict[str, Any]]:
    return [hand for hand, _ in deals]


def by_hand(seats: list[str], deals: list[Deal], into: dict[str, int]) -> dict[str, int]:
    """Adds each seat's counters over `deals` to its player's cents in `into` (a counter is a cent)."""
    for _, counters in deals:
        assert sum(counters) == 0
        for name, c in zip(seats, counters, strict=True):
            into[name] = into.get(name, 0) + c
    return into


def names(session: Session) -> list[str]:
    return [s.player.name for s in session.seats.order_by("seat").select_related("player")]


def test_a_night_of_nine_cut_in_substitute_and_one_settlement_for_the_room(
    new_page: Any, treasurer: Any, scorer: Any, admin: Any, club: Club
) -> None:
    preset_create(actor=admin, club_id=club.pk, name="Tuesdays", variant="american", rules={"ante": 0}, stake=USD)
    members: list[Player] = _members(admin, club, 9)
    page = new_page(PHONE_390, touch=True)
    _taps, night = _doors_open_to_every_table_playing(page, club, members)
    ninth = members[8].name
    expect(page.locator("#waiting-list li")).to_have_text([ninth])

    # Table 1: a game of twelve deals to its break, then the ninth cuts in with one tap on the night page.
    game_1 = NightTable.objects.select_related("session").get(night=night, number=1, game=1).session
    seats_1 = names(game_1)
    record_all(treasurer, game_1, hands(TABLE_1_GAME_1))
    page.reload()
    expect(page.locator("#cut-in-1")).to_contain_text(f"Cut-in: {ninth} for ")
    taps = Taps(page)
    taps.tap("#cut-in-button-1")
    expect(page.locator('.night-table[data-table="1"]')).to_have_attribute("data-game", "2")
    assert taps.count == 1
    game_2 = NightTable.objects.select_related("session").get(night=night, number=1, game=2).session
    seats_2 = names(game_2)
    (cut_out,) = set(seats_1) - set(seats_2)
    assert ninth in seats_2 and ninth not in seats_1
    expect(page.locator("#waiting-list li")).to_have_text([cut_out])  # he waits now
    record_all(treasurer, game_2, hands(TABLE_1_GAME_2))

    # Table 2: three deals, then the scorer seats a guest for the member at seat 2 from his phone.
    table_2 = NightTable.objects.select_related("session").get(night=night, number=2).session
    seats_t2 = names(table_2)
    leaver = seats_t2[LEAVING_SEAT]
    record_all(treasurer, table_2, hands(TABLE_2_BEFORE))
    phone = new_page(PHONE_390, touch=True)
    login(phone, "scorer", f"/sessions/{table_2.pk}/score/")
    phone.locator("#substitute-link").tap()
    phone.wait_for_url("**/substitute/")
    expect(phone.locator("#substitute-hint")).to_contain_text("deal 4")
    phone.select_option("#substitute-seat", str(LEAVING_SEAT))
    phone.locator("#substitute-guest").tap()
    phone.keyboard.type("Quinn")
    phone.locator("#substitute-submit").tap()
    phone.wait_for_url("**/score/")
    expect(phone.locator("body")).to_contain_text("Quinn takes seat 2 from deal 4")
    record_all(treasurer, table_2, hands(TABLE_2_AFTER))

    # The night closes: every table closed (game 1 was closed by the cut-in).
    for session in (game_2, table_2):
        close(treasurer, session)
    assert all(t.session.status == Session.Status.CLOSED for t in NightTable.objects.filter(night=night))

    # Worked by hand: each table's cents per player, then the night's per player as their sum.
    seats_quinn = [*seats_t2[:LEAVING_SEAT], "Quinn", *seats_t2[LEAVING_SEAT + 1 :]]
    per_table = {
        game_1.pk: by_hand(seats_1, TABLE_1_GAME_1, {}),
        game_2.pk: by_hand(seats_2, TABLE_1_GAME_2, {}),
        table_2.pk: by_hand(seats_quinn, TABLE_2_AFTER, by_hand(seats_t2, TABLE_2_BEFORE, {})),
    }
    assert per_table[table_2.pk][leaver] == -20 - 15 - 15  # his three deals only
    assert per_table[table_2.pk]["Quinn"] == -60 + 35 - 10  # his from deal 4
    expected: dict[str, int] = {}
    for amounts in per_table.values():
        for name, cents in amounts.items():
            expected[name] = expected.get(name, 0) + cents
    assert len(expected) == 10 and sum(expected.values()) == 0  # nine members and the guest
    # The cut-out player's night is his one game; the others at table 1 add both games.
    assert expected[cut_out] == per_table[game_1.pk][cut_out]
    for name in set(seats_1) & set(seats_2):
        assert expected[name] == per_table[game_1.pk][name] + per_table[game_2.pk][name]

    # The product's tables each match the hand's, and the room's totals are their sum.
    for table in NightTable.objects.filter(night=night).select_related("session"):
        parties = [p.name for p in selectors.closing_players(session=table.session)]
        assert table_results(parties, table.session.closing) == per_table[table.session_id]
    room = money_selectors.night_settlement(night_id=night.pk)
    assert room.ready and room.currency == "USD"
    assert {name: cents for _party, name, cents in room.totals} == expected

    # The fewest payments: as many as the parties owed or owing less the most groups that square alone.
    owing = tuple(c for c in expected.values() if c)
    assert len(room.transfers) == len(owing) - most_zero_groups(owing)
    balance = dict(expected)
    for t in room.transfers:
        assert t.cents > 0
        balance[t.payer_name] += t.cents
        balance[t.payee_name] -= t.cents
    assert set(balance.values()) == {0}

    # The room's settlement page shows those payments.
    page.goto(f"/clubs/{club.pk}/nights/{night.pk}/settlement/")
    expect(page.locator("#night-tables li")).to_contain_text(  # each game under its own table
        ["Table 1 · game 1", "Table 1 · game 2", "Table 2 · game 1"]
    )
    rows = page.locator("#room-payments li")
    expect(rows).to_have_count(len(room.transfers))
    shown = rows.evaluate_all(
        "lis => lis.map(li => [li.textContent.replace(/\\s+/g, ' ').trim(),"
        " Number(li.querySelector('.money').dataset.cents)])"
    )
    for (text, cents), t in zip(shown, room.transfers, strict=True):
        assert text.startswith(f"{t.payer_name} → {t.payee_name}:") and cents == t.cents, (text, cents)
    for name in ("Quinn", leaver, cut_out):
        if expected[name]:
            expect(page.locator("#room-totals")).to_contain_text(name)
    screenshot(page, "night-of-nine-settlement")
    assert axe_violations(page) == []
    assert page.errors == [] and phone.errors == []
