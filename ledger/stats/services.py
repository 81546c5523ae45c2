"""Writes of the statistics' projection. Each public function is one `transaction.atomic(durable=True)`.

- `stats_session_refresh(session_id=...)`: the incremental projection (called by the receiver of
  `ledger.background.session_changed` in `ledger.stats.apps`). It recomputes that session's rows from
  its hands (deleting them when the session is no longer closed) and replays the ratings from the
  earliest closing position the session held or now holds, for the players it touches and, through
  later sessions, everyone whose rating depends on theirs. Running it twice has the effect of running it once.
- `stats_rebuild(club_id=...)`: everything of one club (or of every club) recomputed from the hands.

Both take the club's row lock first (`select_for_update`), so two refreshes in one club never
interleave their rating replays. They read the ledger's tables and write only `ledger.stats`'s.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from itertools import groupby
from typing import Any

from django.db import transaction
from django.db.models import OuterRef, Q, Subquery

from ledger.models import Club, Hand, Player, Seat, SeatChange, Session

from . import ratings
from .figures import SeatFigures, merged, stint_figures
from .models import (
    ROLLUP_ZONE,
    PlayerContract,
    PlayerMonth,
    PlayerMonthContract,
    PlayerSession,
    Rating,
    RatingEntry,
)

BATCH = 500  # sessions per rebuild batch
INSERT_BATCH = 2000

Position = tuple[dt.datetime, int]  # (closed_at, session id): the closing order


@dataclass(frozen=True)
class RebuildResult:
    clubs: int
    sessions: int
    rating_entries: int


# --- figures ---------------------------------------------------------------------------------------


def _is_closed(session: Session) -> bool:
    return session.status == Session.Status.CLOSED and session.closing is not None and session.closed_at is not None


def _rows(session: Session, figures: list[tuple[int, SeatFigures]]) -> tuple[list[PlayerSession], list[PlayerContract]]:
    """The rows of one closed session from (player id, figures): one row per player."""
    closed_at = session.closed_at
    assert closed_at is not None, "only a closed session has rows"
    sessions, contracts = [], []
    for player_id, f in figures:
        sessions.append(
            PlayerSession(
                session_id=session.pk,
                player_id=player_id,
                club_id=session.club_id,
                variant=session.variant,
                closed_at=closed_at,
                seat=f.seat,
                deals=f.deals,
                counters=f.counters,
                currency=f.currency,
                money=f.money,
                pools_won=f.pools_won,
                pools_won_counters=f.pools_won_counters,
                misere_partout_played=f.misere_partout_played,
                misere_partout_lost=f.misere_partout_lost,
                bidder_played=f.bidder_played,
                bidder_made=f.bidder_made,
                revokes=f.revokes,
                misdeals=f.misdeals,
                concessions=f.concessions,
            )
        )
        for (bid, role), tally in f.contracts.items():
            contracts.append(
                PlayerContract(
                    session_id=session.pk,
                    player_id=player_id,
                    club_id=session.club_id,
                    variant=session.variant,
                    closed_at=closed_at,
                    bid=bid,
                    role=role,
                    played=tally.played,
                    made=tally.made,
                    overtricks=tally.overtricks,
                    shortfall=tally.shortfall,
                )
            )
    return sessions, contracts


def _seat_players(session_ids: Iterable[int]) -> dict[int, dict[int, int]]:
    out: dict[int, dict[int, int]] = {}
    for session_id, seat, player_id in Seat.objects.filter(session_id__in=list(session_ids)).values_list(
        "session_id", "seat", "player_id"
    ):
        out.setdefault(session_id, {})[seat] = player_id
    return out


def _substitutes(session_ids: list[int]) -> dict[int, list[int]]:
    """Each session's substitutes' player ids, in the sheet's order (issue 37)."""
    out: dict[int, list[int]] = {}
    rows = SeatChange.objects.filter(session_id__in=session_ids).order_by("session_id", "from_hand", "id")
    for session_id, player_id in rows.values_list("session_id", "player_id"):
        out.setdefault(session_id, []).append(player_id)
    return out


def _session_hands(session_ids: list[int]) -> dict[int, list[tuple[Any, Any]]]:
    out: dict[int, list[tuple[Any, Any]]] = {sid: [] for sid in session_ids}
    hands = (
        Hand.objects.filter(session_id__in=session_ids)
        .order_by("session_id", "number")
        .values_list("session_id", "raw", "settled")
    )
    for session_id, raw, settled in hands.iterator(chunk_size=4000):
        out[session_id].append((raw, settled))
    return out


