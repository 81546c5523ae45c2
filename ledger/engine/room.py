"""A club night's room (issue 37): tables drawn from the players checked in, and one settlement for the
whole room. Pure: the randomness is a `random.Random` the caller passes in (seeded, the seed kept with
the draw so it can be shown and replayed), money is integer minor units.

- `draw_tables`: the first arrivals fill as many tables of four as they can; the extra players (not a
  multiple of four) wait, the latest arrivals, in arrival order. By lot (002:158, "seats are drawn by
  lot") the players are shuffled and dealt four to a table; by rating the strongest four make the
  first table, the next four the second, and so on (unrated players after the rated ones, in arrival
  order). At each table the seats and the first dealer are drawn by lot either way.
- `room_totals` adds up each party's results at every table; `room_settlement` squares them with the
  fewest transfers (`settle_up`, the per-table one, on the summed money), so a member who played at two
  tables pays or is paid once.
- `cut_in`: at a table's break (`game_break`, `at_break`), who cuts out for the waiting players (the
  longest seated, or by lot, from `cut_seed`) and the next game's seats and first dealer, by lot.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Literal, TypeVar

from .settle_up import settle_up
from .variants import get_variant

SEATS = 4
DRAW_METHODS = ("lot", "rating")
Method = Literal["lot", "rating"]
P = TypeVar("P", bound=Hashable)  # a player: an id, a name


@dataclass(frozen=True)
class DrawnTable(Generic[P]):
    """One table: its players in seat order (seat 0 first) and the seat of its first dealer."""

    seats: tuple[P, P, P, P]
    first_dealer: int


@dataclass(frozen=True)
class Draw(Generic[P]):
    tables: tuple[DrawnTable[P], ...]
    waiting: tuple[P, ...]  # in arrival order


def draw_tables(
    arrivals: Sequence[P],
    rng: random.Random,
    *,
    method: Method = "lot",
    ratings: Mapping[P, float] | None = None,
) -> Draw[P]:
    """Tables of four from the players in `arrivals` (arrival order); the rest wait, in arrival order.

    The same arrivals, method, ratings and a `Random` seeded alike give the same draw."""
    if method not in DRAW_METHODS:
        raise ValueError(f"a draw is by {' or '.join(DRAW_METHODS)}, not {method!r}")
    if len(set(arrivals)) != len(arrivals):
        raise ValueError("a player checks in once")
    count = len(arrivals) // SEATS * SEATS
    playing, waiting = list(arrivals[:count]), tuple(arrivals[count:])
    if method == "lot":
        rng.shuffle(playing)
    else:
        known = ratings or {}
        order = {p: i for i, p in enumerate(playing)}
        # The rated by rating, highest first; then the unrated, in arrival order.
        playing.sort(key=lambda p: (p not in known, -known.get(p, 0.0), order[p]))
    tables = []
    for start in range(0, count, SEATS):
        four = playing[start : start + SEATS]
        if method == "rating":
            rng.shuffle(four)  # the seats at the table, drawn by lot
        tables.append(DrawnTable(seats=(four[0], four[1], four[2], four[3]), first_dealer=rng.randrange(SEATS)))
    return Draw(tables=tuple(tables), waiting=waiting)


def room_totals(results: Iterable[Mapping[P, int]]) -> dict[P, int]:
    """Each party's results added up over every table (minor units; the parties of no table absent)."""
    totals: dict[P, int] = {}
    for table in results:
        for party, amount in table.items():
            totals[party] = totals.get(party, 0) + amount
    return totals


def table_results(parties: Sequence[P], close: Mapping[str, Any]) -> dict[P | Literal["pool"], int]:
    """One table's money per party from its close: `parties` are the players its `money` indexes (the
    four by seat, then each substitute's stint, `engine.stints`), so a leaver and his substitute each get
    their own, and a player with two stints at the table gets both; the pool's money to "pool"."""
    result: dict[P | Literal["pool"], int] = {}
    for player, cents in zip(parties, close["money"], strict=True):
        result[player] = result.get(player, 0) + int(cents)
    if close.get("pool_money"):
        result["pool"] = result.get("pool", 0) + int(close["pool_money"])
    return result


