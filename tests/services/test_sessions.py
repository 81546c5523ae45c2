"""ledger.services: opening, recording, amending, undoing, closing, reopening, importing sessions."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import IntegrityError, transaction

from ledger import selectors
from ledger.engine import EngineError, settle
from ledger.engine.variants import variant_names
from ledger.exceptions import (
    InvalidRequest,
    NotFound,
    NotLastHand,
    PermissionDenied,
    PoolsClaimed,
    SessionClosed,
    SessionNotClosed,
    StaleNumber,
    VersionMismatch,
)
from ledger.models import Hand, HandRevision, Player, Session
from ledger.services.clubs import club_create, player_create
from ledger.services.hands import hand_amend, hand_record, hand_undo
from ledger.services.sessions import session_close, session_import, session_open, session_reopen
from tests.ledger_fixtures import (
    AMERICAN_HANDS,
    assert_projection,
    fresh,
    long_sheet,
    open_session,
    other_valid_hand,
    record_all,
)

pytestmark = pytest.mark.django_db


# --- opening ---------------------------------------------------------------------------------------


def test_open_starts_at_version_1_with_the_first_deal_next(session: Session) -> None:
    session = fresh(session)
    assert session.version == 1
    assert session.status == "open"
    assert session.balances == [0, 0, 0, 0]
    assert session.pools == []
    assert session.next_deal == {"number": 1, "dealer": 0, "double": False}
    assert [p.name for p in selectors.session_players(session=session)] == ["Ann", "Ben", "Cleo", "Dan"]


def test_open_needs_a_scorer(club: Any, players: list[Player], player_user: Any, other_admin: Any) -> None:
    with pytest.raises(PermissionDenied):
        open_session(player_user, club, players)
    with pytest.raises(NotFound):  # a superuser of another club sees nothing of this one
        open_session(other_admin, club, players)
    assert not Session.objects.exists()


def test_open_refuses_bad_players(
    admin: Any, club: Any, players: list[Player], other_club: Any, other_admin: Any
) -> None:
    stranger = player_create(actor=other_admin, club_id=other_club.pk, name="Zoe")
    for ids in ([p.pk for p in players[:3]], [players[0].pk] * 4, [*(p.pk for p in players[:3]), stranger.pk]):
        with pytest.raises(InvalidRequest) as caught:
            session_open(actor=admin, club_id=club.pk, variant="american", rules={}, player_ids=ids, first_dealer=0)
        assert "players" in caught.value.fields
    assert not Session.objects.exists()


@pytest.mark.parametrize(
    ("change", "code", "field"),
    [
        ({"variant": "whist"}, "invalid_sheet", "variant"),
        ({"rules": {"no_such_rule": 1}}, "invalid_option", "rules.no_such_rule"),
        ({"first_dealer": 4}, "invalid_sheet", "first_dealer"),
        ({"stake": {"currency": "usd", "per_counter": "0.01"}}, "invalid_sheet", "stake"),
    ],
)
def test_open_lets_the_engine_judge_the_sheet(
    admin: Any, club: Any, players: list[Player], change: dict, code: str, field: str
) -> None:
    args = {"variant": "american", "rules": {}, "first_dealer": 0, **change}
    with pytest.raises(EngineError) as caught:
        session_open(actor=admin, club_id=club.pk, player_ids=[p.pk for p in players], **args)
    assert caught.value.code == code
    assert field in caught.value.fields
    assert not Session.objects.exists()


# --- recording -------------------------------------------------------------------------------------


def test_record_bumps_the_version_and_stores_the_engines_projection(admin: Any, session: Session) -> None:
    hand = hand_record(actor=admin, session_id=session.pk, hand=dict(AMERICAN_HANDS[0], number=1))
    assert hand.number == 1
    assert hand.raw == AMERICAN_HANDS[0]  # the number is the row's, not the raw hand's
    session = fresh(session)
    assert session.version == 2
    assert session.next_deal == {"number": 2, "dealer": 1, "double": False}
    assert_projection(session)
    revision = HandRevision.objects.get(session=session)
    assert (revision.action, revision.new, revision.by, revision.version) == ("recorded", AMERICAN_HANDS[0], admin, 2)


def test_record_refuses_a_stale_or_future_number(admin: Any, session: Session) -> None:
    record_all(admin, session, AMERICAN_HANDS[:2])
    with pytest.raises(StaleNumber) as caught:
        hand_record(actor=admin, session_id=session.pk, hand=dict(AMERICAN_HANDS[2], number=2))
    assert caught.value.session.pk == session.pk
    for number in (4, 0, "3", True):
        with pytest.raises(EngineError) as refused:
            hand_record(actor=admin, session_id=session.pk, hand=dict(AMERICAN_HANDS[2], number=number))
        assert refused.value.code == "invalid_hand"
        assert "number" in refused.value.fields
    assert fresh(session).version == 3
    hand_record(actor=admin, session_id=session.pk, hand=dict(AMERICAN_HANDS[2], number=3))
    assert fresh(session).hands_count == 3


def test_a_refused_hand_changes_nothing(admin: Any, session: Session) -> None:
    record_all(admin, session, AMERICAN_HANDS[:1])
    before = list(Hand.objects.values_list("pk", "settled"))
    with pytest.raises(EngineError) as caught:
        hand_record(actor=admin, session_id=session.pk, hand={"bid": "seven", "tricks": [5, 5, 5, 5]})
    assert caught.value.hand == 2
    assert fresh(session).version == 2
    assert list(Hand.objects.values_list("pk", "settled")) == before


def test_a_movement_too_large_to_store_is_refused(admin: Any, session: Session) -> None:
    """The statistics and the money ledger keep counters in 64-bit columns."""
    huge = dict(AMERICAN_HANDS[0], adjustments=[{"from": 0, "to": 1, "counters": 10**15 + 1, "note": "typo"}])
    with pytest.raises(EngineError) as caught:
        hand_record(actor=admin, session_id=session.pk, hand=huge)
    assert (caught.value.code, caught.value.hand, list(caught.value.fields)) == ("invalid_hand", 1, ["adjustments"])
    assert not Hand.objects.exists()


def test_record_needs_a_scorer(session: Session, player_user: Any, other_admin: Any, scorer: Any) -> None:
    with pytest.raises(PermissionDenied):
        hand_record(actor=player_user, session_id=session.pk, hand=AMERICAN_HANDS[0])
    with pytest.raises(NotFound):
        hand_record(actor=other_admin, session_id=session.pk, hand=AMERICAN_HANDS[0])
    hand_record(actor=scorer, session_id=session.pk, hand=AMERICAN_HANDS[0])


def test_the_deal_limit_ends_next(admin: Any, club: Any, players: list[Player]) -> None:
    # Twelve deals of the game: a sheet with a misdeal among its hands (rules.md §0.11: a hand of the
    # sheet, not a deal of the game) would leave the game a deal short, so take the first without one.
    sheets = (long_sheet("american", seed=seed, deals=12) for seed in range(7, 200))
    sheet = next(sheet for sheet in sheets if all(hand["bid"] != "misdeal" for hand in sheet["hands"]))
    assert len(sheet["hands"]) == 12
    s = open_session(admin, club, players, first_dealer=sheet["first_dealer"])
    record_all(admin, s, sheet["hands"])
    assert fresh(s).next_deal is None
    with pytest.raises(EngineError) as caught:
        hand_record(actor=admin, session_id=s.pk, hand={"bid": "pass", "tricks": [4, 3, 3, 3]})
    assert caught.value.hand == 13


def test_database_refuses_a_second_hand_with_the_same_number(admin: Any, session: Session) -> None:
    record_all(admin, session, AMERICAN_HANDS[:1])
    with pytest.raises(IntegrityError), transaction.atomic():
        Hand.objects.create(session=session, number=1, raw={}, settled={})


# --- amending --------------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", variant_names())
def test_amend_in_the_middle_of_a_long_session_equals_a_fresh_replay(
    admin: Any, club: Any, players: list[Player], variant: str
) -> None:
    sheet = long_sheet(variant, seed=11)
    s = open_session(admin, club, players, variant, first_dealer=sheet["first_dealer"])
    record_all(admin, s, sheet["hands"])
    middle = len(sheet["hands"]) // 2
    replacement = other_valid_hand(sheet, middle, seed=5)
    version = fresh(s).version
    amended = hand_amend(
        actor=admin, session_id=s.pk, number=middle + 1, hand=replacement, expected_version=version, reason="typo"
    )
    assert amended.raw == replacement
    assert fresh(s).version == version + 1
    assert_projection(s)
    expected = settle(dict(sheet, hands=[*sheet["hands"][:middle], replacement, *sheet["hands"][middle + 1 :]]))
    assert [h.settled for h in Hand.objects.filter(session=s).order_by("number")] == expected["hands"]
    revision = HandRevision.objects.filter(session=s, number=middle + 1).last()
    assert (revision.action, revision.old, revision.new, revision.reason) == (
        "amended",
        sheet["hands"][middle],
        replacement,
        "typo",
    )


def test_amend_that_breaks_a_later_hand_changes_nothing(admin: Any, session: Session) -> None:
    later = {
        "bid": "boston",
        "bidder": 2,
        "trump": "hearts",
        "tricks": [5, 2, 3, 3],
        "adjustments": [{"from": "pool", "to": 0, "counters": 12, "note": "ruling"}],
    }
    record_all(admin, session, [AMERICAN_HANDS[0], later])
    before = (fresh(session).version, list(Hand.objects.values_list("pk", "settled")))
    made_seven = {"bid": "seven", "bidder": 1, "trump": "clubs", "tricks": [2, 7, 2, 2]}
    with pytest.raises(EngineError) as caught:
        hand_amend(actor=admin, session_id=session.pk, number=1, hand=made_seven, expected_version=3)
    assert caught.value.hand == 2
    assert "adjustments" in caught.value.fields
    assert (fresh(session).version, list(Hand.objects.values_list("pk", "settled"))) == before
    assert Hand.objects.get(session=session, number=1).raw == AMERICAN_HANDS[0]
    assert HandRevision.objects.filter(action="amended").count() == 0


def test_amend_checks_version_number_and_hand(admin: Any, session: Session) -> None:
    record_all(admin, session, AMERICAN_HANDS[:2])
    with pytest.raises(VersionMismatch):
        hand_amend(actor=admin, session_id=session.pk, number=1, hand=AMERICAN_HANDS[0], expected_version=2)
    with pytest.raises(NotFound):
        hand_amend(actor=admin, session_id=session.pk, number=3, hand=AMERICAN_HANDS[0], expected_version=3)
    with pytest.raises(EngineError) as caught:
        hand_amend(
            actor=admin, session_id=session.pk, number=1, hand=dict(AMERICAN_HANDS[0], number=2), expected_version=3
        )
    assert "number" in caught.value.fields
    with pytest.raises(EngineError) as derived:
        hand_amend(
            actor=admin, session_id=session.pk, number=1, hand=dict(AMERICAN_HANDS[0], dealer=0), expected_version=3
        )
    assert "dealer" in derived.value.fields


# --- undoing ---------------------------------------------------------------------------------------


def test_undo_takes_back_the_last_hand_only(admin: Any, session: Session) -> None:
    record_all(admin, session, AMERICAN_HANDS[:3])
    with pytest.raises(NotLastHand):
        hand_undo(actor=admin, session_id=session.pk, number=2, expected_version=4)
    undone = hand_undo(actor=admin, session_id=session.pk, number=3, expected_version=4, reason="wrong deal")
    assert undone.version == 5
    assert undone.hands_count == 2
    assert undone.next_deal["number"] == 3
    assert_projection(undone)
    revision = HandRevision.objects.get(session=session, number=3, action="undone")
    assert (revision.old, revision.new, revision.reason) == (AMERICAN_HANDS[2], None, "wrong deal")
    assert not Hand.objects.filter(session=session, number=3).exists()


# --- closing and reopening -------------------------------------------------------------------------


def test_close_stores_the_engines_close(admin: Any, session: Session) -> None:
    record_all(admin, session, AMERICAN_HANDS[:3])
    closed, settlement = session_close(actor=admin, session_id=session.pk, pools="divide", expected_version=4)
    sheet = selectors.session_sheet(session=closed)
    assert sheet["close"] == {"pools": "divide"}
    assert settlement == settle(sheet)
    assert closed.status == "closed"
    assert closed.version == 5
    assert closed.closing == settlement["close"]
    assert_projection(closed)
    with pytest.raises(SessionClosed):
        session_close(actor=admin, session_id=session.pk, expected_version=5)
    with pytest.raises(SessionClosed):
        hand_record(actor=admin, session_id=session.pk, hand=AMERICAN_HANDS[3])


def test_close_and_reopen_need_a_treasurer(session: Session, scorer: Any, treasurer: Any) -> None:
    with pytest.raises(PermissionDenied):
        session_close(actor=scorer, session_id=session.pk, expected_version=1)
    session_close(actor=treasurer, session_id=session.pk, expected_version=1)
    with pytest.raises(PermissionDenied):
        session_reopen(actor=scorer, session_id=session.pk, expected_version=2)
    assert session_reopen(actor=treasurer, session_id=session.pk, expected_version=2).status == "open"


def test_reopen_undoes_the_close(admin: Any, session: Session) -> None:
    """The state goes back to open; the money's reversal is the money ledger's (tests/money)."""
    record_all(admin, session, AMERICAN_HANDS[:3])
    with pytest.raises(SessionNotClosed):
        session_reopen(actor=admin, session_id=session.pk, expected_version=4)
    session_close(actor=admin, session_id=session.pk, expected_version=4)
    with pytest.raises(VersionMismatch):
        session_reopen(actor=admin, session_id=session.pk, expected_version=4)
    reopened = session_reopen(actor=admin, session_id=session.pk, expected_version=5)
    assert (reopened.status, reopened.version, reopened.close, reopened.closing) == ("open", 6, None, None)
    assert "close" not in selectors.session_settlement(session=reopened)
    session_close(actor=admin, session_id=session.pk, pools="carry", expected_version=6)
    session_reopen(actor=admin, session_id=session.pk, expected_version=7)
    record_all(admin, session, AMERICAN_HANDS[3:])
    assert_projection(session)


# --- carried pools ---------------------------------------------------------------------------------


def _closed_with_pools(admin: Any, club: Any, players: list[Player], pools: str = "carry") -> Session:
    s = open_session(admin, club, players)
    record_all(admin, s, AMERICAN_HANDS[:3])  # the pool holds 5
    session_close(actor=admin, session_id=s.pk, pools=pools, expected_version=4)
    return fresh(s)


def test_carried_pools_are_claimed_once(admin: Any, club: Any, players: list[Player]) -> None:
    source = _closed_with_pools(admin, club, players)
    assert source.closing["carried"] == [5]
    claimant = open_session(admin, club, players, carry_pools_from=source.pk)
    assert (claimant.pools_in, claimant.pools) == ([5], [5])
    assert selectors.session_sheet(session=claimant)["pools"] == [5]
    with pytest.raises(PoolsClaimed):
        open_session(admin, club, players, carry_pools_from=source.pk)
    with pytest.raises(PoolsClaimed):
        session_reopen(actor=admin, session_id=source.pk, expected_version=5)
    record_all(admin, claimant, AMERICAN_HANDS[:2])
    assert_projection(claimant)


def test_carried_pools_fit_the_variant(admin: Any, club: Any, players: list[Player], other_admin: Any) -> None:
    source = _closed_with_pools(admin, club, players)
    single = next((v for v in variant_names() if v != "american"), None)
    if single is not None:
        with pytest.raises(InvalidRequest) as caught:
            open_session(admin, club, players, single, carry_pools_from=source.pk)
        assert "carry_pools_from" in caught.value.fields
    still_open = open_session(admin, club, players)
    for bad in (still_open.pk, 10**9):
        with pytest.raises(InvalidRequest):
            open_session(admin, club, players, carry_pools_from=bad)
    other_club = club_create(actor=other_admin, name="Elsewhere")
    others = [player_create(actor=other_admin, club_id=other_club.pk, name=n) for n in "WXYZ"]
    with pytest.raises(InvalidRequest):  # another club's session is not claimable, nor said to exist
        open_session(other_admin, other_club, others, carry_pools_from=source.pk)


# --- importing -------------------------------------------------------------------------------------


def test_import_matches_players_by_name_and_exports_the_same_sheet(
    admin: Any, club: Any, players: list[Player]
) -> None:
    sheet = {
        "format": "clubscore-sheet/1",
        "variant": "american",
        "rules": {"pool_limit": 30},
        "players": ["Ann", "Ben", "Eve", "Fay"],
        "first_dealer": 2,
        "pools": [7],
        "stake": {"currency": "EUR", "per_counter": "0.05"},
        "hands": [dict(h, number=i) for i, h in enumerate(AMERICAN_HANDS, 1)],
        "close": {"pools": "carry"},
    }
    s = session_import(actor=admin, club_id=club.pk, sheet=sheet)
    assert (s.status, s.version, s.hands_count) == ("closed", 1, 4)
    seated = selectors.session_players(session=s)
    assert seated[:2] == players[:2]
    assert Player.objects.filter(club=club).count() == 6
    exported = selectors.session_sheet(session=s)
    assert exported == dict(sheet, hands=AMERICAN_HANDS)
    assert selectors.session_settlement(session=s) == settle(sheet)
    assert_projection(s)
    again = session_import(actor=admin, club_id=club.pk, sheet=exported)
    assert selectors.session_settlement(session=again) == settle(sheet)
    assert Player.objects.filter(club=club).count() == 6


def test_import_refusals_create_nothing(admin: Any, club: Any, scorer: Any) -> None:
    sheet = {
        "format": "clubscore-sheet/1",
        "variant": "american",
        "players": ["Ann", "Ben", "Eve", "Fay"],
        "first_dealer": 0,
        "hands": [AMERICAN_HANDS[0], {"bid": "seven", "bidder": 1, "trump": "clubs", "tricks": [1, 1, 1, 1]}],
    }
    with pytest.raises(EngineError) as caught:
        session_import(actor=admin, club_id=club.pk, sheet=sheet)
    assert caught.value.hand == 2
    with pytest.raises(InvalidRequest):
        session_import(actor=admin, club_id=club.pk, sheet=dict(sheet, hands=[], players=["Ann", "Ann", "Eve", "Fay"]))
    with pytest.raises(PermissionDenied):  # a closed session is a treasurer's to create
        session_import(actor=scorer, club_id=club.pk, sheet=dict(sheet, hands=[], close={}))
    assert not Session.objects.exists()
    assert not Player.objects.exists()
    assert session_import(actor=scorer, club_id=club.pk, sheet=dict(sheet, hands=[])).status == "open"
