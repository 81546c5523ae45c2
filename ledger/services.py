"""Writes. Every function here is one `transaction.atomic(durable=True)`: it records all of its effects
or none, and may not be called inside another transaction.

A write to a session locks the session row (`select_for_update`; several rows in primary-key order),
checks the caller's role under the lock, replays the session through the engine and stores the
engine's projection (each hand's settled JSON, the session's balances, pools and next deal), then
bumps the session's version. Recording a hand changes no earlier deal, so `hand_record` replays the
earlier hands and writes only the new one; amending, undoing, closing and reopening compare every
hand with the replay and rewrite what changed. The engine computes every counter; nothing here does
arithmetic on counters.
"""

from __future__ import annotations

import re
import secrets
import uuid
from collections.abc import Sequence
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal
from typing import Any, Protocol

from django.conf import settings
from django.contrib.auth.models import User
from django.db import IntegrityError, connections, transaction
from django.db.models import BooleanField, Func, OuterRef, QuerySet, Subquery, Value
from django.utils import timezone

from ledger import roundtrips, zones
from ledger.engine import EngineError, Replay, parse_sheet, settlement_json
from ledger.engine.sheet import SettledHand
from ledger.engine.variants import get_variant

from .exceptions import (
    ClaimLapsed,
    DisputesOpen,
    InvalidRequest,
    LedgerError,
    NotFound,
    NotLastHand,
    PermissionDenied,
    PoolsClaimed,
    SeatChanged,
    SessionClosed,
    SessionNotClosed,
    StaleNumber,
    VersionMismatch,
)
from .live import CHECK, HAND, announce, announce_revoked, link_channel
from .models import (
    BoardLink,
    Club,
    DealCheck,
    DeviceToken,
    Hand,
    HandRevision,
    Membership,
    Player,
    Preset,
    PresetVersion,
    Role,
    Seat,
    SeatChange,
    SeatLink,
    Session,
    SessionEvent,
)
from .names import NAME_MAX, clean_name, refuse_alike_in, refuse_look_alike
from .selectors import (
    club_role,
    club_time_zone,
    role_check,
    seat_changes,
    seated_now,
    sheet_of,
    substitutions_of,
    token_hash,
)

# The database stores amounts as 64-bit integers; the engine's integers are unbounded.
MAX_AMOUNT = 10**15


# --- clubs, members, players -----------------------------------------------------------------------


def _clean_name(value: Any, field: str) -> str:
    return clean_name(value, field)  # NFC, no invisible or direction characters (ledger/names.py)


def club_create(*, actor: User, name: str, time_zone: str = zones.DEFAULT) -> Club:
    """A new club in its time zone (an IANA name); its creator becomes its admin."""
    name = _clean_name(name, "name")
    time_zone = _clean_time_zone(time_zone)
    with transaction.atomic(durable=True):
        club = Club.objects.create(name=name, time_zone=time_zone)
        Membership.objects.create(club=club, user=actor, role=Role.ADMIN)
    club.role = Role.ADMIN  # type: ignore[attr-defined]
    return club


def club_time_zone_set(*, actor: User, club_id: int, time_zone: str) -> Club:
    """Change the club's time zone (admins only): its pages and CSVs show their times in the new one."""
    time_zone = _clean_time_zone(time_zone)
    with transaction.atomic(durable=True):
        club_role(user=actor, club_id=club_id, role=Role.ADMIN)
        club = Club.objects.select_for_update().get(pk=club_id)
        club.time_zone = time_zone
        club.save(update_fields=["time_zone"])
    return club


def _clean_time_zone(value: Any) -> str:
    if not isinstance(value, str) or not zones.is_zone(value.strip()):
        raise InvalidRequest.field("time_zone", "the time zone must be an IANA name such as Europe/Paris")
    return value.strip()


def club_payment_set(*, actor: User, club_id: int, details: dict[str, Any]) -> Club:
    """The club's payment details (treasurers and above): the payee, the IBAN (schwifty checks it), the
    Russian account, and the instructions in words, which the evening's payment code is made of."""
    from .paycode import clean_payment_details

    cleaned = clean_payment_details(details)
    with transaction.atomic(durable=True):
        club_role(user=actor, club_id=club_id, role=Role.TREASURER)
        club = Club.objects.select_for_update().get(pk=club_id)
        for key, value in cleaned.items():
            setattr(club, key, value)
        club.save(update_fields=list(cleaned))
    return club


def player_mail_set(*, actor: User, player_id: int, email: Any, language: Any) -> Player:
    """A player's address and language for the evening's mail (the club's treasurers; the player himself).
    A new address starts the mail again after a bounce; an opt-out stays until the player's own link."""
    from django.core.exceptions import ValidationError
    from django.core.validators import validate_email

    if not isinstance(email, str) or not isinstance(language, str):
        raise InvalidRequest.field("email", "the e-mail address is not valid")
    email, language = email.strip(), language.strip()
    if email:
        try:
            validate_email(email)
        except ValidationError:
            raise InvalidRequest.field("email", "the e-mail address is not valid") from None
    if language and language not in dict(settings.LANGUAGES):
        raise InvalidRequest.field("language", "the language is English (en), French (fr) or Russian (ru)")
    with transaction.atomic(durable=True):
        player = Player.objects.select_for_update().filter(pk=player_id).first()
        if player is None:
            raise NotFound("no such player")
        role = club_role(user=actor, club_id=player.club_id)
        if player.user_id != actor.pk and Role.rank(role) < Role.rank(Role.TREASURER):
            raise PermissionDenied("a player's statement is for the player and the club's treasurers")
        if email != player.email and player.mail_stopped == "bounced":
            player.mail_stopped, player.mail_stopped_at = "", None
        player.email, player.language = email, language
        player.save(update_fields=["email", "language", "mail_stopped", "mail_stopped_at"])
    return player


def player_mail_stop(*, player_id: int) -> Player | None:
    """The player opted out (his signed link, no login): no evening's mail goes to him any more."""
    with transaction.atomic(durable=True):
        player = Player.objects.select_for_update().filter(pk=player_id).first()
        if player is not None and player.mail_stopped != "opted_out":
            player.mail_stopped, player.mail_stopped_at = "opted_out", timezone.now()
            player.save(update_fields=["mail_stopped", "mail_stopped_at"])
    return player


def membership_set(*, actor: User, club_id: int, user: User, role: str) -> Membership:
    """Add a member or change a member's role (admins only)."""
    if role not in Role.values:
        raise InvalidRequest.field("role", "role must be one of " + ", ".join(Role.values))
    with transaction.atomic(durable=True):
        club_role(user=actor, club_id=club_id, role=Role.ADMIN)
        membership, _ = Membership.objects.update_or_create(club_id=club_id, user=user, defaults={"role": role})
    return membership


def _lock_club(club_id: int) -> None:
    """Lock the club's row until the transaction ends: its players are made one at a time (NO KEY: rows
    that refer to the club, a money write's, are not held up by it)."""
    list(Club.objects.select_for_update(no_key=True).filter(pk=club_id).values_list("pk", flat=True))