def room_settlement(results: Iterable[Mapping[P, int]]) -> list[tuple[P, P, int]]:
    """The fewest transfers (payer, payee, amount) that square the room: each table's results must add
    up to zero, so the room's do too."""
    tables = [dict(t) for t in results]
    for table in tables:
        if sum(table.values()) != 0:
            raise ValueError("a table's results must add up to zero")
    return settle_up(room_totals(tables))


# --- cut-ins at the variant's natural break (issue 37) ----------------------------------------------

CUT_METHODS = ("longest", "lot")
CutMethod = Literal["longest", "lot"]


def game_break(variant: str) -> int:
    """The deal of the game after which players cut out (000:59 "Twelve deals is a game; after which the
    players cut out"): the 12th in American and Fontainebleau, the partie's last double (the 40th) in
    French and Russian (002:158, "Восемь простых туров и два двойных составляют партию")."""
    deals = get_variant(variant).declaration.deals
    if deals.limit is not None:
        return deals.limit
    if deals.doubles is None:
        raise ValueError(f"{variant} has no game limit and no doubles: no break")
    return deals.doubles[1]


def at_break(variant: str, played: int | None) -> bool:
    """Whether a game that has played `played` deals of the game (misdeals not counted) is at its break;
    None: no deal may follow (the game is over, so at its break)."""
    return played is None or played >= game_break(variant)


def cut_seed(draw_seed: int, table: int, game: int) -> int:
    """The seed of the lot that cuts out at `table` after `game`: derived from the night's stored draw
    seed, so the page, the API and the room board propose the same players, and a replay finds them."""
    digest = hashlib.sha256(f"{draw_seed}:{table}:{game}".encode()).digest()
    return int.from_bytes(digest[:8], "big") % 2**53


@dataclass(frozen=True)
class CutIn(Generic[P]):
    """Who cuts out (seat order of the game left), who cuts in (the head of the waiting list) and the
    next game's table: its seats and first dealer drawn by lot, as for a partie (002:158)."""

    out: tuple[P, ...]
    into: tuple[P, ...]
    table: DrawnTable[P]


def cut_in(
    seated: Sequence[P],
    waiting: Sequence[P],
    games: Mapping[P, int],
    rng: random.Random,
    *,
    method: CutMethod = "longest",
    count: int = 1,
) -> CutIn[P]:
    """`count` of the four `seated` cut out for the first `count` of `waiting` (its order kept).

    "longest": those who have played the most games in a row at this table (`games`) go out, a tie cut
    by lot (the Whist rooms' custom: "he who has played a greater number of consecutive rubbers is out;
    when all have played the same number, they must cut"); "lot": by lot among the four. The same
    arguments and a `Random` seeded alike give the same cut."""
    if method not in CUT_METHODS:
        raise ValueError(f"players cut out by {' or '.join(CUT_METHODS)}, not {method!r}")
    if len(seated) != SEATS or len(set(seated)) != SEATS:
        raise ValueError("a table seats four different players")
    if not 1 <= count <= min(SEATS, len(waiting)):
        raise ValueError("as many cut in as wait, four at most, one at least")
    if set(seated) & set(waiting):
        raise ValueError("a seated player does not wait")
    lots = {p: rng.random() for p in seated}  # drawn for all four, so the method changes only the order
    if method == "longest":
        order = sorted(seated, key=lambda p: (-games.get(p, 1), lots[p]))
    else:
        order = sorted(seated, key=lambda p: lots[p])
    out = tuple(p for p in seated if p in set(order[:count]))
    into = tuple(waiting[:count])
    four = [p for p in seated if p not in out] + list(into)
    rng.shuffle(four)
    table = DrawnTable(seats=(four[0], four[1], four[2], four[3]), first_dealer=rng.randrange(SEATS))
    return CutIn(out=out, into=into, table=table)
