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
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Generic, Literal, TypeVar

from .settle_up import settle_up

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


def room_settlement(results: Iterable[Mapping[P, int]]) -> list[tuple[P, P, int]]:
    """The fewest transfers (payer, payee, amount) that square the room: each table's results must add
    up to zero, so the room's do too."""
    tables = [dict(t) for t in results]
    for table in tables:
        if sum(table.values()) != 0:
            raise ValueError("a table's results must add up to zero")
    return settle_up(room_totals(tables))
