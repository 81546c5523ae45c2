"""A club's seasons (issue 41): named periods with qualifying rules, and their standings.

An **evening** is one closed session a player sat in (as a score sheet's import dates it: its closing
day). A season counts the evenings closed on its days (the club's calendar days, both ends included) of
the variants it names. Each evening has one **result**, the season's measure:

- `counters`: the player's counters at the close (`close.final`, stats.md's `counters`). Counters of
  different variants are different units (stats.md), so a season by counters counts one variant.
- `money`: the player's money at the close (`close.money`) in the season's currency, in minor units;
  an evening without a stake or in another currency is not one of the season's.

A player's line: the evenings he played; his best `best_of` of them count (the highest results; the
earlier closed first among equal ones), the others are dropped; `sum` is the counted results' sum; with
a handicap, `handicap` (for each counted evening) is `handicap_percent` % of his average result of the
previous season, sign turned, rounded half away from zero; `total` = `sum` + `handicap` x counted. He
qualifies with at least `min_evenings` evenings. Qualified players are ranked by `total` (ties share a
place, 1, 2, 2, 4, ordered by name); the others follow without a place.

Every figure comes from the statistics' `PlayerSession` rows (a projection of the hands). A season's
table is computed at each read until it is stored: when it has ended (the first read after its last
day stores it), or on demand (treasurers). A stored table is shown as it was; when one of its evenings
changes (a sheet of its days imported, a session reopened, amended and closed again) or its rules are
edited, it is computed again and stored with a `SeasonNote` saying what changed, never silently.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.db.models import QuerySet
from django.utils import timezone

from ledger import zones
from ledger.engine.variants import variant_names
from ledger.exceptions import InvalidRequest, NotFound, VersionMismatch
from ledger.models import Club, Player, Role, Session
from ledger.selectors import Reader, club_role

from .models import PlayerSession, Season, SeasonNote

NAME_MAX = 100
EVENINGS_MAX = 366  # a rule's number of evenings: at most one a day for a year
FIRST_YEAR, LAST_YEAR = 1000, 9998  # as the statistics' dates (no zone takes a day past datetime's range)
CURRENCY = re.compile(r"^[A-Z]{3}$")


# --- the rules -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Rules:
    """A season's rules, checked: what a create or an edit writes."""

    name: str
    starts_on: dt.date
    ends_on: dt.date
    variants: tuple[str, ...]
    measure: str
    currency: str
    min_evenings: int
    best_of: int | None
    handicap_percent: int


def _date(value: Any, field: str) -> dt.date:
    if isinstance(value, dt.date) and not isinstance(value, dt.datetime):
        day = value
    else:
        try:
            day = dt.date.fromisoformat(str(value))
        except ValueError:
            raise InvalidRequest.field(field, "a date is written YYYY-MM-DD") from None
    if not FIRST_YEAR <= day.year <= LAST_YEAR:
        raise InvalidRequest.field(field, f"a season's dates lie in the years {FIRST_YEAR} to {LAST_YEAR}")
    return day


def _count(value: Any, field: str, *, low: int, high: int, none: bool = False) -> int | None:
    if value is None and none:
        return None
    if type(value) is not int or not low <= value <= high:
        raise InvalidRequest.field(field, f"`{field}` is a whole number from {low} to {high}")
    return value


