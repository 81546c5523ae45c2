"""Device tokens, idempotency records, clubs and members, and the selectors' scoping."""

from __future__ import annotations

import datetime as dt
import hashlib
import uuid
from typing import Any

import pytest
from django.utils import timezone

from ledger import selectors, services
from ledger.exceptions import InvalidRequest, NotFound, PermissionDenied
from ledger.models import DeviceToken, IdempotencyRecord, Membership, Role, Session
from tests.ledger_fixtures import AMERICAN_HANDS, make_user, open_session, record_all

pytestmark = pytest.mark.django_db


# --- tokens ----------------------------------------------------------------------------------------


def test_a_token_is_kept_only_as_its_hash(admin: Any) -> None:
    key, token = services.token_issue(user=admin, device="phone")
    stored = DeviceToken.objects.get(pk=token.pk)
    assert stored.key_hash == hashlib.sha256(key.encode()).hexdigest()
    assert key not in {stored.key_hash, stored.device}
    assert selectors.token_get(key=key).user == admin
    assert stored.expires_at > timezone.now() + dt.timedelta(days=29)


def test_one_token_per_device(admin: Any) -> None:
    first, _ = services.token_issue(user=admin, device="phone")
    second, _ = services.token_issue(user=admin, device="phone")
    tablet, _ = services.token_issue(user=admin, device="tablet")
    assert selectors.token_get(key=first) is None
    assert selectors.token_get(key=second) is not None
    assert selectors.token_get(key=tablet) is not None
    assert DeviceToken.objects.filter(user=admin).count() == 2


def test_revoked_expired_and_inactive_tokens_do_not_authenticate(admin: Any) -> None:
    key, token = services.token_issue(user=admin, device="phone")
    services.token_revoke(token=token)
    assert selectors.token_get(key=key) is None
    key, token = services.token_issue(user=admin, device="phone")  # a new login revives the device
    assert selectors.token_get(key=key) is not None
    DeviceToken.objects.filter(pk=token.pk).update(expires_at=timezone.now() - dt.timedelta(seconds=1))
    assert selectors.token_get(key=key) is None
    key, _ = services.token_issue(user=admin, device="phone")
    admin.is_active = False
    admin.save()
    assert selectors.token_get(key=key) is None
    assert selectors.token_get(key="no-such-key") is None


def test_a_device_name_is_required(admin: Any) -> None:
    for device in ("", "   ", "x" * 101):
        with pytest.raises(InvalidRequest):
            services.token_issue(user=admin, device=device)


# --- idempotency records ---------------------------------------------------------------------------


def _begin(user: Any, key: uuid.UUID, body: str = "a", path: str = "/api/v1/sessions/1/hands/") -> Any:
    return services.idempotency_begin(user=user, method="POST", path=path, key=key, body_hash=body)


def test_a_key_is_claimed_then_in_flight_then_replayed(admin: Any) -> None:
    key = uuid.uuid4()
    claim = _begin(admin, key).claim
    assert claim is not None
    assert _begin(admin, key).conflict == "idempotency_in_flight"
    assert _begin(admin, key, body="b").conflict == "idempotency_key_reused"
    services.idempotency_finish(claim=claim, status=201, body={"ok": 1}, etag='"2"')
    replay = _begin(admin, key).replay
    assert (replay.status, replay.response, replay.etag) == (201, {"ok": 1}, '"2"')
    assert _begin(admin, key, body="b").conflict == "idempotency_key_reused"


def test_a_key_belongs_to_user_method_and_path(admin: Any, other_admin: Any) -> None:
    key = uuid.uuid4()
    assert _begin(admin, key).claim is not None
    assert _begin(other_admin, key).claim is not None
    assert _begin(admin, key, path="/api/v1/sessions/2/hands/").claim is not None
    assert services.idempotency_begin(
        user=admin, method="PUT", path="/api/v1/sessions/1/hands/", key=key, body_hash="a"
    ).claim
    assert IdempotencyRecord.objects.count() == 4


def test_a_5xx_answer_is_not_kept(admin: Any) -> None:
    key = uuid.uuid4()
    services.idempotency_finish(claim=_begin(admin, key).claim, status=503, body={})
    assert not IdempotencyRecord.objects.exists()
    claim = _begin(admin, key).claim
    services.idempotency_release(claim=claim)
    assert _begin(admin, key).claim is not None


