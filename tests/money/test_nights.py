"""The club night (issue 37): check-ins in arrival order (a guest under the club's name rules), the
tables drawn from them (replayable from the stored seed, each a session opened with its seat links),
who waits, and one settlement for the room whose transfers are paid tied to the night."""

from __future__ import annotations

import datetime as dt
import random
import uuid
from typing import Any

import pytest
from django.utils import timezone

from ledger import nights
from ledger.engine import EngineError
from ledger.engine.room import draw_tables
from ledger.exceptions import InvalidRequest, NightDrawn, NotFound, PermissionDenied
from ledger.models import CheckIn, Club, MoneyTransaction, Night, NightTable, Player, Seat, SeatLink, Session
from ledger.money import selectors as money_selectors
from ledger.money import services as money_services
from ledger.money.chain import canonical
from ledger.services.clubs import club_time_zone_set, player_create
from ledger.services.presets import preset_create
from ledger.services.sessions import session_open
from ledger.stats.models import Rating
from tests.ledger_fixtures import AMERICAN_HANDS, record_all
from tests.money.helpers import assert_ledger_balanced, close, party_balances, run_followup

pytestmark = pytest.mark.django_db

USD = {"currency": "USD", "per_counter": "0.01"}
NAMES = ("Ann", "Ben", "Cleo", "Dan", "Eve", "Fay", "Gus", "Hal", "Ida")


@pytest.fixture
def nine(admin: Any, club: Club) -> list[Player]:
    return [player_create(actor=admin, club_id=club.pk, name=n) for n in NAMES]


@pytest.fixture
def night(treasurer: Any, club: Club) -> Night:
    return nights.night_open(actor=treasurer, club_id=club.pk)[0]


def check_in_all(actor: Any, night: Night, players: list[Player]) -> None:
    for p in players:
        nights.check_in(actor=actor, night_id=night.pk, player_id=p.pk)


def draw(actor: Any, night: Night, **extra: Any) -> nights.DrawnLinks:
    return nights.night_draw(actor=actor, night_id=night.pk, variant="american", stake=USD, **extra)


# --- the night and its check-ins -------------------------------------------------------------------


def test_a_night_is_of_the_clubs_date_and_opened_once(treasurer: Any, admin: Any, club: Club) -> None:
    club_time_zone_set(actor=admin, club_id=club.pk, time_zone="Pacific/Kiritimati")  # UTC+14
    night, opened = nights.night_open(actor=treasurer, club_id=club.pk)
    assert opened
    assert night.date == (timezone.now() + dt.timedelta(hours=14)).date()
    again, opened_again = nights.night_open(actor=treasurer, club_id=club.pk, date=night.date.isoformat())
    assert (again.pk, opened_again) == (night.pk, False)
    with pytest.raises(InvalidRequest) as refused:
        nights.night_open(actor=treasurer, club_id=club.pk, date="31/12/2026")
    assert "date" in refused.value.fields


def test_only_the_treasurer_or_an_admin_opens_a_night_and_a_stranger_sees_none(
    scorer: Any, club: Club, night: Night, other_admin: Any
) -> None:
    with pytest.raises(PermissionDenied):
        nights.night_open(actor=scorer, club_id=club.pk)
    with pytest.raises(NotFound):
        nights.night_get(user=other_admin, night_id=night.pk)
    with pytest.raises(NotFound):
        nights.check_in(actor=other_admin, night_id=night.pk, player_id=1)


def test_check_ins_keep_the_order_of_arrival_and_twice_is_once(scorer: Any, night: Night, nine: list[Player]) -> None:
    check_in_all(scorer, night, [nine[2], nine[0], nine[1]])
    nights.check_in(actor=scorer, night_id=night.pk, player_id=nine[2].pk)
    room = nights.night_room(night=night)
    assert [(c.player.name, c.arrival) for c in room.here] == [("Cleo", 1), ("Ann", 2), ("Ben", 3)]