def _write_session_rows(sessions: list[Session]) -> None:
    """Compute and insert the rows of these closed sessions (their old rows already deleted)."""
    ids = [s.pk for s in sessions]
    seats = _seat_players(ids)
    hands = _session_hands(ids)
    session_rows: list[PlayerSession] = []
    contract_rows: list[PlayerContract] = []
    substitutes = _substitutes(ids)
    for session in sessions:
        closing = session.closing or {}
        figures = stint_figures(session.variant, hands[session.pk], closing)
        # The close's parties: the four by seat, then each substitute (issue 37, `engine.stints`).
        parties = [seats[session.pk][seat] for seat in range(4)] + substitutes.get(session.pk, [])
        per_player: dict[int, SeatFigures] = {}
        for player_id, f in zip(parties, figures, strict=False):
            per_player[player_id] = merged(per_player[player_id], f) if player_id in per_player else f
        rows, contracts = _rows(session, list(per_player.items()))
        session_rows += rows
        contract_rows += contracts
    PlayerSession.objects.bulk_create(session_rows, batch_size=INSERT_BATCH)
    PlayerContract.objects.bulk_create(contract_rows, batch_size=INSERT_BATCH)


# --- the monthly sums ------------------------------------------------------------------------------


def month_of(when: dt.datetime) -> dt.date:
    """The first day of the UTC calendar month of `when` (the month of its monthly rows)."""
    return when.astimezone(ROLLUP_ZONE).date().replace(day=1)


def month_bounds(month: dt.date) -> tuple[dt.datetime, dt.datetime]:
    """[start, end) of a UTC calendar month."""
    following = dt.date(month.year + (month.month == 12), month.month % 12 + 1, 1)
    return (
        dt.datetime.combine(month, dt.time.min, ROLLUP_ZONE),
        dt.datetime.combine(following, dt.time.min, ROLLUP_ZONE),
    )


MONTH_SUMS = (
    "deals",
    "counters",
    "money",
    "pools_won",
    "pools_won_counters",
    "misere_partout_played",
    "misere_partout_lost",
    "bidder_played",
    "bidder_made",
    "revokes",
    "misdeals",
    "concessions",
)
CONTRACT_SUMS = ("played", "made", "overtricks", "shortfall")


def _write_months(club_id: int, players: set[int] | None = None, months: set[dt.date] | None = None) -> None:
    """Recompute `PlayerMonth` and `PlayerMonthContract` of the club (only these players and months)."""
    scope = Q(club_id=club_id)
    if players is not None:
        scope &= Q(player_id__in=list(players))
    rows, contracts = PlayerSession.objects.filter(scope), PlayerContract.objects.filter(scope)
    month_rows, contract_months = PlayerMonth.objects.filter(scope), PlayerMonthContract.objects.filter(scope)
    if months is not None:
        if not months:
            return
        within = Q()
        for month in months:
            start, end = month_bounds(month)
            within |= Q(closed_at__gte=start, closed_at__lt=end)
        rows, contracts = rows.filter(within), contracts.filter(within)
        month_rows, contract_months = month_rows.filter(month__in=months), contract_months.filter(month__in=months)
    month_rows.delete()
    contract_months.delete()
    # Summed here rather than with the database's month truncation, so that a row's month is `month_of`
    # everywhere (the handler picks the months to recompute with it).
    session_sums: dict[tuple[Any, ...], list[int]] = {}
    for player_id, closed_at, variant, currency, *figures in rows.values_list(
        "player_id", "closed_at", "variant", "currency", *MONTH_SUMS
    ).iterator(chunk_size=4000):
        key = (player_id, month_of(closed_at), variant, currency or "")
        total = session_sums.setdefault(key, [0] * (len(MONTH_SUMS) + 1))
        total[0] += 1
        for i, value in enumerate(figures, 1):
            total[i] += value or 0
    PlayerMonth.objects.bulk_create(
        (
            PlayerMonth(
                player_id=player_id,
                club_id=club_id,
                month=month,
                variant=variant,
                currency=currency,
                sessions=total[0],
                **dict(zip(MONTH_SUMS, total[1:], strict=True)),
            )
            for (player_id, month, variant, currency), total in session_sums.items()
        ),
        batch_size=INSERT_BATCH,
    )
    contract_sums: dict[tuple[Any, ...], list[int]] = {}
    for player_id, closed_at, variant, bid, role, *figures in contracts.values_list(
        "player_id", "closed_at", "variant", "bid", "role", *CONTRACT_SUMS
    ).iterator(chunk_size=4000):
        contract_key = (player_id, month_of(closed_at), variant, bid, role)
        total = contract_sums.setdefault(contract_key, [0] * len(CONTRACT_SUMS))
        for i, value in enumerate(figures):
            total[i] += value
    PlayerMonthContract.objects.bulk_create(
        (
            PlayerMonthContract(
                player_id=player_id,
                club_id=club_id,
                month=month,
                variant=variant,
                bid=bid,
                role=role,
                **dict(zip(CONTRACT_SUMS, total, strict=True)),
            )
            for (player_id, month, variant, bid, role), total in contract_sums.items()
        ),
        batch_size=INSERT_BATCH,
    )


