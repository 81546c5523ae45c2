"""Table law in the statistics (issue 42, rules.md §0.11): each player's revokes, misdeals (as the
deal's dealer) and concessions (a bidder who paid instead of playing), a count and a rate per deal
played; a penalty is never a contract made.

Revokes go through the engine (French and Russian sheets have them). The engine of this branch does
not take `bid: "misdeal"` or `conceded: "bidder"` yet (branch `tablelaw`): those hands are written
into a closed session's stored JSON directly, as the engine will store them (rules.md §0.11's sheet
format), and the statistics are recomputed from the hands, as the follow-up does.
"""

from __future__ import annotations

from typing import Any

import pytest

from ledger.models import Hand, Player
from ledger.stats.figures import contract_outcome, session_figures
from ledger.stats.models import PlayerMonth, PlayerSession
from ledger.stats.services import stats_rebuild, stats_session_refresh
from tests.ledger_fixtures import example_sheet
from tests.stats.helpers import import_closed, sheet, snapshot

pytestmark = pytest.mark.django_db

NO_MOVE: dict[str, Any] = {"transfers": []}


def test_figures_count_each_event_against_its_culprit() -> None:
    """Pure figures, from hands in the sheet format of §0.11: the revoking seat, the misdeal's dealer
    (the settled hand's `dealer`), the bidder who conceded; neither penalty is a contract."""
    hands: list[tuple[dict[str, Any], dict[str, Any]]] = [
        (
            {"bid": "simple", "bidder": 1, "trump": "hearts", "revoke": 1, "tricks": [3, 5, 3, 1]},
            {**NO_MOVE, "dealer": 0},
        ),
        ({"bid": "misdeal"}, {**NO_MOVE, "dealer": 2}),
        ({"bid": "misdeal"}, {**NO_MOVE, "dealer": 2}),
        ({"bid": "six", "bidder": 3, "trump": "spades", "conceded": "bidder"}, {**NO_MOVE, "dealer": 3}),
    ]
    seats = session_figures("french", hands, {"final": [0, 0, 0, 0]})
    assert [(s.revokes, s.misdeals, s.concessions) for s in seats] == [(0, 0, 0), (1, 0, 0), (0, 2, 0), (0, 0, 1)]
    assert seats[1].bidder_played == 1 and seats[1].bidder_made == 0  # the revoking bidder: not made
    assert seats[3].bidder_played == 0 and seats[3].contracts == {}  # paid instead: no contract
    assert seats[2].contracts == {}
    assert contract_outcome("american", {"bid": "seven", "bidder": 0, "conceded": "bidder"}) is None
    assert contract_outcome("american", {"bid": "misdeal"}) is None


def test_revokes_through_the_engine_the_rows_and_the_api(admin: Any, club: Any, api: Any) -> None:
    session = import_closed(admin, club, example_sheet("french-revokes"))  # revokes by seats 1, 0, 3, 2
    rows = {r.seat: r for r in PlayerSession.objects.filter(session=session)}
    assert [rows[s].revokes for s in range(4)] == [1, 1, 1, 1]
    assert sum(m.revokes for m in PlayerMonth.objects.all()) == 4
    adele = Player.objects.get(club=club, name="Adèle")
    body = api.get(f"/api/v1/players/{adele.pk}/stats/").json()
    assert body["variants"]["french"]["table_law"] == {
        "revokes": {"count": 1, "rate": 0.2},  # 1 of 5 deals
        "misdeals": {"count": 0, "rate": 0.0},
        "concessions": {"count": 0, "rate": 0.0},
    }
    lines = api.get(f"/api/v1/players/{adele.pk}/stats/?format=csv").content.decode().splitlines()
    assert "revokes.count,french,,,,1" in lines and "revokes.rate,french,,,,0.2" in lines


def test_misdeals_and_concessions_from_the_stored_hands(admin: Any, club: Any, api: Any) -> None:
    names = ["Ann", "Ben", "Cleo", "Dan"]
    deals: list[dict[str, Any]] = [
        {"bid": "pass", "tricks": [4, 3, 3, 3]},  # dealt by Ann (seat 0): to be a misdeal
        {"bid": "seven", "bidder": 1, "trump": "clubs", "tricks": [2, 7, 2, 2]},  # Ben's, to be paid instead
        {"bid": "seven", "bidder": 2, "trump": "hearts", "tricks": [2, 2, 7, 2]},
        {"bid": "pass", "tricks": [4, 3, 3, 3]},
    ]
    session = import_closed(admin, club, sheet("american", names, deals))
    ben = Player.objects.get(club=club, name="Ben")
    before = api.get(f"/api/v1/players/{ben.pk}/stats/").json()["variants"]["american"]
    assert before["contracts"][0]["played"] == 1 and before["contracts"][0]["made"] == 1
    Hand.objects.filter(session=session, number=1).update(raw={"bid": "misdeal"})
    Hand.objects.filter(session=session, number=2).update(
        raw={"bid": "seven", "bidder": 1, "trump": "clubs", "conceded": "bidder"}
    )
    stats_session_refresh(session_id=session.pk)
    rows = {r.seat: r for r in PlayerSession.objects.filter(session=session)}
    assert [(rows[s].misdeals, rows[s].concessions) for s in range(4)] == [(1, 0), (0, 1), (0, 0), (0, 0)]
    after = api.get(f"/api/v1/players/{ben.pk}/stats/").json()["variants"]["american"]
    assert after["table_law"]["concessions"] == {"count": 1, "rate": 0.25}
    assert after["contracts"] == []  # paid instead of playing: not a contract made, nor one played
    ann = Player.objects.get(club=club, name="Ann")
    assert api.get(f"/api/v1/players/{ann.pk}/stats/").json()["variants"]["american"]["table_law"]["misdeals"] == {
        "count": 1,
        "rate": 0.25,
    }
    assert (rows[1].bidder_played, rows[1].bidder_made) == (0, 0)  # what the success leaderboard sums
    kept = snapshot()
    stats_rebuild(club_id=club.pk)  # the rebuild from the hands finds the same
    assert snapshot() == kept


def test_the_migration_counts_the_revokes_of_earlier_evenings(admin: Any, club: Any) -> None:
    """Rows made before the counts existed say 0 revokes: the migration counts them from the hands."""
    from importlib import import_module

    from django.apps import apps

    session = import_closed(admin, club, example_sheet("russian-revokes"))
    kept = snapshot()
    PlayerSession.objects.update(revokes=0)
    PlayerMonth.objects.update(revokes=0)
    import_module("ledger.stats.migrations.0002_table_law_counts").count_earlier_revokes(apps, None)
    assert snapshot() == kept
    assert sum(PlayerSession.objects.filter(session=session).values_list("revokes", flat=True)) == 4