def test_a_member_checks_himself_in_but_not_another(
    admin: Any, club: Club, night: Night, nine: list[Player], player_user: Any
) -> None:
    own = player_create(actor=admin, club_id=club.pk, name="Pat", user=player_user)
    nights.check_in(actor=player_user, night_id=night.pk, player_id=own.pk)
    with pytest.raises(PermissionDenied):
        nights.check_in(actor=player_user, night_id=night.pk, player_id=nine[0].pk)


def test_a_player_of_another_club_is_refused(scorer: Any, night: Night, other_admin: Any, other_club: Club) -> None:
    stranger = player_create(actor=other_admin, club_id=other_club.pk, name="Zed")
    with pytest.raises(InvalidRequest) as refused:
        nights.check_in(actor=scorer, night_id=night.pk, player_id=stranger.pk)
    assert "player" in refused.value.fields


def test_a_guest_is_a_new_player_of_the_club_under_its_name_rules(
    scorer: Any, night: Night, nine: list[Player]
) -> None:
    arrival = nights.guest_check_in(actor=scorer, night_id=night.pk, name="  Quinn ")
    assert arrival.player.name == "Quinn" and arrival.player.club_id == night.club_id and arrival.arrival == 1
    with pytest.raises(InvalidRequest) as same:
        nights.guest_check_in(actor=scorer, night_id=night.pk, name="Quinn")
    assert "name" in same.value.fields
    with pytest.raises(InvalidRequest) as look_alike:
        nights.guest_check_in(actor=scorer, night_id=night.pk, name="Аnn")  # a Cyrillic А
    assert "name" in look_alike.value.fields
    assert CheckIn.objects.filter(night=night).count() == 1
    assert not Player.objects.filter(name="Аnn").exists()


def test_a_player_may_not_add_a_guest(player_user: Any, night: Night) -> None:
    with pytest.raises(PermissionDenied):
        nights.guest_check_in(actor=player_user, night_id=night.pk, name="Quinn")


# --- the draw --------------------------------------------------------------------------------------


def test_nine_members_make_two_tables_and_the_ninth_waits(treasurer: Any, night: Night, nine: list[Player]) -> None:
    check_in_all(treasurer, night, nine)
    drawn = draw(treasurer, night, seed=158)
    room = nights.night_room(night=nights.night_get(user=treasurer, night_id=night.pk))
    assert [t.number for t, _ in room.tables] == [1, 2]
    assert [c.player.name for c in room.waiting] == ["Ida"]
    seated = sorted(p.name for _, players in room.tables for p in players)
    assert seated == sorted(NAMES[:8])
    for table, players in room.tables:
        session = table.session
        assert session.status == Session.Status.OPEN and session.variant == "american" and session.stake == USD
        assert len(drawn.links[session.pk]) == 4
        assert SeatLink.objects.filter(session=session, revoked_at__isnull=True).count() == 4
        assert [p.pk for p in players] == list(
            Seat.objects.filter(session=session).order_by("seat").values_list("player_id", flat=True)
        )


def test_the_draw_keeps_its_seed_and_replays_from_it(treasurer: Any, night: Night, nine: list[Player]) -> None:
    check_in_all(treasurer, night, nine)
    draw(treasurer, night)
    night = Night.objects.get(pk=night.pk)
    assert night.draw_method == "lot" and night.draw_seed is not None and night.drawn_at is not None
    replay = draw_tables([p.pk for p in nine], random.Random(night.draw_seed))
    tables = [t.session for t in NightTable.objects.filter(night=night).order_by("number")]
    assert [
        (tuple(Seat.objects.filter(session=s).order_by("seat").values_list("player_id", flat=True)), s.first_dealer)
        for s in tables
    ] == [(t.seats, t.first_dealer) for t in replay.tables]


def test_a_night_is_drawn_once_and_a_refused_draw_opens_nothing(
    treasurer: Any, scorer: Any, night: Night, nine: list[Player]
) -> None:
    check_in_all(treasurer, night, nine[:3])
    with pytest.raises(InvalidRequest):
        draw(treasurer, night)  # three players: no table
    check_in_all(treasurer, night, nine[3:])
    with pytest.raises(PermissionDenied):
        draw(scorer, night)
    with pytest.raises(EngineError):
        nights.night_draw(actor=treasurer, night_id=night.pk, variant="american", stake={"currency": "usd"})
    assert not Session.objects.exists() and Night.objects.get(pk=night.pk).drawn_at is None
    draw(treasurer, night, seed=1)
    with pytest.raises(NightDrawn):
        draw(treasurer, night, seed=1)
    assert Session.objects.count() == 2