# --- ratings ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _State:
    skill: ratings.Skill
    number: int
    session_id: int
    closed_at: dt.datetime


@dataclass(frozen=True)
class _Match:
    session_id: int
    closed_at: dt.datetime
    variant: str
    players: tuple[int, ...]
    counters: tuple[int, ...]


def _at_or_after(start: Position) -> Q:
    closed_at, session_id = start
    return Q(closed_at__gt=closed_at) | Q(closed_at=closed_at, session_id__gte=session_id)


def _before(start: Position) -> Q:
    closed_at, session_id = start
    return Q(closed_at__lt=closed_at) | Q(closed_at=closed_at, session_id__lt=session_id)


def _matches(club_id: int, start: Position | None) -> Iterator[_Match]:
    """The club's closed sessions from `start` on, in closing order, each with its four players by seat."""
    sessions = PlayerSession.objects.filter(club_id=club_id)
    if start is not None:
        sessions = sessions.filter(_at_or_after(start))
    rows = sessions.order_by("closed_at", "session_id", "seat").values_list(
        "session_id", "closed_at", "variant", "player_id", "counters"
    )
    for (session_id, closed_at, variant), group in groupby(rows.iterator(chunk_size=4000), key=lambda r: r[:3]):
        seated = list(group)
        yield _Match(session_id, closed_at, variant, tuple(r[3] for r in seated), tuple(r[4] for r in seated))


def _states_before(player_ids: set[int], start: Position | None) -> dict[int, _State]:
    """Each player's latest rating entry before `start` (none when `start` is None: the beginning)."""
    if start is None or not player_ids:
        return {}
    latest = (
        RatingEntry.objects.filter(player_id=OuterRef("pk"))
        .filter(_before(start))
        .order_by("-closed_at", "-session_id")
        .values("pk")[:1]
    )
    entry_ids = [
        pk
        for pk in Player.objects.filter(pk__in=player_ids)
        .annotate(entry=Subquery(latest))
        .values_list("entry", flat=True)
        if pk is not None
    ]
    return {
        e.player_id: _State(ratings.Skill(e.mu, e.sigma), e.number, e.session_id, e.closed_at)
        for e in RatingEntry.objects.filter(pk__in=entry_ids)
    }


def _replay_ratings(club_id: int, start: Position | None, seed: set[int]) -> int:
    """Recompute the club's rating entries from `start` (None: from the first session) for the players
    in `seed` and whoever meets them later. Entries that come out the same are left alone."""
    matches = list(_matches(club_id, start))
    existing: dict[tuple[int, int], RatingEntry] = {}
    if start is not None:
        for row in RatingEntry.objects.filter(club_id=club_id).filter(_at_or_after(start)):
            existing[(row.player_id, row.session_id)] = row
    else:
        RatingEntry.objects.filter(club_id=club_id).delete()
    involved = set(seed).union(*(m.players for m in matches)) if matches else set(seed)
    state = _states_before(involved, start)
    affected = set(seed) if start is not None else involved
    keep: set[tuple[int, int]] = set()
    create: list[RatingEntry] = []
    update: list[RatingEntry] = []
    for match in matches:
        keys = [(p, match.session_id) for p in match.players]
        keep.update(keys)
        if affected.isdisjoint(match.players) and all(k in existing for k in keys):
            for key in keys:
                e = existing[key]
                state[key[0]] = _State(ratings.Skill(e.mu, e.sigma), e.number, e.session_id, e.closed_at)
            continue
        affected.update(match.players)
        before = [state.get(p) for p in match.players]
        after = ratings.rate([s.skill if s else ratings.initial() for s in before], match.counters)
        for player_id, prior, skill in zip(match.players, before, after, strict=True):
            new = _State(skill, (prior.number if prior else 0) + 1, match.session_id, match.closed_at)
            state[player_id] = new
            entry = existing.get((player_id, match.session_id))
            values = {
                "club_id": club_id,
                "variant": match.variant,
                "closed_at": match.closed_at,
                "number": new.number,
                "mu": skill.mu,
                "sigma": skill.sigma,
                "ordinal": skill.ordinal,
            }
            if entry is None:
                create.append(RatingEntry(player_id=player_id, session_id=match.session_id, **values))
            elif any(getattr(entry, k) != v for k, v in values.items()):
                for k, v in values.items():
                    setattr(entry, k, v)
                update.append(entry)
    stale = [e.pk for key, e in existing.items() if key not in keep]
    if stale:
        RatingEntry.objects.filter(pk__in=stale).delete()
    if update:
        RatingEntry.objects.bulk_update(
            update, ["club_id", "variant", "closed_at", "number", "mu", "sigma", "ordinal"], batch_size=INSERT_BATCH
        )
    RatingEntry.objects.bulk_create(create, batch_size=INSERT_BATCH)
    Rating.objects.filter(player_id__in=affected).delete()
    Rating.objects.bulk_create(
        [
            Rating(
                player_id=player_id,
                club_id=club_id,
                mu=s.skill.mu,
                sigma=s.skill.sigma,
                ordinal=s.skill.ordinal,
                sessions=s.number,
                session_id=s.session_id,
                closed_at=s.closed_at,
            )
            for player_id, s in state.items()
            if player_id in affected
        ],
        batch_size=INSERT_BATCH,
    )
    return len(create) + len(update)