def player_create(*, actor: User, club_id: int, name: str, user: User | None = None) -> Player:
    """A new player of the club (scorers and above); names are unique within a club, and none looks like
    another (ledger/names.py: the club's row is locked, so two look-alikes made at once are not both
    taken)."""
    name = _clean_name(name, "name")
    try:
        with transaction.atomic(durable=True):
            club_role(user=actor, club_id=club_id, role=Role.SCORER)
            return player_add(club_id=club_id, name=name, user=user)
    except IntegrityError:  # a concurrent create of the same name
        raise InvalidRequest.field("name", "the club already has a player of this name") from None


def player_add(*, club_id: int, name: str, user: User | None = None) -> Player:
    """`player_create`'s write inside a transaction of the caller's that has checked the role (a guest
    checked in at a night, issue 37): the same unique and look-alike name rules, under the club's lock."""
    name = _clean_name(name, "name")
    _lock_club(club_id)
    existing = list(Player.objects.filter(club_id=club_id).values_list("name", flat=True))
    if name in existing:
        raise InvalidRequest.field("name", "the club already has a player of this name")
    refuse_look_alike(name, existing, "name")
    return Player.objects.create(club_id=club_id, name=name, user=user)


# --- the engine's projection -----------------------------------------------------------------------


def _lock_sessions(*ids: int) -> dict[int, Session]:
    """Lock the session rows in primary-key order (so concurrent writers never deadlock)."""
    rows = Session.objects.select_for_update(no_key=True).filter(pk__in=ids).order_by("pk")
    return {s.pk: s for s in rows}


def _lock_session(session_id: int, actor: User, role: str) -> Session:
    """Lock the session and read the actor's role in its club in the same statement (one round trip
    on every write: recording a hand is the hot path, bench/api.py).

    FOR NO KEY UPDATE, not FOR UPDATE: writers of the session still queue, but a transaction that only
    references the row (a foreign key check takes FOR KEY SHARE) does not wait for them, which closed a
    deadlock between a reopen and the close's background work (docs/decisions.md)."""
    return _locked(_locking(session_id, actor.pk).first(), role)


def _locking(session_id: int, user_id: int) -> QuerySet[Session]:
    member = Membership.objects.filter(club_id=OuterRef("club_id"), user_id=user_id).values("role")[:1]
    return (
        Session.objects.select_for_update(of=("self",), no_key=True)
        .annotate(actor_role=Subquery(member))
        .filter(pk=session_id)
    )


def _locked(session: Session | None, role: str) -> Session:
    found = getattr(session, "actor_role", None)  # the annotation of `_locking`
    if session is None or found is None:
        raise NotFound("no such session")
    role_check(found=found, role=role)
    return session


def _lock_session_and_sheet(
    session_id: int, actor: User, role: str, begin: roundtrips.Atomic, keeper: KeyKeeper | None = None
) -> tuple[Session, list[Any]]:
    """`_lock_session`, and the earlier hands' raw JSON read after the lock, in one round trip with the
    transaction's BEGIN (a pipeline, ledger/roundtrips.py): two statements, so the second takes its
    snapshot once the first holds the lock and sees the hand of the writer it waited for (a subquery of
    the locking statement would not, under READ COMMITTED).

    With a `keeper` (the API's Idempotency-Key), on PostgreSQL the transaction first takes the keeper's
    advisory lock without waiting (`_HOLD`), and the session's lock is taken only if it got it: a
    second request with a key still in use is answered at once instead of queueing behind the first.
    The keeper's reads go after the sheet (so they see what the writer it waited for kept); `judge`
    sees whether the hold was got, and their rows, before anything else is checked."""
    arguments = {"session_id": session_id, "user_id": actor.pk}
    held = keeper.hold() if keeper is not None and connections["default"].vendor == "postgresql" else None
    reads: list[roundtrips.Read] = [(_LOCKING, arguments), (_SHEET, {"session_id": session_id})]
    if held is not None:
        reads = [(_HOLD, {"held": held}), (_LOCKING_HELD, dict(arguments, held=held)), reads[1]]
    if keeper is not None:
        reads += keeper.reads()
    rows = roundtrips.fetch_together(*reads, begin=begin)
    if held is not None:
        got, *rows = rows
    sessions, raws, *kept = rows
    if keeper is not None:
        keeper.judge(held is None or got == [(True,)], kept)
    return _locked(sessions[0] if sessions else None, role), raws


class KeyKeeper(Protocol):
    """The caller's part in the transaction that records a hand: the API's Idempotency-Key
    (api/idempotency.py), kept with the hand instead of claimed before it, which saved a round trip
    and a commit (bench/README.md "round 6"). `hold()` names the advisory lock the transaction holds
    while it runs (PostgreSQL); `reads()` are statements sent after the session's lock;
    `judge(free, rows)` learns whether the hold was free and sees the reads' rows before anything else
    is checked, and raises to answer otherwise (nothing is written); `keep(hand, writes)` writes with
    the hand and commits with it."""

    def hold(self) -> int: ...

    def reads(self) -> list[roundtrips.Read]: ...

    def judge(self, free: bool, rows: list[list[Any]]) -> None: ...

    def keep(self, hand: Hand, writes: roundtrips.Together) -> None: ...


def _try_hold(held: Any) -> Func:
    return Func(held, function="pg_try_advisory_xact_lock", output_field=BooleanField())


_LOCKING = roundtrips.Select(lambda session_id, user_id: _locking(session_id, user_id))
# The row is locked only if the hold is got: PostgreSQL locks the rows its WHERE lets through (and the
# transaction that got it in `_HOLD` gets it again, a lock held twice until the end).
_LOCKING_HELD = roundtrips.Select(
    lambda session_id, user_id, held: _locking(session_id, user_id).filter(_try_hold(Value(held)))
)
_HOLD = roundtrips.Raw("SELECT pg_try_advisory_xact_lock(%s)", ["held"])
_SHEET = roundtrips.Select(
    lambda session_id: Hand.objects.filter(session_id=session_id).order_by("number").values_list("raw", flat=True)
)


def _check_open(session: Session) -> None:
    if session.status == Session.Status.CLOSED:
        raise SessionClosed()


def _check_version(session: Session, expected_version: int | None) -> None:
    if expected_version != session.version:
        raise VersionMismatch(f"the session is at version {session.version}, not {expected_version}")


def hand_number_check(*, session: Session, number: Any) -> None:
    """The deal number a scorer believes is next, against the session's (`api.md`).

    Lower: another device recorded it (StaleNumber). Higher or not a number: invalid_hand. Absent: fine.
    """
    if number is None:
        return
    expected = session.hands_count + 1
    if type(number) is not int or number < 1 or number > expected:
        raise EngineError(
            "invalid_hand", {"number": [f"`number` must be {expected}, the next deal of the session"]}, expected
        )
    if number < expected:
        raise StaleNumber(f"deal {number} is already recorded: the next deal is {expected}", session)


