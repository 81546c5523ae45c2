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
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.db.models import Max, QuerySet
from django.utils import timezone

from ledger import zones
from ledger.engine.room import (
    CUT_METHODS,
    DRAW_METHODS,
    CutMethod,
    Method,
    at_break,
    cut_in,
    cut_seed,
    draw_tables,
    game_break,
)
from ledger.engine.variants import get_variant
from ledger.exceptions import GameMoved, InvalidRequest, NightDrawn, NotFound
from ledger.live import announce_night
from ledger.models import CheckIn, Club, Night, NightTable, Player, Role, Seat, SeatChange, SeatLink, Session
from ledger.selectors import Reader, club_role, seated_now
from ledger.services.clubs import player_add
from ledger.services.sessions import session_add, session_close_add
from ledger.services.table import seat_link_add
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
    """Who is here (arrival order), who plays (at which table and seat) and who waits (the waiting line:
    arrival order, a player who cut out at its end). `tables` holds every game of every table (number,
    then game); `current` each table's last game, the one its players sit at."""

    here: list[CheckIn]
    tables: list[tuple[NightTable, list[Player]]]
    waiting: list[CheckIn]
    current: list[tuple[NightTable, list[Player]]] = field(default_factory=list)


def night_room(*, night: Night) -> Room:
    here = list(CheckIn.objects.filter(night=night).select_related("player").order_by("arrival"))
    tables = []
    for table in NightTable.objects.filter(night=night).select_related("session").order_by("number", "game"):
        tables.append((table, seated_now(session=table.session)))
    current = _current_games(tables)
    seated = {p.pk for _table, players in current for p in players}
    gone = _left_mid_game(current) - seated
    waiting = sorted((c for c in here if c.player_id not in seated | gone), key=lambda c: c.queue) if tables else []
    return Room(here=here, tables=tables, waiting=waiting, current=current)


def _left_mid_game(current: list[tuple[NightTable, list[Player]]]) -> set[int]:
    """The players a substitute replaced in tonight's current games (issue 37): they rose mid-game and
    left, so they do not wait to cut in (seating one again is a substitution of its own)."""
    sessions = [table.session_id for table, _players in current]
    changes = SeatChange.objects.filter(session_id__in=sessions).order_by("session_id", "from_hand", "id")
    held: dict[int, list[int]] = {}
    gone: set[int] = set()
    for change in changes:
        if change.session_id not in held:
            held[change.session_id] = list(
                Seat.objects.filter(session_id=change.session_id).order_by("seat").values_list("player_id", flat=True)
            )
        seats = held[change.session_id]
        gone.add(seats[change.seat])
        seats[change.seat] = change.player_id
    return gone


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
    announce_night(night)  # the room board's waiting line
    return CheckIn.objects.create(night=night, player=player, arrival=last + 1, queue=_queue_end(night), by=actor)


def _queue_end(night: Night) -> int:
    """The next place at the end of the night's waiting line (a newcomer's, or one who cut out)."""
    return (CheckIn.objects.filter(night=night).aggregate(last=Max("queue"))["last"] or 0) + 1


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
    name rules (unique, no look-alike of another: `player_add`), checked in at once."""
    try:
        with transaction.atomic(durable=True):
            night = _lock_night(night_id, actor, Role.SCORER)
            player = player_add(club_id=night.club_id, name=name)
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
            session = session_add(
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
            links[session.pk] = [(seat, *seat_link_add(actor=actor, session=session, seat=seat)) for seat in range(4)]
        night.draw_method, night.draw_seed = chosen, seed
        night.drawn_by, night.drawn_at = actor, timezone.now()
        night.save(update_fields=["draw_method", "draw_seed", "drawn_by", "drawn_at"])
    return DrawnLinks(night=night, links=links)


def night_tables(*, night: Night) -> list[Session]:
    return [t.session for t in NightTable.objects.filter(night=night).select_related("session").order_by("number")]


# --- cut-ins at the game's break (issue 37) ---------------------------------------------------------


def _current_games(tables: list[tuple[NightTable, list[Player]]]) -> list[tuple[NightTable, list[Player]]]:
    """Each table's last game (the rows in number, then game order)."""
    last: dict[int, tuple[NightTable, list[Player]]] = {}
    for table, players in tables:
        last[table.number] = (table, players)
    return [last[n] for n in sorted(last)]


