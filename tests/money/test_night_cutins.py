"""Cut-ins at a table's break (issue 37): when players wait, the longest seated (a tie by lot) or the
lot cuts out; in one write the game is closed with its pools carried and the next game opened with the
waiting player seated (game 2 of the same table, its seat links ready), the one who cut out at the end
of the waiting line; refused before the break, 409 when the table has moved on."""

from __future__ import annotations

import random
from typing import Any

import pytest

from ledger import nights
from ledger.engine.room import cut_in, cut_seed
from ledger.exceptions import GameMoved, InvalidRequest, PermissionDenied
from ledger.models import Club, Night, NightTable, Player, SeatLink, Session
from ledger.money import selectors as money_selectors
from ledger.services.clubs import player_create
from tests.ledger_fixtures import AMERICAN_HANDS, record_all
from tests.money.helpers import close

pytestmark = pytest.mark.django_db

USD = {"currency": "USD", "per_counter": "0.01"}
NAMES = ("Ann", "Ben", "Cleo", "Dan", "Eve", "Fay", "Gus", "Hal", "Ida")
# Twelve American deals, the last a failed seven: the game ends with counters in the pool.
GAME = AMERICAN_HANDS * 2 + AMERICAN_HANDS[:3] + AMERICAN_HANDS[:1]


@pytest.fixture
def nine(admin: Any, club: Club) -> list[Player]:
    return [player_create(actor=admin, club_id=club.pk, name=n) for n in NAMES]


@pytest.fixture
def night(treasurer: Any, club: Club, nine: list[Player]) -> Night:
    found = nights.night_open(actor=treasurer, club_id=club.pk)[0]
    for p in nine:
        nights.check_in(actor=treasurer, night_id=found.pk, player_id=p.pk)
    nights.night_draw(actor=treasurer, night_id=found.pk, variant="american", stake=USD, seed=59)
    return Night.objects.get(pk=found.pk)


def game_of(night: Night, number: int) -> NightTable:
    return NightTable.objects.filter(night=night, number=number).order_by("-game").select_related("session")[0]


def test_a_cut_in_before_the_break_is_refused_in_words(treasurer: Any, night: Night) -> None:
    record_all(treasurer, game_of(night, 1).session, GAME[:11])
    proposal = nights.cut_in_proposal(night=night, number=1)
    assert not proposal.ready and proposal.played == 11 and proposal.break_deal == 12
    with pytest.raises(InvalidRequest) as refused:
        nights.night_cut_in(actor=treasurer, night_id=night.pk, number=1, game=1)
    assert refused.value.fields == {"table": ["a cut-in waits for the end of the game: the 12th deal"]}
    assert NightTable.objects.filter(night=night).count() == 2


def test_at_the_break_the_waiting_player_cuts_in_and_the_pools_are_carried(treasurer: Any, night: Night) -> None:
    first = game_of(night, 1)
    record_all(treasurer, first.session, GAME)
    proposal = nights.cut_in_proposal(night=night, number=1)
    assert proposal.ready and [p.name for p in proposal.into] == ["Ida"]
    # The four have sat one game each: a tie, cut by the lot of the seed derived from the draw's.
    seated = [p.pk for p in proposal.players]
    expected = cut_in(seated, [proposal.into[0].pk], {}, random.Random(cut_seed(59, 1, 1)))
    assert [p.pk for p in proposal.out] == list(expected.out) and proposal.seed == cut_seed(59, 1, 1)
    pools = Session.objects.get(pk=first.session_id).pools
    assert any(pools)
    done = nights.night_cut_in(actor=treasurer, night_id=night.pk, number=1, game=1)
    closed = Session.objects.get(pk=first.session_id)
    assert closed.status == "closed" and closed.close == {"pools": "carry"} and closed.closing["carried"] == pools
    second = game_of(night, 1)
    assert (second.game, second.cut_method, second.cut_seed) == (2, "longest", proposal.seed)
    opened = second.session
    assert opened.carry_pools_from_id == closed.pk and opened.pools_in == pools
    assert (opened.variant, opened.stake, opened.status) == ("american", USD, "open")
    assert [s.player_id for s in opened.seats.order_by("seat")] == list(expected.table.seats)
    assert opened.first_dealer == expected.table.first_dealer
    assert SeatLink.objects.filter(session=opened).count() == 4 and len(done.links) == 4
    room = nights.night_room(night=night)
    assert [c.player.name for c in room.waiting] == [proposal.out[0].name]  # the end of the line
    assert [(t.number, t.game) for t, _ in room.current] == [(1, 2), (2, 1)]
    assert [(t.number, t.game) for t, _ in room.tables] == [(1, 1), (1, 2), (2, 1)]