def _without_number(hand: Any) -> Any:
    if isinstance(hand, dict):
        return {k: v for k, v in hand.items() if k != "number"}
    return hand


# Names play no part in settling a deal: recording one replays the sheet under these (a query less).
SEAT_NAMES = ["seat 0", "seat 1", "seat 2", "seat 3"]


def _replay(
    session: Session, hands: list[Any], close: dict[str, Any] | None = None, names: list[str] | None = None
) -> tuple[Any, Replay, list]:
    """Settle the session's sheet with these hands; raises the engine's error naming the deal."""
    substitutions = None
    if names is None:
        names = list(Seat.objects.filter(session=session).order_by("seat").values_list("player__name", flat=True))
        substitutions = substitutions_of(seat_changes(session=session))
    sheet = parse_sheet(sheet_of(session=session, players=names, hands=hands, close=close, substitutions=substitutions))
    run = Replay(sheet)
    settled = list(run)
    return sheet, run, settled


def _check_hand_amounts(result: SettledHand) -> None:
    """A hand's movements must fit the 64-bit columns they reach (the statistics, the money ledger)."""
    for t in result["transfers"]:
        if t["counters"] > MAX_AMOUNT:
            raise EngineError(
                "invalid_hand", {"adjustments": [f"a movement above {MAX_AMOUNT} counters"]}, result["number"]
            )


def _check_close_amounts(closing: dict[str, Any]) -> None:
    """The close's division and payments must fit them too: refused here, not in the background."""
    amounts = [*closing["division"], *(p["cents"] for p in closing.get("payments", []))]
    if any(amount > MAX_AMOUNT for amount in amounts):
        raise EngineError("invalid_sheet", {"stake": [f"an amount above {MAX_AMOUNT} cannot be stored"]})


def _write_projection(
    session: Session,
    hands: list[Hand],
    settled: list[SettledHand],
    run: Replay,
    *,
    bump: bool = True,
    fresh: Sequence[Hand] = (),
) -> None:
    """Store the replay: each hand's settled JSON, the session's state; version + 1.

    Only what the replay changed is written: a hand's settled JSON when it differs (`fresh` hands,
    just created, already hold theirs). Rewriting every hand made each write cost as much as the
    whole evening (bench/README.md); the projection still equals a replay, because every hand whose
    result changed is rewritten.
    """
    fresh_ids = {h.pk for h in fresh}
    changed: list[Hand] = []
    for hand, result in zip(hands, settled, strict=True):
        if hand.pk in fresh_ids:
            _check_hand_amounts(result)
            continue
        if hand.settled != result:
            _check_hand_amounts(result)
            hand.settled = result
            changed.append(hand)
    if changed:
        Hand.objects.bulk_update(changed, ["settled"])
    _store_state(session, run, len(hands), bump=bump, fields=None)  # callers may have set other fields


STATE_FIELDS = ["hands_count", "balances", "pools", "next_deal", "version", "updated_at"]


def _store_state(
    session: Session,
    run: Replay,
    hands_count: int,
    *,
    bump: bool = True,
    fields: list[str] | None = STATE_FIELDS,
    writes: roundtrips.Together | None = None,
) -> None:
    """The session's row after the replay: the engine's state and, for a change, version + 1.

    By default only the projection's columns are written (a recorded hand changes nothing else);
    `fields=None` saves the whole row, for a close or reopen that changed more. With `writes` (and
    fields), an UPDATE among them, its row count not read: the row is the caller's, locked."""
    session.hands_count = hands_count
    session.balances = list(run.balances)
    session.pools = run.pools.as_list()
    session.next_deal = run.next_deal()
    if bump:
        session.version += 1
    session.updated_at = timezone.now()
    if writes is not None and fields is not None:
        writes.update_row(Session, session.pk, **{name: getattr(session, name) for name in fields})
    else:
        session.save(update_fields=fields)


# --- sessions --------------------------------------------------------------------------------------


def session_open(
    *,
    actor: User,
    club_id: int,
    variant: str,
    rules: dict[str, Any] | None,
    player_ids: list[int],
    first_dealer: int,
    stake: dict[str, Any] | None = None,
    carry_pools_from: int | None = None,
    preset_id: int | None = None,
) -> Session:
    """Open a session at version 1 (scorers and above); its rules and stake are the engine's to judge.

    With `preset_id`, the variant, rules and stake are the preset's current version's (a copy, and the
    version kept with the session): the caller's `variant`, `rules` and `stake` must then be left out."""
    with transaction.atomic(durable=True):
        club_role(user=actor, club_id=club_id, role=Role.SCORER)
        return session_add(
            actor=actor,
            club_id=club_id,
            variant=variant,
            rules=rules,
            player_ids=player_ids,
            first_dealer=first_dealer,
            stake=stake,
            carry_pools_from=carry_pools_from,
            preset_id=preset_id,
        )


def session_add(
    *,
    actor: User,
    club_id: int,
    variant: str,
    rules: dict[str, Any] | None,
    player_ids: list[int],
    first_dealer: int,
    stake: dict[str, Any] | None = None,
    carry_pools_from: int | None = None,
    preset_id: int | None = None,
) -> Session:
    """`session_open`'s write inside a transaction of the caller's that has checked the role (the tables
    of a night's draw, issue 37, all opened in the draw's one transaction)."""
    chosen: PresetVersion | None = None
    if preset_id is not None:
        chosen = _preset_for_session(club_id, preset_id)
        variant, rules, stake = chosen.variant, chosen.rules, chosen.stake
    players = _club_players(club_id, player_ids)
    names = [p.name for p in players]
    session = Session(
        club_id=club_id,
        variant=variant,
        rules=rules if rules is not None else {},
        first_dealer=first_dealer,
        stake=stake,
        pools_in=[],
        opened_by=actor,
        preset_version=chosen,
    )
    sheet = parse_sheet(sheet_of(session=session, players=names, hands=[], close=None))
    session.variant = variant = sheet.variant  # an alias of the variant is stored as its code
    if carry_pools_from is not None:
        source = _lock_sessions(carry_pools_from).get(carry_pools_from)
        session.pools_in = _claimable_pools(source, club_id, variant, stake)
        session.carry_pools_from = source
        sheet = parse_sheet(sheet_of(session=session, players=names, hands=[], close=None))
    run = Replay(sheet)
    session.balances = list(run.balances)
    session.pools = run.pools.as_list()
    session.next_deal = run.next_deal()
    session.save()
    Seat.objects.bulk_create(Seat(session=session, seat=i, player=p) for i, p in enumerate(players))
    announce(session)  # the room board shows the new table at once (issue 38, item 13)
    return session


def _preset_for_session(club_id: int, preset_id: int) -> PresetVersion:
    """The current version of a live preset of the club, read under the preset's lock (an edit waits)."""
    preset = Preset.objects.select_for_update().filter(pk=preset_id, club_id=club_id).first()
    if preset is None or preset.archived_at is not None:
        raise InvalidRequest.field("preset", "no such preset in this club")
    return PresetVersion.objects.get(preset=preset, version=preset.version)