def _games_in_a_row(tables: list[tuple[NightTable, list[Player]]], number: int) -> dict[int, int]:
    """How many games in a row, up to the current one, each player of table `number`'s current game has
    sat at that table."""
    games = [{p.pk for p in players} for table, players in tables if table.number == number]
    counts: dict[int, int] = {}
    for player in games[-1]:
        counts[player] = 0
        for seated in reversed(games):
            if player not in seated:
                break
            counts[player] += 1
    return counts


def _played(session: Session) -> int | None:
    """The deals of the game the session has played (misdeals not counted): when no deal may follow, the
    game's last (None only for a game without a last deal, which never stops taking deals)."""
    if session.next_deal is None:
        variant = get_variant(session.variant)
        return variant.declaration.deals.last(variant.parse_options(session.rules or {}))
    number = int(session.next_deal["number"])
    return int(session.next_deal.get("deal", number)) - 1


@dataclass(frozen=True)
class CutProposal:
    """At table `table.number`'s current game: whether it is at its break (or closed), who would cut out
    (`method`, by the lot of `seed`), who would cut in (the head of the waiting line) and the next game's
    seats (seat order) and first dealer."""

    table: NightTable
    players: list[Player]
    played: int | None
    break_deal: int
    ready: bool
    method: str
    seed: int
    out: list[Player]
    into: list[Player]
    seats: list[Player]
    first_dealer: int


NOT_DRAWN = "the tables of this night are not drawn yet"
NO_SUCH_TABLE = "no such table tonight"
NOBODY_WAITS = "nobody waits to cut in"
CUT_COUNT = "as many players cut in as wait, four at most"
BEFORE_GAME_BREAK = "a cut-in waits for the end of the game: the 12th deal"
BEFORE_PARTIE_BREAK = "a cut-in waits for the end of the partie: the 40th deal"


def cut_in_proposal(*, night: Night, number: Any, method: Any = "longest", count: Any = 1) -> CutProposal:
    """Who cuts out at table `number` for the players who wait, and who cuts in (nothing written). Refused
    (InvalidRequest naming the field) before the draw, for a table the night has not, when nobody waits,
    or for a count beyond the waiting line. `ready` says whether the game is at its break."""
    if method not in CUT_METHODS:
        raise InvalidRequest.field("method", "players cut out by the longest seated or by lot")
    if type(count) is not int or not 1 <= count <= 4:
        raise InvalidRequest.field("count", CUT_COUNT)
    if night.drawn_at is None or night.draw_seed is None:
        raise InvalidRequest.field("table", NOT_DRAWN)
    room = night_room(night=night)
    found = next(((t, ps) for t, ps in room.current if t.number == number), None)
    if found is None:
        raise InvalidRequest.field("table", NO_SUCH_TABLE)
    if not room.waiting:
        raise InvalidRequest.field("table", NOBODY_WAITS)
    if count > len(room.waiting):
        raise InvalidRequest.field("count", CUT_COUNT)
    table, players = found
    session = table.session
    seed = cut_seed(night.draw_seed, table.number, table.game)
    chosen: CutMethod = "lot" if method == "lot" else "longest"
    by_id = {p.pk: p for p in players} | {c.player_id: c.player for c in room.waiting}
    cut = cut_in(
        [p.pk for p in players],
        [c.player_id for c in room.waiting],
        _games_in_a_row(room.tables, table.number),
        random.Random(seed),
        method=chosen,
        count=count,
    )
    played = _played(session)
    return CutProposal(
        table=table,
        players=players,
        played=played,
        break_deal=game_break(session.variant),
        ready=session.status == Session.Status.CLOSED or at_break(session.variant, played),
        method=chosen,
        seed=seed,
        out=[by_id[p] for p in cut.out],
        into=[by_id[p] for p in cut.into],
        seats=[by_id[p] for p in cut.table.seats],
        first_dealer=cut.table.first_dealer,
    )