def test_the_longest_seated_cuts_out_next_and_a_later_arrival_queues_after_him(
    treasurer: Any, admin: Any, club: Club, night: Night
) -> None:
    record_all(treasurer, game_of(night, 1).session, GAME)
    out1 = nights.night_cut_in(actor=treasurer, night_id=night.pk, number=1, game=1).proposal.out[0]
    late = player_create(actor=admin, club_id=club.pk, name="Kit")
    nights.check_in(actor=treasurer, night_id=night.pk, player_id=late.pk)
    room = nights.night_room(night=night)
    assert [c.player.name for c in room.waiting] == [out1.name, "Kit"]
    record_all(treasurer, game_of(night, 1).session, GAME)
    proposal = nights.cut_in_proposal(night=night, number=1)
    # Three have sat two games in a row, Ida one: one of the three cuts out, and out1 cuts back in.
    assert proposal.out[0].name != "Ida" and [p.pk for p in proposal.into] == [out1.pk]
    by_lot = nights.cut_in_proposal(night=night, number=1, method="lot")
    assert by_lot.seed == proposal.seed and by_lot.method == "lot"
    two = nights.cut_in_proposal(night=night, number=1, count=2)
    assert [p.name for p in two.into] == [out1.name, "Kit"] and len(two.out) == 2


def test_a_second_cut_in_of_the_same_game_is_409_and_nobody_waiting_is_refused(treasurer: Any, night: Night) -> None:
    record_all(treasurer, game_of(night, 1).session, GAME)
    nights.night_cut_in(actor=treasurer, night_id=night.pk, number=1, game=1)
    with pytest.raises(GameMoved):
        nights.night_cut_in(actor=treasurer, night_id=night.pk, number=1, game=1)
    with pytest.raises(InvalidRequest) as wrong:
        nights.night_cut_in(actor=treasurer, night_id=night.pk, number=3, game=1)
    assert wrong.value.fields == {"table": ["no such table tonight"]}
    with pytest.raises(InvalidRequest) as many:
        nights.cut_in_proposal(night=night, number=2, count=2)
    assert "count" in many.value.fields


def test_only_the_treasurer_cuts_in(scorer: Any, treasurer: Any, night: Night) -> None:
    record_all(treasurer, game_of(night, 1).session, GAME)
    with pytest.raises(PermissionDenied):
        nights.night_cut_in(actor=scorer, night_id=night.pk, number=1, game=1)


def test_a_game_closed_by_hand_is_cut_in_as_it_was_closed(treasurer: Any, night: Night) -> None:
    """The treasurer divided the pools himself (or stopped early): the cut-in closes nothing again."""
    first = game_of(night, 1)
    record_all(treasurer, first.session, GAME[:4])
    close(treasurer, first.session)
    done = nights.night_cut_in(actor=treasurer, night_id=night.pk, number=1, game=1)
    assert done.settlement is None and done.opened.session.carry_pools_from_id is None


def test_the_room_settles_both_games_of_a_table(treasurer: Any, night: Night) -> None:
    record_all(treasurer, game_of(night, 1).session, GAME)
    nights.night_cut_in(actor=treasurer, night_id=night.pk, number=1, game=1)
    record_all(treasurer, game_of(night, 1).session, AMERICAN_HANDS)
    for number in (1, 2):
        close(treasurer, game_of(night, number).session)
    room = money_selectors.night_settlement(night_id=night.pk)
    assert room.ready and len(room.tables) == 3
    sums: dict[Any, int] = {}
    for table in NightTable.objects.filter(night=night).select_related("session"):
        closing = table.session.closing
        for seat, cents in zip(table.session.seats.order_by("seat"), closing["money"], strict=True):
            sums[seat.player_id] = sums.get(seat.player_id, 0) + cents
        sums["pool"] = sums.get("pool", 0) + closing.get("pool_money", 0)
    assert {p: c for p, _n, c in room.totals} == sums  # the pool carried in game 1 is taken in game 2


def test_the_partie_breaks_at_the_40th_deal(treasurer: Any, admin: Any, club: Club, nine: list[Player]) -> None:
    found = nights.night_open(actor=treasurer, club_id=club.pk, date="2026-03-15")[0]
    for p in nine[:5]:
        nights.check_in(actor=treasurer, night_id=found.pk, player_id=p.pk)
    nights.night_draw(actor=treasurer, night_id=found.pk, variant="french", seed=1)
    with pytest.raises(InvalidRequest) as refused:
        nights.night_cut_in(actor=treasurer, night_id=found.pk, number=1, game=1)
    assert refused.value.fields == {"table": ["a cut-in waits for the end of the partie: the 40th deal"]}