# --- presets (issue 42): the club's house rules, named and versioned ----------------------------------


def _check_conditions(variant: Any, rules: Any, stake: Any) -> str:
    """What a table would be opened with, judged by the engine as a sheet with no hand: its errors
    name the field (`variant`, `rules.<option>`, `stake`), in the words of a session's. The variant's
    code is returned, an alias ("boston-français") kept under it as a session keeps it."""
    if not isinstance(variant, str):
        raise InvalidRequest.field("variant", "choose a variant")
    trial = Session(variant=variant, rules=rules if rules is not None else {}, first_dealer=0, stake=stake, pools_in=[])
    parse_sheet(sheet_of(session=trial, players=SEAT_NAMES, hands=[], close=None))
    return get_variant(variant).name


def _preset_name_free(club_id: int, name: str, but: int | None = None) -> None:
    taken = Preset.objects.filter(club_id=club_id, name=name, archived_at__isnull=True)
    if but is not None:
        taken = taken.exclude(pk=but)
    if taken.exists():
        raise InvalidRequest.field("name", "the club already has a preset of this name")


def preset_create(*, actor: User, club_id: int, name: Any, variant: Any, rules: Any, stake: Any = None) -> Preset:
    """A new preset at version 1 (treasurers and admins): the club's house rules, judged by the engine."""
    name = _clean_name(name, "name")
    rules = rules if rules is not None else {}
    variant = _check_conditions(variant, rules, stake)
    try:
        with transaction.atomic(durable=True):
            club_role(user=actor, club_id=club_id, role=Role.TREASURER)
            Club.objects.select_for_update().filter(pk=club_id).first()  # names: one writer at a time
            _preset_name_free(club_id, name)
            preset = Preset.objects.create(club_id=club_id, name=name)
            PresetVersion.objects.create(
                preset=preset, version=1, variant=variant, rules=rules, stake=stake, created_by=actor
            )
    except IntegrityError:  # a concurrent create of the same name
        raise InvalidRequest.field("name", "the club already has a preset of this name") from None
    return preset


def preset_update(
    *,
    actor: User,
    club_id: int,
    preset_id: int,
    expected_version: int | None,
    name: Any,
    variant: Any,
    rules: Any,
    stake: Any = None,
) -> Preset:
    """Edit a preset (treasurers and admins): new conditions make a new version, the old ones stay
    with the sessions that were opened from them; the same conditions again make none (a rename only).
    `expected_version` is the version the editor saw: another is VersionMismatch (412)."""
    name = _clean_name(name, "name")
    rules = rules if rules is not None else {}
    variant = _check_conditions(variant, rules, stake)
    try:
        with transaction.atomic(durable=True):
            club_role(user=actor, club_id=club_id, role=Role.TREASURER)
            Club.objects.select_for_update().filter(pk=club_id).first()
            preset = Preset.objects.select_for_update().filter(pk=preset_id, club_id=club_id).first()
            if preset is None or preset.archived_at is not None:
                raise NotFound("no such preset in this club")
            if expected_version != preset.version:
                raise VersionMismatch(f"the preset is at version {preset.version}, not {expected_version}")
            _preset_name_free(club_id, name, but=preset.pk)
            current = PresetVersion.objects.get(preset=preset, version=preset.version)
            same = current.variant == variant and current.rules == rules and current.stake == stake
            if not same:
                preset.version += 1
                PresetVersion.objects.create(
                    preset=preset, version=preset.version, variant=variant, rules=rules, stake=stake, created_by=actor
                )
            if not same or name != preset.name:
                preset.name = name
                preset.updated_at = timezone.now()
                preset.save(update_fields=["name", "version", "updated_at"])
    except IntegrityError:
        raise InvalidRequest.field("name", "the club already has a preset of this name") from None
    return preset


def preset_archive(*, actor: User, club_id: int, preset_id: int) -> None:
    """Archive a preset (treasurers and admins): no table opens from it any more; its versions stay with
    the sessions that used them, and its name is free again. Archiving twice is the same as once."""
    with transaction.atomic(durable=True):
        club_role(user=actor, club_id=club_id, role=Role.TREASURER)
        preset = Preset.objects.select_for_update().filter(pk=preset_id, club_id=club_id).first()
        if preset is None:
            raise NotFound("no such preset in this club")
        if preset.archived_at is None:
            preset.archived_at = timezone.now()
            preset.save(update_fields=["archived_at"])


def _club_players(club_id: int, player_ids: list[int]) -> list[Player]:
    if len(player_ids) != 4 or len(set(player_ids)) != 4:
        raise InvalidRequest.field("players", "four different players, in seat order")
    found = {p.pk: p for p in Player.objects.filter(club_id=club_id, pk__in=player_ids)}
    missing = [pid for pid in player_ids if pid not in found]
    if missing:
        raise InvalidRequest.field("players", f"no player {missing[0]} in this club")
    return [found[pid] for pid in player_ids]


def _same_stake(a: dict[str, Any] | None, b: dict[str, Any] | None) -> bool:
    if a is None or b is None:
        return a is b
    try:
        return a["currency"] == b["currency"] and Decimal(a["per_counter"]) == Decimal(b["per_counter"])
    except (KeyError, TypeError, ArithmeticError):
        return False


def _claimable_pools(source: Session | None, club_id: int, variant: str, stake: dict[str, Any] | None) -> list[int]:
    """The `carried` pools of a closed session of the club, for a session of `variant` at `stake`.

    The club holds carried pools as money at the stake they were played for, so only a session at the
    same stake may claim them; a session that carried nothing has nothing to claim."""
    if source is None or source.club_id != club_id:
        raise InvalidRequest.field("carry_pools_from", "no such session in this club")
    if source.status != Session.Status.CLOSED:
        raise InvalidRequest.field("carry_pools_from", "only a closed session's carried pools can be claimed")
    if Session.objects.filter(carry_pools_from=source).exists():
        raise PoolsClaimed(f"session {source.pk}'s carried pools are already claimed")
    multi_from, multi_to = get_variant(source.variant).multi_pool, get_variant(variant).multi_pool
    if multi_from != multi_to:
        message = (
            "American pools go only to a session with several pools"
            if multi_from
            else "a single pool goes only to a single-pool variant"
        )
        raise InvalidRequest.field("carry_pools_from", message)
    carried = list((source.closing or {}).get("carried") or [])
    if not any(carried):
        raise InvalidRequest.field("carry_pools_from", f"session {source.pk} carried no pools")
    if not _same_stake(source.stake, stake):
        raise InvalidRequest.field(
            "carry_pools_from", "carried pools are claimed at the same stake as the session that carried them"
        )
    return carried


