"""Reads of the statistics (`stats.md`): a player's figures, his rating history, a club's leaderboard.

Scoping is the ledger's: what a user sees comes from club membership only (superusers are no
exception); another club's player or club is `NotFound`. Every figure is an aggregate over the small
per-session rows of `ledger.stats.models`, filtered by indexed columns; no hand is read here.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db.models import Count, F, Q, QuerySet, Sum, Window
from django.db.models.functions import RowNumber
from django.utils import timezone

from ledger import zones
from ledger.engine.variants import get_variant, variant_names
from ledger.exceptions import InvalidRequest, NotFound
from ledger.models import Player
from ledger.selectors import Reader, club_role, club_time_zone

from .figures import ROLES
from .models import (
    ROLLUP_ZONE,
    PlayerContract,
    PlayerMonth,
    PlayerMonthContract,
    PlayerSession,
    Rating,
    RatingEntry,
)

SUCCESS_MIN_CONTRACTS = 20  # `by=success`: only players with at least this many contracts as bidder
PERIODS = ("month", "year", "all")
BOARDS = ("money", "rating", "success")


@dataclass(frozen=True)
class Filters:
    """`variant`, `date_from`, `date_to` (the session's closing date, both included)."""

    variant: str | None = None
    date_from: dt.date | None = None
    date_to: dt.date | None = None

    def bounds(self) -> tuple[dt.datetime | None, dt.datetime | None]:
        """[start, end) in the current time zone."""
        start = _midnight(self.date_from) if self.date_from else None
        end = _midnight(self.date_to + dt.timedelta(days=1)) if self.date_to else None
        return start, end


def _midnight(day: dt.date) -> dt.datetime:
    return timezone.make_aware(dt.datetime.combine(day, dt.time.min), timezone.get_current_timezone())


def _bounds(
    filters: Filters, start: dt.datetime | None = None, end: dt.datetime | None = None
) -> tuple[dt.datetime | None, dt.datetime | None]:
    """The filters' [lower, upper) within a period's [start, end)."""
    lower, upper = filters.bounds()
    if start is not None:
        lower = start if lower is None else max(lower, start)
    if end is not None:
        upper = end if upper is None else min(upper, end)
    return lower, upper


def _filtered(qs: QuerySet, filters: Filters, start: dt.datetime | None = None, end: dt.datetime | None = None) -> Any:
    lower, upper = _bounds(filters, start, end)
    return _within(qs.filter(variant=filters.variant) if filters.variant else qs, lower, upper)


def _within(qs: QuerySet, lower: dt.datetime | None, upper: dt.datetime | None) -> Any:
    if lower is not None:
        qs = qs.filter(closed_at__gte=lower)
    if upper is not None:
        qs = qs.filter(closed_at__lt=upper)
    return qs


def _month_start(when: dt.datetime, *, up: bool) -> dt.datetime:
    """The start of the UTC month of `when`, as the monthly rows count months (up: of the first month
    starting at or after it)."""
    local = when.astimezone(ROLLUP_ZONE)
    first = local.date().replace(day=1)
    if up and local != dt.datetime.combine(first, dt.time.min, ROLLUP_ZONE):
        if first.year == dt.MAXYEAR:
            return when
        first = dt.date(first.year + (first.month == 12), first.month % 12 + 1, 1)
    return dt.datetime.combine(first, dt.time.min, ROLLUP_ZONE)


Span = tuple[dt.datetime | None, dt.datetime | None]


def _split(lower: dt.datetime | None, upper: dt.datetime | None) -> tuple[Span | None, list[Span]]:
    """[lower, upper) as the whole calendar months in it (summed from the monthly rows) and the days
    left at either end (summed from the session rows)."""
    first = _month_start(lower, up=True) if lower is not None else None
    last = _month_start(upper, up=False) if upper is not None else None
    if first is not None and last is not None and first >= last:
        return None, [(lower, upper)]
    edges: list[Span] = []
    if lower is not None and first != lower:
        edges.append((lower, first))
    if upper is not None and last != upper:
        edges.append((last, upper))
    return (first, last), edges


def _sums(
    *,
    months: QuerySet,
    rows: QuerySet,
    keys: tuple[str, ...],
    sums: dict[str, tuple[Any, Any]],
    lower: dt.datetime | None,
    upper: dt.datetime | None,
) -> dict[tuple[Any, ...], dict[str, int]]:
    """`sums` (name -> (aggregate over the monthly rows, aggregate over the session rows)) grouped by
    `keys` over [lower, upper): whole months from `months`, the days at either end from `rows`.
    A currency "" in the monthly rows is None, as in the session rows."""
    span, edges = _split(lower, upper)
    parts = []
    if span is not None:
        first, last = span
        qs = months
        if first is not None:
            qs = qs.filter(month__gte=first.astimezone(ROLLUP_ZONE).date())
        if last is not None:
            qs = qs.filter(month__lt=last.astimezone(ROLLUP_ZONE).date())
        parts.append(qs.values(*keys).annotate(**{name: pair[0] for name, pair in sums.items()}).order_by())
    for edge_lower, edge_upper in edges:
        qs = _within(rows, edge_lower, edge_upper)
        parts.append(qs.values(*keys).annotate(**{name: pair[1] for name, pair in sums.items()}).order_by())
    out: dict[tuple[Any, ...], dict[str, int]] = {}
    for part in parts:
        for r in part:
            key = tuple((r[k] or None) if k == "currency" else r[k] for k in keys)
            total = out.setdefault(key, dict.fromkeys(sums, 0))
            for name in sums:
                total[name] += r[name] or 0
    return out


# Table law (issue 42): each event's count and its rate per deal played (`rate`, as a contract's).
TABLE_LAW = ("revokes", "misdeals", "concessions")


def rate(made: int, played: int) -> float:
    """made / played rounded to 4 decimals (Python's `round`); 0.0 when nothing was played."""
    return round(made / played, 4) if played else 0.0


# --- a player --------------------------------------------------------------------------------------


def stats_player_get(*, user: Reader, player_id: int) -> Player:
    """The player if the user is a member of his club; another club's player is `NotFound`."""
    player = Player.objects.filter(pk=player_id).first()
    if player is None:
        raise NotFound("no such player")
    try:
        club_role(user=user, club_id=player.club_id)
    except NotFound:
        raise NotFound("no such player") from None
    return player


def rating_json(rating: Rating | None) -> dict[str, Any] | None:
    if rating is None:
        return None
    return {
        "mu": rating.mu,
        "sigma": rating.sigma,
        "ordinal": rating.ordinal,
        "sessions": rating.sessions,
        "ranked": rating.sessions >= settings.RATING_MIN_SESSIONS,
    }


def _streak(rows: QuerySet[PlayerSession]) -> dict[str, Any]:
    """The current run over sessions in closing order: wins (final > 0) or losses (< 0); 0 ends any run."""
    ordered = rows.order_by("-closed_at", "-session_id").values_list("counters", flat=True)
    kind: str | None = None
    length = 0
    offset, size = 0, 16
    while True:
        chunk = list(ordered[offset : offset + size])
        for counters in chunk:
            this = "win" if counters > 0 else "loss" if counters < 0 else None
            if kind is None and length == 0:
                if this is None:
                    return {"kind": None, "length": 0}
                kind = this
            if this != kind:
                return {"kind": kind, "length": length}
            length += 1
        if len(chunk) < size:
            return {"kind": kind, "length": length}
        offset += size
        size = min(size * 4, 4096)


def _best_and_worst(rows: QuerySet[PlayerSession]) -> dict[str, list[dict[str, int]]]:
    """Per variant, the sessions with the highest and the lowest counters (the earliest closed wins a tie)."""
    order = ("closed_at", "session_id")
    ranked = rows.annotate(
        best=Window(RowNumber(), partition_by=F("variant"), order_by=[F("counters").desc(), *order]),
        worst=Window(RowNumber(), partition_by=F("variant"), order_by=[F("counters").asc(), *order]),
    ).filter(Q(best=1) | Q(worst=1))
    out: dict[str, list[dict[str, int]]] = {}
    for variant, session_id, counters, best, worst in ranked.values_list(
        "variant", "session_id", "counters", "best", "worst"
    ):
        pair = out.setdefault(variant, [{}, {}])
        row = {"id": session_id, "counters": counters}
        if best == 1:
            pair[0] = row
        if worst == 1:
            pair[1] = row
    return out


def _variant_order(name: str) -> int:
    names = variant_names()
    return names.index(name) if name in names else len(names)


def player_stats(*, user: Reader, player_id: int, filters: Filters = Filters()) -> dict[str, Any]:
    """Everything `stats.md` lists for one player, over his closed sessions that pass the filters (their
    days are the club's calendar days, as the leaderboard's: the API runs in UTC)."""
    player = stats_player_get(user=user, player_id=player_id)
    with timezone.override(zones.club_zone(club_time_zone(player.club_id))):
        rows = _filtered(PlayerSession.objects.filter(player_id=player.pk), filters)
        lower, upper = filters.bounds()
    mine = {"player_id": player.pk} | ({"variant": filters.variant} if filters.variant else {})
    by_currency = _sums(
        months=PlayerMonth.objects.filter(**mine),
        rows=PlayerSession.objects.filter(**mine),
        keys=("variant", "currency"),
        sums={
            "sessions": (Sum("sessions"), Count("id")),
            "deals": (Sum("deals"), Sum("deals")),
            "counters": (Sum("counters"), Sum("counters")),
            "money": (Sum("money"), Sum("money")),
            "pools_won": (Sum("pools_won"), Sum("pools_won")),
            "pools_won_counters": (Sum("pools_won_counters"), Sum("pools_won_counters")),
            "mp_played": (Sum("misere_partout_played"), Sum("misere_partout_played")),
            "mp_lost": (Sum("misere_partout_lost"), Sum("misere_partout_lost")),
            **{event: (Sum(event), Sum(event)) for event in TABLE_LAW},
        },
        lower=lower,
        upper=upper,
    )
    per_variant: dict[str, dict[str, int]] = {}
    money: dict[str, int] = {}
    for (variant, currency), total in sorted(by_currency.items(), key=lambda kv: (kv[0][0], kv[0][1] or "")):
        if not total["sessions"]:
            continue
        into = per_variant.setdefault(variant, dict.fromkeys(total, 0))
        for name, value in total.items():
            into[name] += value
        if currency is not None:
            money[currency] = money.get(currency, 0) + total["money"]
    contract_sums = _sums(
        months=PlayerMonthContract.objects.filter(**mine),
        rows=PlayerContract.objects.filter(**mine),
        keys=("variant", "bid", "role"),
        sums={field: (Sum(field), Sum(field)) for field in ("played", "made", "overtricks", "shortfall")},
        lower=lower,
        upper=upper,
    )
    contracts: dict[str, list[dict[str, Any]]] = {}
    for (variant, bid, role), total in contract_sums.items():
        if not total["played"]:
            continue
        contracts.setdefault(variant, []).append(
            {
                "bid": bid,
                "role": role,
                "played": total["played"],
                "made": total["made"],
                "rate": rate(total["made"], total["played"]),
                "overtricks": total["overtricks"],
                "shortfall": total["shortfall"],
            }
        )
    extremes = _best_and_worst(rows)
    variants: dict[str, Any] = {}
    for name in sorted(per_variant, key=_variant_order):
        v = per_variant[name]
        best, worst = extremes[name]
        declaration = get_variant(name).declaration if name in variant_names() else None
        bids = declaration.codes if declaration else ()
        misere_partout = declaration is not None and declaration.misere_partout
        order = {bid: i for i, bid in enumerate(bids)}
        variants[name] = {
            "sessions": v["sessions"],
            "deals": v["deals"],
            "counters": v["counters"],
            "best_session": best,
            "worst_session": worst,
            "pools_won": {"count": v["pools_won"], "counters": v["pools_won_counters"]},
            "misere_partout": ({"played": v["mp_played"], "lost": v["mp_lost"]} if misere_partout else None),
            "table_law": {event: {"count": v[event], "rate": rate(v[event], v["deals"])} for event in TABLE_LAW},
            "contracts": sorted(
                contracts.get(name, []),
                key=lambda c: (order.get(c["bid"], len(order)), c["bid"], ROLES.index(c["role"])),
            ),
        }
    return {
        "player": {"id": player.pk, "name": player.name, "club": player.club_id},
        "sessions": sum(v["sessions"] for v in per_variant.values()),
        "deals": sum(v["deals"] for v in per_variant.values()),
        "money": money,
        "variants": variants,
        "streak": _streak(rows),
        "rating": rating_json(Rating.objects.filter(player_id=player.pk).first()),
    }


def player_ratings(
    *, user: Reader, player_id: int, filters: Filters = Filters()
) -> tuple[Player, QuerySet[RatingEntry]]:
    """The player's rating after each of his closed sessions, in closing order (the filters' days are
    the club's)."""
    player = stats_player_get(user=user, player_id=player_id)
    with timezone.override(zones.club_zone(club_time_zone(player.club_id))):
        entries = _filtered(RatingEntry.objects.filter(player_id=player.pk), filters)
    return player, entries.order_by("closed_at", "session_id")


# --- a club's leaderboard --------------------------------------------------------------------------


def period_bounds(
    period: str, *, month: tuple[int, int] | None = None, year: int | None = None
) -> tuple[dt.datetime | None, dt.datetime | None, str | None]:
    """[start, end) of a period and its label ("2024-05", "2024", or None for all)."""
    today = timezone.localdate()
    if period == "month":
        y, m = month if month is not None else (today.year, today.month)
        start = dt.date(y, m, 1)
        end = dt.date(y + (m == 12), m % 12 + 1, 1)
        return _midnight(start), _midnight(end), f"{y:04d}-{m:02d}"
    if period == "year":
        y = year if year is not None else today.year
        end_of = _midnight(dt.date(y + 1, 1, 1)) if y < dt.MAXYEAR else None
        return _midnight(dt.date(y, 1, 1)), end_of, f"{y:04d}"
    return None, None, None


def _ranked(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Highest value first; ties share a rank (1, 2, 2, 4) and are ordered by name, then id."""
    rows.sort(key=lambda r: (-r["value"], r["player"]["name"], r["player"]["id"]))
    out: list[dict[str, Any]] = []
    for i, row in enumerate(rows):
        rank = out[-1]["rank"] if out and out[-1]["value"] == row["value"] else i + 1
        out.append({"rank": rank, **row})
    return out


def leaderboard(
    *,
    user: Reader,
    club_id: int,
    by: str = "rating",
    period: str = "all",
    month: tuple[int, int] | None = None,
    year: int | None = None,
    currency: str | None = None,
    filters: Filters = Filters(),
) -> dict[str, Any]:
    """The club's ranking (`stats.md`, "Leaderboard"). A month, a year and the filters' days are the
    club's calendar days (its `time_zone`), whatever zone the caller runs in: the API runs in UTC."""
    club_role(user=user, club_id=club_id)
    time_zone = club_time_zone(club_id)
    with timezone.override(zones.club_zone(time_zone)):
        start, end, label = period_bounds(period, month=month, year=year)
        lower, upper = _bounds(filters, start, end)
    restricted = lower is not None or upper is not None or filters.variant is not None
    scope = {"club_id": club_id} | ({"variant": filters.variant} if filters.variant else {})

    def per_player(keys: tuple[str, ...], **sums: tuple[Any, Any]) -> dict[tuple[Any, ...], dict[str, int]]:
        found = _sums(
            months=PlayerMonth.objects.filter(**scope),
            rows=PlayerSession.objects.filter(**scope),
            keys=keys,
            sums={"sessions": (Sum("sessions"), Count("id")), **sums},
            lower=lower,
            upper=upper,
        )
        return {key: total for key, total in found.items() if total["sessions"]}

    out: dict[str, Any] = {"period": period, "by": by, "time_zone": time_zone}
    if label is not None:
        out[period] = label
    board: list[dict[str, Any]] = []
    if by == "money":
        totals = per_player(("player_id", "currency"), money=(Sum("money"), Sum("money")))
        currencies = sorted({currency for _player, currency in totals if currency is not None})
        if currency is None:
            if len(currencies) > 1:
                raise InvalidRequest.field(
                    "currency",
                    "the club has sessions in several currencies in this period: choose one with `currency` ("
                    + ", ".join(currencies)
                    + ")",
                )
            currency = currencies[0] if currencies else None
        out["currency"] = currency
        board = [
            {"player_id": player_id, "value": total["money"], "sessions": total["sessions"]}
            for (player_id, cur), total in totals.items()
            if currency is not None and cur == currency
        ]
    elif by == "success":
        totals = per_player(
            ("player_id",),
            played=(Sum("bidder_played"), Sum("bidder_played")),
            made=(Sum("bidder_made"), Sum("bidder_made")),
        )
        board = [
            {
                "player_id": player_id,
                "value": rate(total["made"], total["played"]),
                "sessions": total["sessions"],
                "played": total["played"],
                "made": total["made"],
            }
            for (player_id,), total in totals.items()
            if total["played"] >= SUCCESS_MIN_CONTRACTS
        ]
    else:
        current = Rating.objects.filter(club_id=club_id, sessions__gte=settings.RATING_MIN_SESSIONS)
        counts = (
            {key[0]: total["sessions"] for key, total in per_player(("player_id",)).items()} if restricted else None
        )
        if counts is not None:
            current = current.filter(player_id__in=list(counts))
        board = [
            {
                "player_id": r.player_id,
                "value": r.ordinal,
                "sessions": counts[r.player_id] if counts is not None else r.sessions,
                "mu": r.mu,
                "sigma": r.sigma,
            }
            for r in current
        ]
    names = dict(Player.objects.filter(pk__in=[r["player_id"] for r in board]).values_list("pk", "name"))
    for row in board:
        player_id = row.pop("player_id")
        row["player"] = {"id": player_id, "name": names[player_id]}
    out["rows"] = _ranked(board)
    return out