def test_by_rating_the_strongest_four_share_the_first_table(
    treasurer: Any, club: Club, night: Night, nine: list[Player], admin: Any
) -> None:
    # Ratings as the statistics keep them (one row per rated player); the strongest are the last four.
    source = session_open(
        actor=admin, club_id=club.pk, variant="american", rules={}, player_ids=[p.pk for p in nine[:4]], first_dealer=0
    )
    for rank, p in enumerate(nine[:8]):
        Rating.objects.create(
            player=p,
            club=club,
            mu=25,
            sigma=8,
            ordinal=float(rank),
            sessions=1,
            session=source,
            closed_at=timezone.now(),
        )
    check_in_all(treasurer, night, nine[:8])
    draw(treasurer, night, method="rating", seed=3)
    first = NightTable.objects.get(night=night, number=1).session
    assert set(Seat.objects.filter(session=first).values_list("player__name", flat=True)) == {
        "Eve",
        "Fay",
        "Gus",
        "Hal",
    }
    assert Night.objects.get(pk=night.pk).draw_method == "rating"


# --- the room's settlement -------------------------------------------------------------------------


def play_and_close(actor: Any, night: Night) -> list[Session]:
    tables = [t.session for t in NightTable.objects.filter(night=night).order_by("number")]
    closed = []
    for s in tables:
        record_all(actor, s, AMERICAN_HANDS)
        closed.append(close(actor, s))
        run_followup(closed[-1])
    return closed


def test_the_room_is_settled_once_every_table_is_closed(treasurer: Any, night: Night, nine: list[Player]) -> None:
    assert money_selectors.night_settlement(night_id=night.pk).refusal == money_selectors.NO_TABLES
    check_in_all(treasurer, night, nine)
    draw(treasurer, night, seed=5)
    first = NightTable.objects.get(night=night, number=1).session
    record_all(treasurer, first, AMERICAN_HANDS)
    run_followup(close(treasurer, first))
    room = money_selectors.night_settlement(night_id=night.pk)
    assert not room.ready and room.refusal == money_selectors.NOT_ALL_CLOSED


def test_one_settlement_for_the_room_sums_each_players_tables_and_is_paid_tied_to_the_night(
    treasurer: Any, club: Club, night: Night, nine: list[Player]
) -> None:
    check_in_all(treasurer, night, nine)
    draw(treasurer, night, seed=9)
    tables = play_and_close(treasurer, night)
    room = money_selectors.night_settlement(night_id=night.pk)
    assert room.ready and room.currency == "USD"
    # Each player's total is the sum of his money at every table; the per-table settlements stay.
    expected: dict[int, int] = {}
    for s in tables:
        for seat, cents in zip(Seat.objects.filter(session=s).order_by("seat"), s.closing["money"], strict=True):
            expected[seat.player_id] = expected.get(seat.player_id, 0) + cents
        assert money_selectors.evening_paid(session=s) is not None
    assert {p: a for p, _, a in room.totals if a} == {p: a for p, a in expected.items() if a}
    assert len(room.transfers) <= len([a for a in expected.values() if a]) - 1
    for t in room.transfers:
        money_services.payment_record(
            actor=treasurer,
            club_id=club.pk,
            payer=t.payer,
            payee=t.payee,
            currency="USD",
            cents=t.cents,
            status="paid",
            client_key=uuid.uuid4(),
            night_id=night.pk,
        )
    done = money_selectors.night_settlement(night_id=night.pk)
    assert done.paid == done.owed > 0 and all(t.left == 0 for t in done.transfers)
    assert all(v == 0 for (cur, _), v in party_balances(club.pk).items() if cur == "USD")
    assert MoneyTransaction.objects.filter(for_night=night).count() == len(room.transfers)
    assert_ledger_balanced(club.pk)