def season_rules(
    *,
    name: Any,
    starts_on: Any,
    ends_on: Any,
    variants: Any,
    measure: Any = Season.Measure.COUNTERS,
    currency: Any = "",
    min_evenings: Any = 0,
    best_of: Any = None,
    handicap_percent: Any = 0,
) -> Rules:
    """The rules as given, checked field by field (InvalidRequest naming the field and the rule)."""
    if not isinstance(name, str) or not " ".join(name.split()):
        raise InvalidRequest.field("name", "a season needs a name")
    name = " ".join(name.split())
    if len(name) > NAME_MAX:
        raise InvalidRequest.field("name", f"a name has at most {NAME_MAX} characters")
    start, end = _date(starts_on, "starts_on"), _date(ends_on, "ends_on")
    if end < start:
        raise InvalidRequest.field("ends_on", "a season ends on or after the day it starts")
    known = variant_names()
    if (
        not isinstance(variants, list | tuple)
        or not variants
        or any(v not in known for v in variants)
        or len(set(variants)) != len(variants)
    ):
        raise InvalidRequest.field("variants", "name the variants the season counts, each once")
    if measure not in Season.Measure.values:
        raise InvalidRequest.field("measure", "a season is measured by counters or by money")
    if measure == Season.Measure.COUNTERS:
        if len(variants) != 1:
            raise InvalidRequest.field(
                "variants",
                "counters of different variants are different units: a season by counters counts one variant",
            )
        currency = ""
    elif not isinstance(currency, str) or not CURRENCY.match(currency):
        raise InvalidRequest.field("currency", "a season by money names its currency (three capital letters)")
    return Rules(
        name=name,
        starts_on=start,
        ends_on=end,
        variants=tuple(sorted(variants, key=known.index)),
        measure=str(measure),
        currency=currency,
        min_evenings=_count(min_evenings, "min_evenings", low=0, high=EVENINGS_MAX) or 0,
        best_of=_count(best_of, "best_of", low=1, high=EVENINGS_MAX, none=True),
        handicap_percent=_count(handicap_percent, "handicap_percent", low=0, high=100) or 0,
    )


def _apply(season: Season, rules: Rules) -> None:
    season.name = rules.name
    season.starts_on, season.ends_on = rules.starts_on, rules.ends_on
    season.variants = list(rules.variants)
    season.measure, season.currency = rules.measure, rules.currency
    season.min_evenings, season.best_of = rules.min_evenings, rules.best_of
    season.handicap_percent = rules.handicap_percent


def _same_rules(season: Season, rules: Rules) -> bool:
    return (
        season.starts_on,
        season.ends_on,
        list(season.variants),
        season.measure,
        season.currency,
        season.min_evenings,
        season.best_of,
        season.handicap_percent,
    ) == (
        rules.starts_on,
        rules.ends_on,
        list(rules.variants),
        rules.measure,
        rules.currency,
        rules.min_evenings,
        rules.best_of,
        rules.handicap_percent,
    )


# --- the table -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Evening:
    session: int
    closed_at: dt.datetime
    day: dt.date
    value: int


def _days(season: Season, zone: dt.tzinfo) -> tuple[dt.datetime, dt.datetime]:
    """[first midnight, the midnight after the last day) in the club's zone."""
    lower = timezone.make_aware(dt.datetime.combine(season.starts_on, dt.time.min), zone)
    upper = timezone.make_aware(dt.datetime.combine(season.ends_on + dt.timedelta(days=1), dt.time.min), zone)
    return lower, upper


def season_evenings(season: Season) -> dict[int, list[Evening]]:
    """Each player's evenings of the season, by player id, in closing order."""
    zone = zones.club_zone(Club.objects.values_list("time_zone", flat=True).get(pk=season.club_id))
    lower, upper = _days(season, zone)
    rows = PlayerSession.objects.filter(
        club_id=season.club_id, variant__in=list(season.variants), closed_at__gte=lower, closed_at__lt=upper
    )
    field = "counters"
    if season.measure == Season.Measure.MONEY:
        rows, field = rows.filter(currency=season.currency), "money"
    out: dict[int, list[Evening]] = {}
    for player_id, session_id, closed_at, value in rows.order_by("closed_at", "session_id").values_list(
        "player_id", "session_id", "closed_at", field
    ):
        out.setdefault(player_id, []).append(Evening(session_id, closed_at, closed_at.astimezone(zone).date(), value))
    return out


def round_half_away(value: Fraction) -> int:
    """The nearest whole number, a half away from zero (-2.5 -> -3, 2.5 -> 3)."""
    whole = int(abs(value) + Fraction(1, 2))
    return whole if value >= 0 else -whole