# --- the handler and the rebuild -------------------------------------------------------------------


def _lock_club(club_id: int) -> None:
    # FOR NO KEY UPDATE: a write elsewhere that only references the club (a deferred foreign key check
    # at its COMMIT takes FOR KEY SHARE) must not wait for a refresh that waits for that write's session.
    list(Club.objects.select_for_update(no_key=True).filter(pk=club_id).values_list("pk", flat=True))


def _seated(session_id: int) -> list[tuple[int, int, dt.datetime, int]]:
    rows = PlayerSession.objects.filter(session_id=session_id)
    return sorted(rows.values_list("seat", "player_id", "closed_at", "counters"))


def stats_session_refresh(*, session_id: int) -> None:
    """Bring the statistics of one session up to date with its hands and status (idempotent)."""
    club_id = Session.objects.filter(pk=session_id).values_list("club_id", flat=True).first()
    if club_id is None:
        return  # no such session (its rows, if any, went with it)
    with transaction.atomic(durable=True):
        _lock_club(club_id)
        session = Session.objects.filter(pk=session_id).first()
        if session is None:
            return
        old = _seated(session_id)
        old_entries = list(RatingEntry.objects.filter(session_id=session_id).values_list("closed_at", flat=True))
        PlayerContract.objects.filter(session_id=session_id).delete()
        PlayerSession.objects.filter(session_id=session_id).delete()
        closed = _is_closed(session)
        if closed:
            _write_session_rows([session])
        new = _seated(session_id)
        seed = {player_id for _seat, player_id, _at, _c in old + new}
        seed |= set(Seat.objects.filter(session_id=session_id).values_list("player_id", flat=True))
        _write_months(club_id, seed, {month_of(at) for _seat, _player, at, _c in old + new})
        if new == old and len(old_entries) == len(old) and all(at == session.closed_at for at in old_entries):
            return  # same place in the closing order, same result: no rating changes
        starts: list[Position] = [(at, session_id) for at in old_entries[:1]]
        if closed and session.closed_at is not None:
            starts.append((session.closed_at, session_id))
        if not starts:
            return
        _replay_ratings(club_id, min(starts), seed)


def stats_rebuild(*, club_id: int | None = None) -> RebuildResult:
    """Recompute every figure and rating of one club (or of every club) from the hands.

    Each club is its own transaction, so a rebuild of everything never holds more than one club's lock.
    """
    club_ids = [club_id] if club_id is not None else list(Club.objects.order_by("pk").values_list("pk", flat=True))
    sessions = entries = 0
    for cid in club_ids:
        with transaction.atomic(durable=True):
            club_sessions, club_entries = stats_rebuild_club(cid)
        sessions += club_sessions
        entries += club_entries
    return RebuildResult(clubs=len(club_ids), sessions=sessions, rating_entries=entries)


def stats_rebuild_club(cid: int) -> tuple[int, int]:
    """One club's rebuild, in the caller's transaction (`manage.py verify` rolls it back): the
    sessions read and the rating entries written."""
    sessions = 0
    _lock_club(cid)
    PlayerContract.objects.filter(club_id=cid).delete()
    PlayerSession.objects.filter(club_id=cid).delete()
    Rating.objects.filter(club_id=cid).delete()
    closed = Session.objects.filter(club_id=cid, status=Session.Status.CLOSED, closed_at__isnull=False)
    ids = list(closed.order_by("pk").values_list("pk", flat=True))
    for i in range(0, len(ids), BATCH):
        batch = list(
            Session.objects.filter(pk__in=ids[i : i + BATCH]).only(
                "pk", "club_id", "variant", "status", "closing", "closed_at"
            )
        )
        _write_session_rows([s for s in batch if _is_closed(s)])
        sessions += len(batch)
    _write_months(cid)
    return sessions, _replay_ratings(cid, None, set())