def session_close(
    *,
    actor: User,
    session_id: int,
    pools: str = "divide",
    expected_version: int | None,
    closed_at: datetime | None = None,
) -> tuple[Session, dict[str, Any]]:
    """Close the session (treasurers and above): the engine settles it; returns it and its settlement.

    The evening keeps its date: closing again after a reopen dates it as the close the reopen undid
    (an imported evening of 9 May 2025 stays of 9 May 2025) unless `closed_at` gives another; a first
    close is dated now. Each close is kept in the session's history (`SessionEvent`), with who and when."""
    if pools not in ("divide", "carry"):
        raise InvalidRequest.field("pools", '`pools` must be "divide" or "carry"')
    with transaction.atomic(durable=True):
        session = _lock_session(session_id, actor, Role.TREASURER)
        _check_open(session)
        _check_version(session, expected_version)
        settlement = session_close_add(actor=actor, session=session, pools=pools, closed_at=closed_at)
    return session, settlement


def session_close_add(
    *, actor: User, session: Session, pools: str, closed_at: datetime | None = None
) -> dict[str, Any]:
    """`session_close`'s write on a session the caller has locked (and checked the role and version of)
    inside its own transaction (a night's cut-in, issue 37, closes a game and opens the next in one)."""
    _check_open(session)
    _check_no_open_dispute(session)
    hands = list(Hand.objects.filter(session=session).order_by("number"))
    close = {"pools": pools}
    sheet, run, settled = _replay(session, [h.raw for h in hands], close)
    settlement = settlement_json(sheet, run, settled)
    session.status = Session.Status.CLOSED
    session.close = close
    session.closing = settlement["close"]
    session.closed_by = actor
    session.closed_at = closed_at or played_at(session) or timezone.now()
    _check_close_amounts(settlement["close"])
    _write_projection(session, hands, settled, run)
    _followup_request(session)
    announce(session)
    SessionEvent.objects.create(
        session=session,
        kind=SessionEvent.Kind.CLOSE,
        version=session.version,
        by=actor,
        played_at=session.closed_at,
    )
    return settlement


def played_at(session: Session) -> datetime | None:
    """The date the session's last reopen undid, which its next close keeps (None if never closed)."""
    last = session.events.filter(kind=SessionEvent.Kind.REOPEN).order_by("-at", "-id").first()
    return last.played_at if last else None


def session_reopen(*, actor: User, session_id: int, expected_version: int | None) -> Session:
    """Open a closed session again (treasurers and above); its money's reversal follows in the background."""
    with transaction.atomic(durable=True):
        session = _lock_session(session_id, actor, Role.TREASURER)
        if session.status != Session.Status.CLOSED:
            raise SessionNotClosed()
        _check_version(session, expected_version)
        claimant = Session.objects.filter(carry_pools_from=session).values_list("pk", flat=True).first()
        if claimant is not None:
            raise PoolsClaimed(f"session {claimant} claimed the pools this session carried")
        played_at = session.closed_at
        session.status = Session.Status.OPEN
        session.close = None
        session.closing = None
        session.closed_by = None
        session.closed_at = None
        hands = list(Hand.objects.filter(session=session).order_by("number"))
        _, run, settled = _replay(session, [h.raw for h in hands])
        _write_projection(session, hands, settled, run)
        _followup_request(session)
        announce(session)  # the whole page changes (the deals' ✓ come back): the pages read it
        SessionEvent.objects.create(
            session=session, kind=SessionEvent.Kind.REOPEN, version=session.version, by=actor, played_at=played_at
        )
    return session


_ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
_ISO_DATETIME = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2})")


def parse_closed_at(value: Any, *, closed: bool, time_zone: str = zones.DEFAULT) -> datetime | None:
    """When an imported sheet's evening closed (`api.md`, "History"): an ISO date (the start of that day
    in the club's time zone, `time_zone`) or a date and time with its offset, not in the future, only
    with `close`."""
    if value is None:
        return None
    if not closed:
        raise InvalidRequest.field("closed_at", "`closed_at` is only for a sheet with `close`")
    if not isinstance(value, str):
        raise InvalidRequest.field("closed_at", "`closed_at` must be an ISO 8601 date or date and time")
    try:
        if _ISO_DATE.fullmatch(value):
            day = date.fromisoformat(value)
            at = datetime(day.year, day.month, day.day, tzinfo=zones.club_zone(time_zone)).astimezone(UTC)
        elif _ISO_DATETIME.fullmatch(value):
            at = datetime.fromisoformat(value).astimezone(UTC)
        else:
            raise ValueError(value)
    except ValueError:
        raise InvalidRequest.field(
            "closed_at", "`closed_at` must be an ISO 8601 date (2025-03-14) or date and time with offset"
        ) from None
    if at > timezone.now():
        raise InvalidRequest.field("closed_at", "`closed_at` may not be in the future")
    return at


def session_import(*, actor: User, club_id: int, sheet: Any, closed_at: Any = None) -> Session:
    """A session from a score sheet (scorers; treasurers for a closed one), at version 1.

    Players are matched by exact name within the club and created when missing, unless the name looks
    like a player's of the club (refused, as `player_create` does: ledger/names.py). With `closed_at` (a
    closed sheet only) the evening is dated then: opened and closed at that time, so statistics,
    periods, date filters and the order of ratings follow the day it was played.
    """
    closed = isinstance(sheet, dict) and sheet.get("close") is not None
    when = parse_closed_at(closed_at, closed=closed, time_zone=club_time_zone(club_id))
    hands_in = sheet.get("hands") if isinstance(sheet, dict) else None
    if isinstance(hands_in, list) and len(hands_in) > settings.MAX_SESSION_HANDS:  # before the engine's seconds
        raise InvalidRequest.field("hands", f"a session has at most {settings.MAX_SESSION_HANDS} hands")
    with transaction.atomic(durable=True):
        club_role(user=actor, club_id=club_id, role=Role.TREASURER if closed else Role.SCORER)
        parsed = parse_sheet(sheet)
        names = [_clean_name(name, "players") for name in parsed.players]
        if len(set(names)) != 4:
            raise InvalidRequest.field("players", "the four players must have different names")
        refuse_alike_in(names, "players")
        _lock_club(club_id)  # players made one at a time
        existing = list(Player.objects.filter(club_id=club_id).values_list("name", flat=True))
        for name in names:
            if name not in existing:
                refuse_look_alike(name, existing, "players")  # the rule of `player_create`
        substitutes = [_clean_name(sub.player, "substitutions") for sub in parsed.substitutions]
        for name in dict.fromkeys(substitutes):
            if name not in existing and name not in names:
                refuse_look_alike(name, [*existing, *names], "substitutions")
        run = Replay(parsed)
        settled = list(run)
        settlement = settlement_json(parsed, run, settled)
        players = []
        for name in names:
            player, _ = Player.objects.get_or_create(club_id=club_id, name=name)
            players.append(player)
        now = when or timezone.now()
        session = Session.objects.create(
            club_id=club_id,
            variant=parsed.variant,
            rules=parsed.rules,
            first_dealer=parsed.first_dealer,
            stake=sheet.get("stake"),
            pools_in=list(parsed.pools),
            status=Session.Status.CLOSED if closed else Session.Status.OPEN,
            close={"pools": parsed.close.pools} if parsed.close else None,
            closing=settlement.get("close"),
            closed_by=actor if closed else None,
            closed_at=now if closed else None,
            opened_by=actor,
            opened_at=now,
        )
        Seat.objects.bulk_create(Seat(session=session, seat=i, player=p) for i, p in enumerate(players))
        for sub, name in zip(parsed.substitutions, substitutes, strict=True):  # the seat history (issue 37)
            player, _ = Player.objects.get_or_create(club_id=club_id, name=name)
            SeatChange.objects.create(
                session=session, seat=sub.seat, player=player, from_hand=sub.first, created_by=actor
            )
        if closed:
            SessionEvent.objects.create(
                session=session, kind=SessionEvent.Kind.CLOSE, version=1, by=actor, played_at=now, at=timezone.now()
            )
        hands = Hand.objects.bulk_create(
            Hand(session=session, number=s["number"], raw=_without_number(raw), settled=s, recorded_by=actor)
            for raw, s in zip(parsed.hands, settled, strict=True)
        )
        HandRevision.objects.bulk_create(
            HandRevision(
                session=session,
                number=h.number,
                action=HandRevision.Action.RECORDED,
                new=h.raw,
                reason="imported",
                version=1,
                by=actor,
            )
            for h in hands
        )
        _write_projection(session, hands, settled, run, bump=False, fresh=hands)
        if closed:
            _check_close_amounts(settlement["close"])
            _followup_request(session)
    return session