def table(
    season: Season, evenings: dict[int, list[Evening]], names: dict[int, str], handicaps: dict[int, int]
) -> list[dict[str, Any]]:
    """The season's lines (the module's docstring says how), ranked."""
    lines: list[dict[str, Any]] = []
    for player_id, played in evenings.items():
        best = sorted(played, key=lambda e: (-e.value, e.closed_at, e.session))
        counted = best if season.best_of is None else best[: season.best_of]
        counting = {e.session for e in counted}
        total_counted = sum(e.value for e in counted)
        handicap = handicaps.get(player_id, 0)
        lines.append(
            {
                "player": {"id": player_id, "name": names.get(player_id, "")},
                "played": len(played),
                "counted": len(counted),
                "qualified": len(played) >= season.min_evenings,
                "sum": total_counted,
                "handicap": handicap,
                "total": total_counted + handicap * len(counted),
                "evenings": [
                    {"session": e.session, "date": e.day.isoformat(), "value": e.value, "counts": e.session in counting}
                    for e in played
                ],
            }
        )
    lines.sort(key=lambda r: (not r["qualified"], -r["total"], r["player"]["name"], r["player"]["id"]))
    previous: dict[str, Any] | None = None
    for i, line in enumerate(lines):
        if not line["qualified"]:
            line["rank"] = None
        elif previous is not None and previous["total"] == line["total"]:
            line["rank"] = previous["rank"]
        else:
            line["rank"] = i + 1
        previous = line
    return lines


def previous_season(season: Season) -> Season | None:
    """The club's season that ended last before this one starts (the latest start, then the newest)."""
    return (
        Season.objects.filter(club_id=season.club_id, ends_on__lt=season.starts_on)
        .exclude(pk=season.pk)
        .order_by("-ends_on", "-starts_on", "-id")
        .first()
    )


def handicap_source(season: Season) -> tuple[Season | None, str]:
    """The season the handicap is taken from, and why none is ("" when there is one, or none is asked):
    `none_before` (no earlier season) or `other_measure` (it measured another thing)."""
    if not season.handicap_percent:
        return None, ""
    before = previous_season(season)
    if before is None:
        return None, "none_before"
    same = before.measure == season.measure and (
        before.currency == season.currency
        if season.measure == Season.Measure.MONEY
        else list(before.variants) == list(season.variants)
    )
    return (before, "") if same else (None, "other_measure")


def _handicaps(season: Season) -> dict[int, int]:
    before, _why = handicap_source(season)
    if before is None:
        return {}
    lines = before.standings["lines"] if before.standings else _lines(before, handicaps={})
    out = {}
    for line in lines:
        played = [e["value"] for e in line["evenings"]]
        if played:
            average = Fraction(sum(played), len(played))
            out[line["player"]["id"]] = -round_half_away(average * season.handicap_percent / 100)
    return out


def _lines(season: Season, handicaps: dict[int, int] | None = None) -> list[dict[str, Any]]:
    evenings = season_evenings(season)
    names = dict(Player.objects.filter(pk__in=list(evenings)).values_list("pk", "name"))
    return table(season, evenings, names, _handicaps(season) if handicaps is None else handicaps)


def standings_json(season: Season) -> dict[str, Any]:
    """The season's table computed now from the statistics' rows (not stored)."""
    return {"version": season.version, "computed_at": timezone.now().isoformat(), "lines": _lines(season)}


# --- reads -----------------------------------------------------------------------------------------


def season_list(*, user: Reader, club_id: int) -> QuerySet[Season]:
    """The club's seasons, the newest first (members)."""
    club_role(user=user, club_id=club_id)
    return Season.objects.filter(club_id=club_id).order_by("-starts_on", "-id")


def season_get(*, user: Reader, club_id: int, season_id: int, role: str = Role.PLAYER) -> Season:
    club_role(user=user, club_id=club_id, role=role)
    found = Season.objects.filter(pk=season_id, club_id=club_id).first()
    if found is None:
        raise NotFound("no such season in this club")
    return found


def club_today(club_id: int) -> dt.date:
    zone = Club.objects.values_list("time_zone", flat=True).get(pk=club_id)
    return zones.local(timezone.now(), zone).date()


def season_ended(season: Season) -> bool:
    return club_today(season.club_id) > season.ends_on


@dataclass(frozen=True)
class Standings:
    """A season's table: `lines` (ranked), whether it is the stored one, and the notes of its changes."""

    season: Season
    lines: list[dict[str, Any]]
    computed_at: str
    stored: bool
    ended: bool
    notes: list[SeasonNote]


def season_standings(*, user: Reader, club_id: int, season_id: int) -> Standings:
    """The season's standings (members): the stored table, or the one computed now. The first read of
    an ended season that has none stores it (as it stands on the day after its end)."""
    season = season_get(user=user, club_id=club_id, season_id=season_id)
    ended = season_ended(season)
    if season.standings is None and ended:
        season = _store(season.pk, reason="")
    data = season.standings if season.standings is not None else standings_json(season)
    return Standings(
        season=season,
        lines=data["lines"],
        computed_at=data["computed_at"],
        stored=season.standings is not None,
        ended=ended,
        notes=list(season.notes.all()),
    )