def test_a_night_payment_beyond_its_transfer_or_not_of_the_night_is_refused(
    treasurer: Any, club: Club, night: Night, nine: list[Player]
) -> None:
    check_in_all(treasurer, night, nine)
    draw(treasurer, night, seed=9)
    play_and_close(treasurer, night)
    t = money_selectors.night_settlement(night_id=night.pk).transfers[0]

    def pay(**extra: Any) -> Any:
        base = {"payer": t.payer, "payee": t.payee, "currency": "USD", "cents": t.cents, "status": "paid"}
        return money_services.payment_record(actor=treasurer, club_id=club.pk, **{**base, **extra})

    with pytest.raises(money_services.Overpayment):
        pay(cents=t.cents + 1, night_id=night.pk)
    with pytest.raises(InvalidRequest) as reversed_:
        pay(payer=t.payee, payee=t.payer, night_id=night.pk)
    assert "night" in reversed_.value.fields
    with pytest.raises(InvalidRequest) as currency:
        pay(currency="EUR", night_id=night.pk)
    assert "currency" in currency.value.fields
    with pytest.raises(InvalidRequest) as both:
        pay(night_id=night.pk, session_id=t.payer)
    assert "night" in both.value.fields
    tx = pay(night_id=night.pk)
    assert b'"for_night_id":' in canonical(tx, [(e.account_id, e.amount) for e in tx.entries.all()])


def test_tables_in_two_currencies_are_refused_with_a_clear_word(
    treasurer: Any, admin: Any, club: Club, night: Night, nine: list[Player]
) -> None:
    check_in_all(treasurer, night, nine)
    draw(treasurer, night, seed=2)
    second = NightTable.objects.get(night=night, number=2).session
    Session.objects.filter(pk=second.pk).update(stake={"currency": "EUR", "per_counter": "0.01"})
    play_and_close(treasurer, night)
    room = money_selectors.night_settlement(night_id=night.pk)
    assert not room.ready and "EUR, USD" in room.refusal and "one currency" in room.refusal


def test_a_night_of_another_club_is_not_found_for_a_payment(
    treasurer: Any, club: Club, night: Night, other_admin: Any, other_club: Club
) -> None:
    theirs = nights.night_open(actor=other_admin, club_id=other_club.pk)[0]
    ann = player_create(actor=treasurer, club_id=club.pk, name="Ann")
    ben = player_create(actor=treasurer, club_id=club.pk, name="Ben")
    with pytest.raises(InvalidRequest) as refused:
        money_services.payment_record(
            actor=treasurer,
            club_id=club.pk,
            payer=ann.pk,
            payee=ben.pk,
            currency="USD",
            cents=100,
            status="paid",
            night_id=theirs.pk,
        )
    assert "night" in refused.value.fields


def test_tables_open_from_the_clubs_preset_and_keep_its_version(
    treasurer: Any, club: Club, night: Night, nine: list[Player]
) -> None:
    preset = preset_create(
        actor=treasurer, club_id=club.pk, name="Friday", variant="russian", rules={"basket": 20}, stake=USD
    )
    check_in_all(treasurer, night, nine[:8])
    nights.night_draw(actor=treasurer, night_id=night.pk, variant="", preset_id=preset.pk, seed=11)
    for table in NightTable.objects.filter(night=night).select_related("session__preset_version"):
        session = table.session
        assert (session.variant, session.stake, session.rules["basket"]) == ("russian", USD, 20)
        assert session.preset_version is not None and session.preset_version.preset_id == preset.pk


def test_a_preset_of_another_club_opens_no_table(
    treasurer: Any, night: Night, nine: list[Player], other_admin: Any, other_club: Club
) -> None:
    theirs = preset_create(actor=other_admin, club_id=other_club.pk, name="Theirs", variant="american", rules={})
    check_in_all(treasurer, night, nine[:4])
    with pytest.raises(InvalidRequest) as refused:
        nights.night_draw(actor=treasurer, night_id=night.pk, variant="", preset_id=theirs.pk)
    assert "preset" in refused.value.fields and not NightTable.objects.exists()
