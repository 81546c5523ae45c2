"""Device tokens, idempotency records, clubs and members, and the selectors' scoping."""

from __future__ import annotations

import datetime as dt
import hashlib
import uuid
from typing import Any

import pytest
from django.utils import timezone

from ledger import selectors
from ledger.exceptions import InvalidRequest, NotFound, PermissionDenied
from ledger.models import DeviceToken, Membership, Role, Session
from ledger.services.clubs import club_create, membership_set, player_create
from ledger.services.hands import hand_record
from ledger.services.sessions import session_close
from ledger.services.tokens import token_issue, token_revoke
from tests.ledger_fixtures import AMERICAN_HANDS, make_user, open_session, record_all

pytestmark = pytest.mark.django_db


# --- tokens ----------------------------------------------------------------------------------------


def test_a_token_is_kept_only_as_its_hash(admin: Any) -> None:
    key, token = token_issue(user=admin, device="phone")
    stored = DeviceToken.objects.get(pk=token.pk)
    assert stored.key_hash == hashlib.sha256(key.encode()).hexdigest()
    assert key not in {stored.key_hash, stored.device}
    assert selectors.token_get(key=key).user == admin
    assert stored.expires_at > timezone.now() + dt.timedelta(days=29)


def test_one_token_per_device(admin: Any) -> None:
    first, _ = token_issue(user=admin, device="phone")
    second, _ = token_issue(user=admin, device="phone")
    tablet, _ = token_issue(user=admin, device="tablet")
    assert selectors.token_get(key=first) is None
    assert selectors.token_get(key=second) is not None
    assert selectors.token_get(key=tablet) is not None
    assert DeviceToken.objects.filter(user=admin).count() == 2


def test_revoked_expired_and_inactive_tokens_do_not_authenticate(admin: Any) -> None:
    key, token = token_issue(user=admin, device="phone")
    token_revoke(token=token)
    assert selectors.token_get(key=key) is None
    key, token = token_issue(user=admin, device="phone")  # a new login revives the device
    assert selectors.token_get(key=key) is not None
    DeviceToken.objects.filter(pk=token.pk).update(expires_at=timezone.now() - dt.timedelta(seconds=1))
    assert selectors.token_get(key=key) is None
    key, _ = token_issue(user=admin, device="phone")
    admin.is_active = False
    admin.save()
    assert selectors.token_get(key=key) is None
    assert selectors.token_get(key="no-such-key") is None


def test_a_device_name_is_required(admin: Any) -> None:
    for device in ("", "   ", "x" * 101):
        with pytest.raises(InvalidRequest):
            token_issue(user=admin, device=device)


# --- a hand recorded once by its client key ---------------------------------------------------------


def test_a_retry_with_the_same_client_key_finds_its_hand(admin: Any, session: Session) -> None:
    key = uuid.uuid4()
    first = hand_record(actor=admin, session_id=session.pk, hand=AMERICAN_HANDS[0], client_key=key)
    again = hand_record(actor=admin, session_id=session.pk, hand=AMERICAN_HANDS[0], client_key=key)
    numbered = hand_record(actor=admin, session_id=session.pk, hand=dict(AMERICAN_HANDS[0], number=1), client_key=key)
    assert first.pk == again.pk == numbered.pk  # not a second deal, not a stale number
    assert Session.objects.get(pk=session.pk).hands_count == 1
    session_close(actor=admin, session_id=session.pk, expected_version=2)
    closed = hand_record(actor=admin, session_id=session.pk, hand=AMERICAN_HANDS[0], client_key=key)
    assert closed.pk == first.pk  # a retry after the close still finds its hand


def test_a_client_key_belongs_to_its_user(admin: Any, scorer: Any, session: Session) -> None:
    key = uuid.uuid4()
    hand_record(actor=admin, session_id=session.pk, hand=AMERICAN_HANDS[0], client_key=key)
    theirs = hand_record(actor=scorer, session_id=session.pk, hand=AMERICAN_HANDS[1], client_key=key)
    assert theirs.number == 2


def test_a_session_takes_at_most_max_session_hands(admin: Any, session: Session, settings: Any) -> None:
    settings.MAX_SESSION_HANDS = 2
    record_all(admin, session, AMERICAN_HANDS[:2])
    with pytest.raises(InvalidRequest) as refused:
        hand_record(actor=admin, session_id=session.pk, hand=AMERICAN_HANDS[2])
    assert "hands" in refused.value.fields


# --- clubs, members, scoping -----------------------------------------------------------------------


def test_the_creator_of_a_club_is_its_admin(admin: Any) -> None:
    club = club_create(actor=admin, name="  Tuesday Club ")
    assert club.name == "Tuesday Club"
    assert Membership.objects.get(club=club, user=admin).role == Role.ADMIN
    for bad in ("", "  ", "x" * 101, "a\x00b"):
        with pytest.raises(InvalidRequest):
            club_create(actor=admin, name=bad)


def test_only_admins_manage_members(club: Any, admin: Any, treasurer: Any) -> None:
    newcomer = make_user("newcomer")
    with pytest.raises(PermissionDenied):
        membership_set(actor=treasurer, club_id=club.pk, user=newcomer, role=Role.PLAYER)
    membership_set(actor=admin, club_id=club.pk, user=newcomer, role=Role.SCORER)
    assert selectors.club_role(user=newcomer, club_id=club.pk) == Role.SCORER
    with pytest.raises(InvalidRequest):
        membership_set(actor=admin, club_id=club.pk, user=newcomer, role="owner")


def test_player_names_are_unique_within_a_club(club: Any, admin: Any, other_club: Any, other_admin: Any) -> None:
    player_create(actor=admin, club_id=club.pk, name="Ann")
    with pytest.raises(InvalidRequest):
        player_create(actor=admin, club_id=club.pk, name="Ann")
    player_create(actor=other_admin, club_id=other_club.pk, name="Ann")


def test_superusers_see_only_their_clubs(club: Any, admin: Any, other_club: Any, other_admin: Any) -> None:
    assert [c.name for c in selectors.club_list(user=other_admin)] == ["Other Club"]
    assert [c.role for c in selectors.club_list(user=admin)] == [Role.ADMIN]
    with pytest.raises(NotFound):
        selectors.club_get(user=other_admin, club_id=club.pk)
    with pytest.raises(NotFound):
        selectors.player_list(user=other_admin, club_id=club.pk)


def test_session_filters(admin: Any, club: Any, players: list[Any], other_admin: Any) -> None:
    first = open_session(admin, club, players)
    second = open_session(admin, club, [*players[:3], player_create(actor=admin, club_id=club.pk, name="Eve")])
    record_all(admin, first, AMERICAN_HANDS[:1])
    session_close(actor=admin, session_id=first.pk, expected_version=2)
    Session.objects.filter(pk=first.pk).update(opened_at=timezone.now() - dt.timedelta(days=3))
    today = timezone.now().date()

    def ids(**filters: Any) -> list[int]:
        return [s.pk for s in selectors.session_list(user=admin, **filters)]

    assert ids() == [second.pk, first.pk]
    assert ids(status="closed") == [first.pk]
    assert ids(status="open") == [second.pk]
    assert ids(player=players[3].pk) == [first.pk]
    assert ids(date_from=today) == [second.pk]
    assert ids(date_to=today - dt.timedelta(days=1)) == [first.pk]
    assert ids(club=club.pk + 1000) == []
    assert [s.pk for s in selectors.session_list(user=other_admin)] == []
    with pytest.raises(NotFound):
        selectors.session_get(user=other_admin, session_id=first.pk)