def current_season(club_id: int, on_date: dt.date) -> Season | None:
    """The club's season on that day: of those whose days hold it, the latest started (then the newest)."""
    return (
        Season.objects.filter(club_id=club_id, starts_on__lte=on_date, ends_on__gte=on_date)
        .order_by("-starts_on", "-id")
        .first()
    )


def season_place(club: Club | int, player: Player | int, on_date: dt.date) -> tuple[Season, int | None] | None:
    """The player's place in the club's season of `on_date` (for the evening's mail): None when the
    club has no season that day; else (season, rank), the rank None when he has not qualified (or has
    no evening in it). No role is checked: the caller writes to the player himself."""
    club_id = club if isinstance(club, int) else club.pk
    player_id = player if isinstance(player, int) else player.pk
    season = current_season(club_id, on_date)
    if season is None:
        return None
    lines = season.standings["lines"] if season.standings is not None else _lines(season)
    rank = next((line["rank"] for line in lines if line["player"]["id"] == player_id), None)
    return season, rank


# --- writes ----------------------------------------------------------------------------------------


def season_create(*, actor: User, club_id: int, **given: Any) -> Season:
    """A new season of the club (treasurers and admins). Who asks is checked before what he asks: a
    player or a stranger learns nothing of the rules from a refusal of his fields."""
    club_role(user=actor, club_id=club_id, role=Role.TREASURER)
    rules = season_rules(**given)
    try:
        with transaction.atomic(durable=True):
            club_role(user=actor, club_id=club_id, role=Role.TREASURER)
            Club.objects.select_for_update().filter(pk=club_id).first()  # names: one writer at a time
            if Season.objects.filter(club_id=club_id, name=rules.name).exists():
                raise InvalidRequest.field("name", "the club already has a season of this name")
            season = Season(club_id=club_id)
            _apply(season, rules)
            season.save()
    except IntegrityError:  # a concurrent create of the same name
        raise InvalidRequest.field("name", "the club already has a season of this name") from None
    return season


def season_update(*, actor: User, club_id: int, season_id: int, expected_version: int | None, **given: Any) -> Season:
    """Edit a season (treasurers and admins) seen at `expected_version` (another: VersionMismatch). A
    stored table whose rules changed is computed again, with a note of what changed. Who asks is checked
    before what he asks (as in `season_create`)."""
    club_role(user=actor, club_id=club_id, role=Role.TREASURER)
    rules = season_rules(**given)
    try:
        with transaction.atomic(durable=True):
            club_role(user=actor, club_id=club_id, role=Role.TREASURER)
            Club.objects.select_for_update().filter(pk=club_id).first()
            season = Season.objects.select_for_update().filter(pk=season_id, club_id=club_id).first()
            if season is None:
                raise NotFound("no such season in this club")
            if expected_version != season.version:
                raise VersionMismatch(f"the season is at version {season.version}, not {expected_version}")
            if Season.objects.filter(club_id=club_id, name=rules.name).exclude(pk=season.pk).exists():
                raise InvalidRequest.field("name", "the club already has a season of this name")
            changed = not _same_rules(season, rules)
            if not changed and rules.name == season.name:
                return season
            _apply(season, rules)
            season.version += 1
            season.updated_at = timezone.now()
            season.save()
            if changed and season.standings is not None:
                _restore_and_follow(season, reason="rules")
    except IntegrityError:
        raise InvalidRequest.field("name", "the club already has a season of this name") from None
    return season


def season_store(*, actor: User, club_id: int, season_id: int) -> Season:
    """Store the season's table as it stands now (treasurers and admins); a stored one is computed
    again, with a note when it changed."""
    season_get(user=actor, club_id=club_id, season_id=season_id, role=Role.TREASURER)
    return _store(season_id, reason="recompute")


def _store(season_id: int, *, reason: str) -> Season:
    with transaction.atomic(durable=True):
        season = Season.objects.select_for_update().get(pk=season_id)
        if season.standings is None:
            season.standings = standings_json(season)
            season.stored_at = timezone.now()
            season.save(update_fields=["standings", "stored_at"])
        else:
            _restore_and_follow(season, reason=reason)
    return season