def _followup_request(session: Session) -> None:
    """Inside the writing transaction: the session's background work is due, and goes to Celery once the
    transaction commits (`ledger.tasks.followup_request`). Imported at the first write that needs it, so a
    process that never closes a session never imports Celery (clubscore/__init__.py)."""
    from .tasks import followup_request

    followup_request(session=session)


# --- hands -----------------------------------------------------------------------------------------


def hand_record(
    *,
    actor: User,
    session_id: int,
    hand: Any,
    client_key: uuid.UUID | None = None,
    keeper: KeyKeeper | None = None,
) -> Hand:
    """Record the next deal (scorers and above). `hand` may carry `number` (see `hand_number_check`).

    Idempotent by `client_key` (the key the client sent it with, unique per session and user): a retry finds
    the hand its first attempt recorded and returns it, whatever happened since (the session closed,
    the number moved on), so a deal is recorded once however often it is sent. The lookup runs only
    when the write is refused or hits the key's unique constraint: the first attempt pays nothing.

    `keeper` (`KeyKeeper`): the API's Idempotency-Key, judged first and kept with the hand; its
    refusals pass through as they are.
    """
    try:
        return _hand_record(actor, session_id, hand, client_key, keeper)
    except (LedgerError, EngineError, IntegrityError):
        if client_key is None:
            raise
        found = (
            Hand.objects.select_related("session")
            .filter(session_id=session_id, recorded_by_id=actor.pk, client_key=client_key)
            .first()
        )
        if found is None:
            raise
        return found


def _hand_record(
    actor: User, session_id: int, hand: Any, client_key: uuid.UUID | None, keeper: KeyKeeper | None
) -> Hand:
    # On PostgreSQL (ledger/roundtrips.py): BEGIN with the lock, the earlier sheet and the keeper's read;
    # the projection, the revision, the hand and the keeper's write with COMMIT: two round trips where
    # one statement each took nine (bench/README.md).
    with roundtrips.atomic() as atomic:
        # A deal settles from the deals before it only: recording one changes no earlier hand, so
        # only the new hand's row is written (and only the earlier sheet is read).
        session, raws = _lock_session_and_sheet(session_id, actor, Role.SCORER, begin=atomic, keeper=keeper)
        _check_open(session)
        hand_number_check(session=session, number=hand.get("number") if isinstance(hand, dict) else None)
        if session.hands_count >= settings.MAX_SESSION_HANDS:
            raise InvalidRequest.field("hands", f"a session has at most {settings.MAX_SESSION_HANDS} hands")
        raw = _without_number(hand)
        _, run, settled = _replay(session, [*raws, raw], names=SEAT_NAMES)
        result = settled[-1]
        _check_hand_amounts(result)
        number = len(raws) + 1
        new = Hand(session=session, number=number, raw=raw, settled=result, client_key=client_key, recorded_by=actor)
        with roundtrips.together(commit=atomic) as writes:
            _store_state(session, run, number, writes=writes)
            writes.insert(
                HandRevision(
                    session=session,
                    number=number,
                    action=HandRevision.Action.RECORDED,
                    new=raw,
                    version=session.version,
                    by=actor,
                )
            )
            writes.insert(new)
            if keeper is not None:
                keeper.keep(new, writes)
    # After the block: `roundtrips.atomic`'s commit is not Django's (no on_commit), so this change's rows
    # are read just after its commit (a deal recorded later in between is carried by its own change).
    announce(session, moved=HAND, deals=[number])
    return new


def hand_amend(
    *,
    actor: User,
    session_id: int,
    number: int,
    hand: Any,
    expected_version: int | None,
    reason: str = "",
) -> Hand:
    """Replace deal `number` and replay the session from it (scorers and above).

    If the replay makes any hand invalid, nothing changes and the engine's error names that deal.
    """
    with transaction.atomic(durable=True):
        session = _lock_session(session_id, actor, Role.SCORER)
        _check_open(session)
        _check_version(session, expected_version)
        hands = list(Hand.objects.filter(session=session).order_by("number"))
        if not 1 <= number <= len(hands):
            raise NotFound(f"the session has no hand {number}")
        if number < len(hands) and (session.rules or {}).get("claims_lapse") is True:
            raise ClaimLapsed(
                f"deal {number} can no longer be amended: under the house rule “Claims lapse” a deal stands once "
                f"the next one is recorded (deal {number + 1} is); a treasurer can record the correction as an "
                "adjustment into the basket on the next deal"
            )
        if (
            isinstance(hand, dict)
            and "number" in hand
            and (type(hand["number"]) is not int or hand["number"] != number)
        ):
            raise EngineError("invalid_hand", {"number": [f"`number` must be {number}, the hand's number"]}, number)
        raw = _without_number(hand)
        target = hands[number - 1]
        old = target.raw
        _, run, settled = _replay(session, [raw if h is target else h.raw for h in hands])
        target.raw = raw
        target.save(update_fields=["raw"])
        _write_projection(session, hands, settled, run)
        HandRevision.objects.create(
            session=session,
            number=number,
            action=HandRevision.Action.AMENDED,
            old=old,
            new=raw,
            reason=reason[:500],
            version=session.version,
            by=actor,
        )
        _clear_checks(session, number)
        announce(session, moved=HAND, deals=range(number, len(hands) + 1))  # their running totals moved
    target.session = session
    return target


