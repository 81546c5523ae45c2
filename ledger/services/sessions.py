"""Sessions: opening (from a preset or not, claiming carried pools), closing, reopening, importing."""

from __future__ import annotations

import re
from datetime import UTC, date, datetime
from decimal import Decimal
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from ledger import zones
from ledger.engine import Replay, parse_sheet, settlement_json
from ledger.engine.variants import get_variant
from ledger.exceptions import (
    InvalidRequest,
    PoolsClaimed,
    SessionNotClosed,
)
from ledger.live import announce
from ledger.models import (
    Hand,
    HandRevision,
    Player,
    Preset,
    PresetVersion,
    Role,
    Seat,
    SeatChange,
    Session,
    SessionEvent,
)
from ledger.names import clean_name, refuse_alike_in, refuse_look_alike
from ledger.selectors import (
    club_role,
    club_time_zone,
    sheet_of,
)
from ledger.services.locks import check_open, check_version, lock_club, lock_session, lock_sessions
from ledger.services.projection import (
    check_close_amounts,
    followup_request,
    replay,
    without_number,
    write_projection,
)
from ledger.services.table import check_no_open_dispute

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
        source = lock_sessions(carry_pools_from).get(carry_pools_from)
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
        session = lock_session(session_id, actor, Role.TREASURER)
        check_open(session)
        check_version(session, expected_version)
        settlement = session_close_add(actor=actor, session=session, pools=pools, closed_at=closed_at)
    return session, settlement


def session_close_add(
    *, actor: User, session: Session, pools: str, closed_at: datetime | None = None
) -> dict[str, Any]:
    """`session_close`'s write on a session the caller has locked (and checked the role and version of)
    inside its own transaction (a night's cut-in, issue 37, closes a game and opens the next in one)."""
    check_open(session)
    check_no_open_dispute(session)
    hands = list(Hand.objects.filter(session=session).order_by("number"))
    close = {"pools": pools}
    sheet, run, settled = replay(session, [h.raw for h in hands], close)
    settlement = settlement_json(sheet, run, settled)
    session.status = Session.Status.CLOSED
    session.close = close
    session.closing = settlement["close"]
    session.closed_by = actor
    session.closed_at = closed_at or played_at(session) or timezone.now()
    check_close_amounts(settlement["close"])
    write_projection(session, hands, settled, run)
    followup_request(session)
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
        session = lock_session(session_id, actor, Role.TREASURER)
        if session.status != Session.Status.CLOSED:
            raise SessionNotClosed()
        check_version(session, expected_version)
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
        _, run, settled = replay(session, [h.raw for h in hands])
        write_projection(session, hands, settled, run)
        followup_request(session)
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
        names = [clean_name(name, "players") for name in parsed.players]
        if len(set(names)) != 4:
            raise InvalidRequest.field("players", "the four players must have different names")
        refuse_alike_in(names, "players")
        lock_club(club_id)  # players made one at a time
        existing = list(Player.objects.filter(club_id=club_id).values_list("name", flat=True))
        for name in names:
            if name not in existing:
                refuse_look_alike(name, existing, "players")  # the rule of `player_create`
        substitutes = [clean_name(sub.player, "substitutions") for sub in parsed.substitutions]
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
            Hand(session=session, number=s["number"], raw=without_number(raw), settled=s, recorded_by=actor)
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
        write_projection(session, hands, settled, run, bump=False, fresh=hands)
        if closed:
            check_close_amounts(settlement["close"])
            followup_request(session)
    return session
