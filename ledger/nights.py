"""The club night (issue 37): a night of a club on a date of its time zone, who checked in (arrival order),
the tables drawn from them (each a session opened, its seat links ready) and who waits.

Writes here are one `transaction.atomic(durable=True)` each, as `ledger.services`; they reuse its
player and session creation (`player_add`, `session_add`, `seat_link_add`), so a guest's name obeys
the club's name rules and a table's session is opened exactly as any other. The room's settlement is
read by `ledger.money.selectors.night_settlement` (the money ledger's, since a payment is tied to it).

Roles: a member checks himself in; a scorer checks in anyone and adds a guest; the treasurer (or an
admin) opens the night, sees who is here, draws the tables and settles the room.
"""

from __future__ import annotations

import datetime as dt
import random
import secrets
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.db.models import Max, QuerySet
from django.utils import timezone

from ledger import services, zones
from ledger.engine.room import DRAW_METHODS, Method, draw_tables
from ledger.exceptions import InvalidRequest, NightDrawn, NotFound
from ledger.models import CheckIn, Club, Night, NightTable, Player, Role, SeatLink, Session
from ledger.selectors import Reader, club_role
from ledger.stats.models import Rating

SEED_MAX = 2**53  # a seed a page and a JSON client both show exactly


# --- reads -----------------------------------------------------------------------------------------


def night_get(*, user: Reader, night_id: int, role: str = Role.PLAYER) -> Night:
    """The night, for a member of its club with at least `role` (NotFound for anyone else)."""
    return _member_night(Night.objects.select_related("club").filter(pk=night_id).first(), user, role)


def _member_night(night: Night | None, user: Reader, role: str) -> Night:
    if night is None:
        raise NotFound("no such night")
    try:
        club_role(user=user, club_id=night.club_id, role=role)
    except NotFound:
        raise NotFound("no such night") from None
    return night


def night_list(*, user: Reader, club_id: int) -> QuerySet[Night]:
    club_role(user=user, club_id=club_id)
    return Night.objects.filter(club_id=club_id).order_by("-date", "-id")


def club_today(club: Club) -> dt.date:
    """Today in the club's time zone: the date of tonight's night."""
    return zones.local(timezone.now(), club.time_zone).date()


def night_of_today(*, user: Reader, club: Club) -> Night | None:
    club_role(user=user, club_id=club.pk)
    return Night.objects.filter(club=club, date=club_today(club)).first()


@dataclass(frozen=True)
class Room:
    """Who is here (arrival order), who plays (at which table and seat) and who waits (arrival order)."""

    here: list[CheckIn]
    tables: list[tuple[NightTable, list[Player]]]
    waiting: list[CheckIn]


def night_room(*, night: Night) -> Room:
    here = list(CheckIn.objects.filter(night=night).select_related("player").order_by("arrival"))
    tables = []
    seated: set[int] = set()
    for table in NightTable.objects.filter(night=night).select_related("session").order_by("number"):
        players = [s.player for s in table.session.seats.select_related("player").order_by("seat")]
        seated.update(p.pk for p in players)
        tables.append((table, players))
    waiting = [c for c in here if c.player_id not in seated] if tables else []
    return Room(here=here, tables=tables, waiting=waiting)


# --- writes ----------------------------------------------------------------------------------------


def _clean_date(value: Any, club: Club) -> dt.date:
    if value in (None, ""):
        return club_today(club)
    if isinstance(value, dt.date) and not isinstance(value, dt.datetime):
        return value
    try:
        return dt.date.fromisoformat(str(value))
    except ValueError:
        raise InvalidRequest.field("date", "a date is written YYYY-MM-DD") from None


def night_open(*, actor: User, club_id: int, date: Any = None) -> tuple[Night, bool]:
    """The club's night of `date` (today in the club's time zone if left out), opened if it is not
    yet (treasurers and above); (night, True) when this call opened it. Opening it again is harmless."""
    with transaction.atomic(durable=True):
        club_role(user=actor, club_id=club_id, role=Role.TREASURER)
        club = Club.objects.select_for_update(no_key=True).get(pk=club_id)
        day = _clean_date(date, club)
        found = Night.objects.filter(club=club, date=day).first()
        if found is not None:
            return found, False
        return Night.objects.create(club=club, date=day, created_by=actor), True


def _lock_night(night_id: int, actor: User, role: str) -> Night:
    return _member_night(Night.objects.select_for_update().filter(pk=night_id).first(), actor, role)