def hand_undo(*, actor: User, session_id: int, number: int, expected_version: int | None, reason: str = "") -> Session:
    """Undo the last hand (scorers and above); any other is `NotLastHand`."""
    with transaction.atomic(durable=True):
        session = _lock_session(session_id, actor, Role.SCORER)
        _check_open(session)
        _check_version(session, expected_version)
        hands = list(Hand.objects.filter(session=session).order_by("number"))
        if not 1 <= number <= len(hands):
            raise NotFound(f"the session has no hand {number}")
        if number != len(hands):
            raise NotLastHand(f"only the last hand ({len(hands)}) can be undone, not {number}")
        last = hands.pop()
        old = last.raw
        last.delete()
        _seat_changes_follow_undo(session, number)
        _, run, settled = _replay(session, [h.raw for h in hands])
        _write_projection(session, hands, settled, run)
        HandRevision.objects.create(
            session=session,
            number=number,
            action=HandRevision.Action.UNDONE,
            old=old,
            reason=reason[:500],
            version=session.version,
            by=actor,
        )
        _clear_checks(session, number)
        announce(session, moved=HAND)  # no row changed: the pages drop the deals after the session's last
    return session


# --- device tokens ---------------------------------------------------------------------------------


def _seat_changes_follow_undo(session: Session, number: int) -> None:
    """Hand `number` undone: a substitute who was to sit from the hand after it sits from `number`, the
    next deal again (a substitution is always from a recorded hand or the next); one already set for that
    seat from `number`, whose stint is left without a hand, gives way to him."""
    for change in SeatChange.objects.filter(session=session, from_hand=number + 1).order_by("id"):
        SeatChange.objects.filter(session=session, seat=change.seat, from_hand=number).delete()
        if number < 2:
            change.delete()  # nobody substitutes from the first deal: he is the opening player's substitute
            continue
        change.from_hand = number
        change.save(update_fields=["from_hand"])


def seat_substitute(
    *,
    actor: User,
    session_id: int,
    seat: Any,
    player_id: Any = None,
    name: Any = None,
    number: Any = None,
    client_key: uuid.UUID | None = None,
) -> SeatChange:
    """A substitute mid-game (issue 37; scorers and above): from the next deal, the club's player
    `player_id`, or a new guest named `name`, takes `seat`. `number`, when given, is the deal the client
    believes is next: a lower one means another device recorded a deal meanwhile (409, as a hand's).
    With `client_key` a retry finds the substitution it made instead of making another."""
    if type(seat) is not int or not 0 <= seat <= 3:
        raise InvalidRequest.field("seat", "a seat is 0, 1, 2 or 3")
    if (player_id is None) == (name is None):
        raise InvalidRequest.field("player", "name the substitute: a player of the club or a new guest")
    if player_id is not None and type(player_id) is not int:
        raise InvalidRequest.field("player", "a player is named by his id")
    with transaction.atomic(durable=True):
        session = _lock_session(session_id, actor, Role.SCORER)
        if client_key is not None:
            found = SeatChange.objects.filter(session=session, created_by=actor, client_key=client_key).first()
            if found is not None:
                return found
        _check_open(session)
        following = session.hands_count + 1
        if number is not None:
            if type(number) is not int or number < 1 or number > following:
                raise InvalidRequest.field("number", f"`number` must be {following}, the next deal of the session")
            if number < following:
                raise StaleNumber(f"deal {number} is already recorded: the next deal is {following}", session)
        if following < 2:
            raise InvalidRequest.field(
                "seat", "before the first deal the players are changed by opening the table again, not by a substitute"
            )
        if player_id is not None:
            player = Player.objects.filter(pk=player_id, club_id=session.club_id).first()
            if player is None:
                raise InvalidRequest.field("player", f"no player {player_id} in this club")
        else:
            try:
                with transaction.atomic():
                    player = player_add(club_id=session.club_id, name=name)
            except IntegrityError:
                raise InvalidRequest.field("name", "the club already has a player of this name") from None
        seated = seated_now(session=session)
        if player.pk in {p.pk for p in seated}:
            raise InvalidRequest.field("player", f"{player.name} is already seated at this table")
        if SeatChange.objects.filter(session=session, seat=seat, from_hand=following).exists():
            raise SeatChanged(f"seat {seat} already changes hands at deal {following}")
        change = SeatChange.objects.create(
            session=session,
            seat=seat,
            player=player,
            from_hand=following,
            client_key=client_key,
            created_by=actor,
        )
        session.version += 1
        session.save(update_fields=["version"])
        announce(session)
    return change


def token_issue(*, user: User, device: str, key: str | None = None) -> tuple[str, DeviceToken]:
    """A new key for the user on this device (replacing the device's previous one); only its hash is kept.

    `key` is for the demo command only, whose users keep the same token across restarts.
    """
    device = _clean_name(device, "device")
    key = key or secrets.token_urlsafe(32)
    now = timezone.now()
    with transaction.atomic(durable=True):
        token, _ = DeviceToken.objects.update_or_create(
            user=user,
            device=device,
            defaults={
                "key_hash": token_hash(key),
                "created_at": now,
                "expires_at": now + timedelta(days=settings.CLUBSCORE_TOKEN_DAYS),
                "revoked_at": None,
            },
        )
    return key, token


def token_revoke(*, token: DeviceToken) -> None:
    with transaction.atomic(durable=True):
        DeviceToken.objects.filter(pk=token.pk, revoked_at__isnull=True).update(revoked_at=timezone.now())


def token_revoke_by_id(*, user: User, token_id: int) -> None:
    """Log one of the user's devices out (a lost phone, from another); another user's token is NotFound."""
    with transaction.atomic(durable=True):
        revoked = DeviceToken.objects.filter(
            pk=token_id, user_id=user.pk, revoked_at__isnull=True, expires_at__gt=timezone.now()
        ).update(revoked_at=timezone.now())
    if not revoked:
        raise NotFound("no such device token")


def token_revoke_all(*, user: User) -> int:
    """Every live token of the user (a password change). One UPDATE, atomic by itself; not durable,
    because it runs from the user's `post_save`, inside whatever transaction saved the user."""
    return DeviceToken.objects.filter(user_id=user.pk, revoked_at__isnull=True).update(revoked_at=timezone.now())


TOKEN_TOUCH_SECONDS = 60


def token_touch(*, token: DeviceToken) -> None:
    """Note the token's use, to the minute: at most one UPDATE a minute per device on the hot path."""
    now = timezone.now()
    if token.last_used_at is not None and now - token.last_used_at < timedelta(seconds=TOKEN_TOUCH_SECONDS):
        return
    DeviceToken.objects.filter(pk=token.pk).update(last_used_at=now)  # autocommitted: one statement
    token.last_used_at = now


# --- the whole table (issue 25): confirmations, disputes, seat and board links ------------------------

REASON_MAX = 200
LINK_KEY_BYTES = 18  # 24 URL-safe characters: a short link that cannot be guessed


def _clear_checks(session: Session, number: int) -> None:
    """An amend or undo of deal `number` asks its seats again: their checks are cleared (kept as history)."""
    DealCheck.objects.filter(session=session, number=number, cleared_at__isnull=True).update(cleared_at=timezone.now())