def test_a_dead_claim_is_taken_over_and_an_old_key_is_forgotten(admin: Any, settings: Any) -> None:
    key = uuid.uuid4()
    claim = _begin(admin, key).claim
    IdempotencyRecord.objects.filter(pk=claim.record_id).update(
        created_at=timezone.now() - dt.timedelta(seconds=settings.IDEMPOTENCY_IN_FLIGHT_SECONDS + 1)
    )
    assert _begin(admin, key).claim == claim
    services.idempotency_finish(claim=claim, status=201, body={})
    assert _begin(admin, key).replay is not None
    IdempotencyRecord.objects.update(
        created_at=timezone.now() - dt.timedelta(hours=settings.IDEMPOTENCY_KEEP_HOURS + 1)
    )
    assert _begin(admin, key, body="other").claim is not None
    assert services.idempotency_purge(older_than_hours=0) == 1


def test_recording_with_a_claim_stores_the_answer_in_the_same_transaction(admin: Any, session: Session) -> None:
    key = uuid.uuid4()
    claim = _begin(admin, key).claim
    hand = services.hand_record(
        actor=admin,
        session_id=session.pk,
        hand=AMERICAN_HANDS[0],
        client_key=key,
        claim=claim,
        render=lambda h, s: (201, {"number": h.number, "version": s.version}, f'"{s.version}"'),
    )
    assert hand.client_key == key
    record = IdempotencyRecord.objects.get(pk=claim.record_id)
    assert (record.state, record.status, record.response, record.etag) == (
        "done",
        201,
        {"number": 1, "version": 2},
        '"2"',
    )


# --- clubs, members, scoping -----------------------------------------------------------------------


def test_the_creator_of_a_club_is_its_admin(admin: Any) -> None:
    club = services.club_create(actor=admin, name="  Tuesday Club ")
    assert club.name == "Tuesday Club"
    assert Membership.objects.get(club=club, user=admin).role == Role.ADMIN
    for bad in ("", "  ", "x" * 101, "a\x00b"):
        with pytest.raises(InvalidRequest):
            services.club_create(actor=admin, name=bad)


def test_only_admins_manage_members(club: Any, admin: Any, treasurer: Any) -> None:
    newcomer = make_user("newcomer")
    with pytest.raises(PermissionDenied):
        services.membership_set(actor=treasurer, club_id=club.pk, user=newcomer, role=Role.PLAYER)
    services.membership_set(actor=admin, club_id=club.pk, user=newcomer, role=Role.SCORER)
    assert selectors.club_role(user=newcomer, club_id=club.pk) == Role.SCORER
    with pytest.raises(InvalidRequest):
        services.membership_set(actor=admin, club_id=club.pk, user=newcomer, role="owner")


def test_player_names_are_unique_within_a_club(club: Any, admin: Any, other_club: Any, other_admin: Any) -> None:
    services.player_create(actor=admin, club_id=club.pk, name="Ann")
    with pytest.raises(InvalidRequest):
        services.player_create(actor=admin, club_id=club.pk, name="Ann")
    services.player_create(actor=other_admin, club_id=other_club.pk, name="Ann")


def test_superusers_see_only_their_clubs(club: Any, admin: Any, other_club: Any, other_admin: Any) -> None:
    assert [c.name for c in selectors.club_list(user=other_admin)] == ["Other Club"]
    assert [c.role for c in selectors.club_list(user=admin)] == [Role.ADMIN]
    with pytest.raises(NotFound):
        selectors.club_get(user=other_admin, club_id=club.pk)
    with pytest.raises(NotFound):
        selectors.player_list(user=other_admin, club_id=club.pk)


def test_session_filters(admin: Any, club: Any, players: list[Any], other_admin: Any) -> None:
    first = open_session(admin, club, players)
    second = open_session(admin, club, [*players[:3], services.player_create(actor=admin, club_id=club.pk, name="Eve")])
    record_all(admin, first, AMERICAN_HANDS[:1])
    services.session_close(actor=admin, session_id=first.pk, expected_version=2)
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


def test_the_purge_task_forgets_old_keys(admin: Any, settings: Any) -> None:
    from ledger.tasks import idempotency_purge

    old, new = uuid.uuid4(), uuid.uuid4()
    services.idempotency_finish(claim=_begin(admin, old).claim, status=201, body={})
    services.idempotency_finish(claim=_begin(admin, new).claim, status=201, body={})
    IdempotencyRecord.objects.filter(key=old).update(
        created_at=timezone.now() - dt.timedelta(hours=settings.IDEMPOTENCY_KEEP_HOURS, minutes=1)
    )
    assert idempotency_purge.apply().get() == 1  # in-process: this test has no worker
    assert list(IdempotencyRecord.objects.values_list("key", flat=True)) == [new]