def _arrive(night: Night, player: Player, actor: User) -> CheckIn:
    found = CheckIn.objects.filter(night=night, player=player).first()
    if found is not None:
        return found  # checked in already: his place in the order stays
    last = CheckIn.objects.filter(night=night).aggregate(last=Max("arrival"))["last"] or 0
    return CheckIn.objects.create(night=night, player=player, arrival=last + 1, by=actor)


def check_in(*, actor: User, night_id: int, player_id: Any) -> CheckIn:
    """Check a player of the club in (his own player: any member; another: scorers and above). Checking
    in twice keeps the first arrival."""
    if type(player_id) is not int:
        raise InvalidRequest.field("player", "a player is named by his id")
    with transaction.atomic(durable=True):
        night = _lock_night(night_id, actor, Role.PLAYER)
        player = Player.objects.filter(pk=player_id, club_id=night.club_id).first()
        if player is None:
            raise InvalidRequest.field("player", f"no player {player_id} in this club")
        if player.user_id != actor.pk:
            club_role(user=actor, club_id=night.club_id, role=Role.SCORER)
        return _arrive(night, player, actor)


def guest_check_in(*, actor: User, night_id: int, name: Any) -> CheckIn:
    """A guest added on the spot by name (scorers and above): a new player of the club, under the club's
    name rules (unique, no look-alike of another: `services.player_add`), checked in at once."""
    try:
        with transaction.atomic(durable=True):
            night = _lock_night(night_id, actor, Role.SCORER)
            player = services.player_add(club_id=night.club_id, name=name)
            return _arrive(night, player, actor)
    except IntegrityError:  # a concurrent create of the same name
        raise InvalidRequest.field("name", "the club already has a player of this name") from None


@dataclass(frozen=True)
class DrawnLinks:
    """The seat links of the tables just drawn, by session id: (seat, key) each. The keys are shown once."""

    night: Night
    links: dict[int, list[tuple[int, str, SeatLink]]]


def night_draw(
    *,
    actor: User,
    night_id: int,
    method: Any = "lot",
    variant: str,
    rules: dict[str, Any] | None = None,
    stake: dict[str, Any] | None = None,
    seed: Any = None,
    preset_id: int | None = None,
) -> DrawnLinks:
    """Draw the night's tables (treasurers and above), once: from the players checked in, in arrival
    order, by lot (002:158) or by the club's ratings; seats and first dealers drawn too (`engine.room`),
    by a `random.Random` seeded with `seed` (drawn here if left out, kept with the night). Each table is a
    session opened from the club's preset `preset_id` (issue 42: its variant, rules and stake, the version
    kept with each session), else of `variant` with `rules` at `stake`, all in this one transaction, with
    a link for each seat."""
    if method not in DRAW_METHODS:
        raise InvalidRequest.field("method", "a draw is by lot or by rating")
    if seed is None:
        seed = secrets.randbelow(SEED_MAX)
    if type(seed) is not int or not 0 <= seed < SEED_MAX:
        raise InvalidRequest.field("seed", "a seed is a whole number from 0 to 2^53 - 1")
    chosen: Method = "rating" if method == "rating" else "lot"
    with transaction.atomic(durable=True):
        night = _lock_night(night_id, actor, Role.TREASURER)
        if night.drawn_at is not None:
            raise NightDrawn()
        arrivals = list(CheckIn.objects.filter(night=night).order_by("arrival").values_list("player_id", flat=True))
        if len(arrivals) < 4:
            raise InvalidRequest.field("players", "a table needs four players checked in")
        ratings = {}
        if chosen == "rating":
            ratings = dict(Rating.objects.filter(player_id__in=arrivals).values_list("player_id", "ordinal"))
        draw = draw_tables(arrivals, random.Random(seed), method=chosen, ratings=ratings)
        links: dict[int, list[tuple[int, str, SeatLink]]] = {}
        for number, table in enumerate(draw.tables, start=1):
            session = services.session_add(
                actor=actor,
                club_id=night.club_id,
                variant=variant,
                rules=rules,
                player_ids=list(table.seats),
                first_dealer=table.first_dealer,
                stake=stake,
                preset_id=preset_id,
            )
            NightTable.objects.create(night=night, number=number, session=session)
            links[session.pk] = [
                (seat, *services.seat_link_add(actor=actor, session=session, seat=seat)) for seat in range(4)
            ]
        night.draw_method, night.draw_seed = chosen, seed
        night.drawn_by, night.drawn_at = actor, timezone.now()
        night.save(update_fields=["draw_method", "draw_seed", "drawn_by", "drawn_at"])
    return DrawnLinks(night=night, links=links)


def night_tables(*, night: Night) -> list[Session]:
    return [t.session for t in NightTable.objects.filter(night=night).select_related("session").order_by("number")]