def _check_no_open_dispute(session: Session) -> None:
    found = (
        DealCheck.objects.filter(session=session, state=DealCheck.State.DISPUTED, cleared_at__isnull=True, outcome="")
        .order_by("number", "seat")
        .first()
    )
    if found is not None:
        raise DisputesOpen(fields={"disputes": [f"deal {found.number} is disputed by seat {found.seat + 1}"]})


def _clean_reason(value: Any) -> str:
    if not isinstance(value, str) or not value.strip():
        raise InvalidRequest.field("reason", "say in a few words what is not right")
    text = " ".join(value.split())
    if len(text) > REASON_MAX:
        raise InvalidRequest.field("reason", f"a reason has at most {REASON_MAX} characters")
    return text


def _lock_for_link(link: SeatLink) -> Session:
    session = Session.objects.select_for_update(no_key=True).filter(pk=link.session_id).first()
    if session is None:
        raise NotFound("no such session")
    return session


def _own_seat(session: Session, actor: User) -> int:
    seat = Seat.objects.filter(session=session, player__user_id=actor.pk).values_list("seat", flat=True).first()
    if seat is None:
        raise PermissionDenied("only a player seated at this table confirms or disputes its deals")
    return seat


def deal_check(
    *,
    session_id: int,
    number: int,
    state: str,
    reason: Any = "",
    actor: User | None = None,
    link: SeatLink | None = None,
) -> DealCheck:
    """One seat's ✓ or dispute of deal `number`: a club member for his own seat, or a seat link for its seat.

    Idempotent: the same word again changes nothing. A seat may change its word (a ✓ after a dispute
    withdraws it); the earlier one is kept, cleared. The table is never held up: nothing waits for it."""
    if state not in DealCheck.State.values:
        raise InvalidRequest.field("state", "a check is confirmed or disputed")
    text = _clean_reason(reason) if state == DealCheck.State.DISPUTED else ""
    with transaction.atomic(durable=True):
        if link is not None:
            session, seat = _lock_for_link(link), link.seat
        elif actor is not None:
            session = _lock_session(session_id, actor, Role.PLAYER)
            seat = _own_seat(session, actor)
        else:
            raise NotFound("no such session")
        _check_open(session)
        if not 1 <= number <= session.hands_count:
            raise NotFound(f"the session has no hand {number}")
        live = DealCheck.objects.filter(session=session, number=number, seat=seat, cleared_at__isnull=True).first()
        if live is not None and live.state == state and live.reason == text:
            return live
        now = timezone.now()
        if live is not None:
            live.cleared_at = now
            live.save(update_fields=["cleared_at"])
        check = DealCheck.objects.create(
            session=session, number=number, seat=seat, state=state, reason=text, by=actor, by_link=link, at=now
        )
        _bump_checks(session, number)
    return check


def dispute_settle(*, actor: User, session_id: int, number: int, seat: int, outcome: str, note: Any = "") -> DealCheck:
    """The treasurer's word on an open dispute: resolved (put right, or agreed) or overruled (the deal
    stands as recorded); who and when are kept on it. Idempotent for the same outcome."""
    if outcome not in DealCheck.Outcome.values:
        raise InvalidRequest.field("outcome", '`outcome` must be "resolved" or "overruled"')
    if not isinstance(note, str):
        raise InvalidRequest.field("note", "a note is a string")
    note = " ".join(note.split())
    if len(note) > REASON_MAX:
        raise InvalidRequest.field("note", f"a note has at most {REASON_MAX} characters")
    with transaction.atomic(durable=True):
        session = _lock_session(session_id, actor, Role.TREASURER)
        dispute = DealCheck.objects.filter(
            session=session, number=number, seat=seat, state=DealCheck.State.DISPUTED, cleared_at__isnull=True
        ).first()
        if dispute is None:
            raise NotFound(f"no open dispute of seat {seat + 1} on deal {number}")
        if dispute.outcome:
            if dispute.outcome == outcome:
                return dispute
            raise InvalidRequest.field("outcome", "this dispute is already settled")
        dispute.outcome = outcome
        dispute.note = note
        dispute.settled_by = actor
        dispute.settled_at = timezone.now()
        dispute.save(update_fields=["outcome", "note", "settled_by", "settled_at"])
        _bump_checks(session, number)
    return dispute


def _bump_checks(session: Session, number: int) -> None:
    session.checks_version += 1
    session.save(update_fields=["checks_version"])
    announce(session, moved=CHECK, deals=[number])


def seat_link_issue(*, actor: User, session_id: int, seat: Any) -> tuple[str, SeatLink]:
    """A link for one seat of one open session (scorers and above); the key is shown once, kept hashed."""
    if type(seat) is not int or not 0 <= seat <= 3:
        raise InvalidRequest.field("seat", "a seat is 0, 1, 2 or 3")
    with transaction.atomic(durable=True):
        session = _lock_session(session_id, actor, Role.SCORER)
        _check_open(session)
        return seat_link_add(actor=actor, session=session, seat=seat)


def seat_link_add(*, actor: User, session: Session, seat: int) -> tuple[str, SeatLink]:
    """`seat_link_issue`'s write, inside the caller's transaction (a night's draw readies its tables' links)."""
    key = secrets.token_urlsafe(LINK_KEY_BYTES)
    link = SeatLink.objects.create(session=session, seat=seat, key_hash=token_hash(key), created_by=actor)
    return key, link


def seat_link_revoke(*, actor: User, session_id: int, link_id: int) -> None:
    with transaction.atomic(durable=True):
        _lock_session(session_id, actor, Role.SCORER)
        revoked = SeatLink.objects.filter(pk=link_id, session_id=session_id, revoked_at__isnull=True).update(
            revoked_at=timezone.now()
        )
        if revoked:
            announce_revoked(link_channel("seat", link_id))  # its open streams end (ledger/live.py)
    if not revoked:
        raise NotFound("no such seat link")


def board_link_issue(*, actor: User, club_id: int, label: Any = "") -> tuple[str, BoardLink]:
    """A read-only link to the club's room board (admins); the key is shown once, kept hashed."""
    if not isinstance(label, str):
        raise InvalidRequest.field("label", "a label is a string")
    label = " ".join(label.split())
    if len(label) > NAME_MAX:
        raise InvalidRequest.field("label", f"a name has at most {NAME_MAX} characters")
    key = secrets.token_urlsafe(LINK_KEY_BYTES)
    with transaction.atomic(durable=True):
        club_role(user=actor, club_id=club_id, role=Role.ADMIN)
        link = BoardLink.objects.create(club_id=club_id, label=label, key_hash=token_hash(key), created_by=actor)
    return key, link


def board_link_revoke(*, actor: User, club_id: int, link_id: int) -> None:
    with transaction.atomic(durable=True):
        club_role(user=actor, club_id=club_id, role=Role.ADMIN)
        revoked = BoardLink.objects.filter(pk=link_id, club_id=club_id, revoked_at__isnull=True).update(
            revoked_at=timezone.now()
        )
        if revoked:
            announce_revoked(link_channel("board", link_id))
    if not revoked:
        raise NotFound("no such board link")