def _line_key(line: dict[str, Any]) -> tuple[Any, ...]:
    return (line["rank"], line["total"], line["played"], line["counted"], line["qualified"], line["handicap"])


def _restore_and_follow(season: Season, *, reason: str) -> None:
    """`_restore`, then, when the table changed, the stored seasons whose handicap comes from it (reason
    `handicap`), and theirs in turn: a handicap is part of a stored table, so it changes with a note too."""
    if not _restore(season, reason=reason):
        return
    later = Season.objects.select_for_update().filter(
        club_id=season.club_id, standings__isnull=False, handicap_percent__gt=0, starts_on__gt=season.ends_on
    )
    for follower in later.order_by("starts_on", "id"):
        source, _why = handicap_source(follower)
        if source is not None and source.pk == season.pk:
            _restore_and_follow(follower, reason="handicap")


def _restore(season: Season, *, reason: str) -> bool:
    """Inside the caller's transaction, the season row locked: compute its stored table again; when it
    came out different, store it with a note of what changed. True when it changed."""
    before = season.standings or {"lines": []}
    after = standings_json(season)
    if [(_line_key(a), a["evenings"]) for a in after["lines"]] == [
        (_line_key(b), b["evenings"]) for b in before["lines"]
    ]:
        return False
    old = {line["player"]["id"]: line for line in before["lines"]}
    new = {line["player"]["id"]: line for line in after["lines"]}
    players = []
    for player_id in sorted(set(old) | set(new), key=lambda p: (new.get(p) or old[p])["player"]["name"]):
        was, now = old.get(player_id), new.get(player_id)
        if was is None or now is None or _line_key(was) != _line_key(now):
            players.append(
                {
                    "player": (now or was or {})["player"],
                    "before": _brief(was),
                    "after": _brief(now),
                }
            )
    values_before = _values(before["lines"])
    values_after = _values(after["lines"])
    sessions_before = {session for _player, session in values_before}
    sessions_after = {session for _player, session in values_after}
    SeasonNote.objects.create(
        season=season,
        reason=reason or "recompute",
        changes={
            "players": players,
            "sessions_added": sorted(sessions_after - sessions_before),
            "sessions_removed": sorted(sessions_before - sessions_after),
            "evenings_changed": sorted(
                {
                    session
                    for (_player, session), value in values_after.items()
                    if values_before.get((_player, session), value) != value
                }
            ),
        },
    )
    season.standings = after
    season.stored_at = timezone.now()
    season.save(update_fields=["standings", "stored_at"])
    return True


def _values(lines: list[dict[str, Any]]) -> dict[tuple[int, int], int]:
    """Each (player, session) evening's result."""
    return {(line["player"]["id"], e["session"]): e["value"] for line in lines for e in line["evenings"]}


def _brief(line: dict[str, Any] | None) -> dict[str, Any] | None:
    if line is None:
        return None
    return {k: line[k] for k in ("rank", "total", "played", "counted", "qualified")}


def seasons_session_refresh(*, session_id: int) -> None:
    """The seasons' receiver of `session_changed` (after the statistics' rows are refreshed): every
    stored season of the session's club that held the session, or whose days hold its closing day, is
    computed again; one that changed keeps a note (reason `evening`). Idempotent."""
    found = Session.objects.filter(pk=session_id).values_list("club_id", "closed_at", "status").first()
    if found is None:
        return
    club_id, closed_at, status = found
    stored = Season.objects.filter(club_id=club_id, standings__isnull=False)
    if not stored.exists():
        return
    day = None
    if status == Session.Status.CLOSED and closed_at is not None:
        zone = Club.objects.values_list("time_zone", flat=True).get(pk=club_id)
        day = zones.local(closed_at, zone).date()
    for season in stored.order_by("starts_on", "id"):
        stored_lines = (season.standings or {}).get("lines", [])
        held = any(e["session"] == session_id for line in stored_lines for e in line["evenings"])
        if held or (day is not None and season.starts_on <= day <= season.ends_on):
            with transaction.atomic(durable=True):
                locked = Season.objects.select_for_update().get(pk=season.pk)
                _restore_and_follow(locked, reason="evening")