@dataclass(frozen=True)
class CutDone:
    """A cut-in made: the game closed (`closed`, its settlement None if it was closed before), the next
    game opened (`opened`), the proposal it followed, and the new game's seat links (seat, key, link)."""

    night: Night
    proposal: CutProposal
    closed: Session
    settlement: dict[str, Any] | None
    opened: NightTable
    links: list[tuple[int, str, SeatLink]]


def night_cut_in(
    *,
    actor: User,
    night_id: int,
    number: Any,
    game: Any,
    method: Any = "longest",
    count: Any = 1,
    pools: Any = "carry",
) -> CutDone:
    """At table `number`'s break, in one transaction (treasurers and above): close its game `game` with
    the pools carried (`pools`: "carry", or "divide"; a game the treasurer closed already stays as it
    was), open the next game as a new session of the same conditions (variant, rules, stake, preset
    version) claiming the carried pools, with the waiting players seated (seats and first dealer by lot),
    a link for each seat, as game `game + 1` of the table; the players who cut out join the end of the
    waiting line. `game` is the game the caller saw: another is 409 `game_moved` (a second tap, or a
    second treasurer, cut in first)."""
    if pools not in ("carry", "divide"):
        raise InvalidRequest.field("pools", '`pools` must be "divide" or "carry"')
    if type(game) is not int or game < 1:
        raise InvalidRequest.field("game", "the game is the table's game number the cut-in closes")
    with transaction.atomic(durable=True):
        night = _lock_night(night_id, actor, Role.TREASURER)
        proposal = cut_in_proposal(night=night, number=number, method=method, count=count)
        if proposal.table.game != game:
            raise GameMoved()
        session = Session.objects.select_for_update(no_key=True).get(pk=proposal.table.session_id)
        settlement = None
        if session.status == Session.Status.OPEN:
            if not at_break(session.variant, _played(session)):
                partie = get_variant(session.variant).declaration.deals.limit is None
                raise InvalidRequest.field("table", BEFORE_PARTIE_BREAK if partie else BEFORE_GAME_BREAK)
            settlement = session_close_add(actor=actor, session=session, pools=pools)
        carried = any((session.closing or {}).get("carried") or [])
        claimed = Session.objects.filter(carry_pools_from=session).exists()
        opened = session_add(
            actor=actor,
            club_id=night.club_id,
            variant=session.variant,
            rules=session.rules,
            player_ids=[p.pk for p in proposal.seats],
            first_dealer=proposal.first_dealer,
            stake=session.stake,
            carry_pools_from=session.pk if carried and not claimed else None,
        )
        if session.preset_version_id is not None:  # the table keeps its conditions, even if the preset changed
            opened.preset_version_id = session.preset_version_id
            opened.save(update_fields=["preset_version"])
        row = NightTable.objects.create(
            night=night,
            number=proposal.table.number,
            game=game + 1,
            session=opened,
            cut_method=proposal.method,
            cut_seed=proposal.seed,
        )
        for player in proposal.out:
            CheckIn.objects.filter(night=night, player=player).update(queue=_queue_end(night))
        links = [(seat, *seat_link_add(actor=actor, session=opened, seat=seat)) for seat in range(4)]
        announce_night(night)
    return CutDone(night=night, proposal=proposal, closed=session, settlement=settlement, opened=row, links=links)


@dataclass(frozen=True)
class NightBoard:
    """Tonight on the room board: each open game's table and game number (by session id), who waits (the
    waiting line's names) and so who cuts in next (the first of them). No reader: the board's callers
    have checked the club (a member, or a board link)."""

    night: Night
    games: dict[int, tuple[int, int]]
    waiting: list[str]

    @property
    def tag(self) -> str:
        games = ",".join(f"{s}:{n}.{g}" for s, (n, g) in sorted(self.games.items()))
        return f"{self.night.pk}|{games}|{','.join(self.waiting)}"


def night_board(*, club: Club) -> NightBoard | None:
    """Tonight's night of the club as the room board shows it, None before its draw."""
    night = Night.objects.filter(club=club, date=club_today(club), drawn_at__isnull=False).first()
    if night is None:
        return None
    room = night_room(night=night)
    games = {table.session_id: (table.number, table.game) for table, _players in room.current}
    return NightBoard(night=night, games=games, waiting=[c.player.name for c in room.waiting])
