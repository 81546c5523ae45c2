"""A substitute mid-game (issue 37): who sat where from which deal, and each player's stint settled.

A sheet's `substitutions` say that from hand `from` a new player sits at `seat`. A stint is one player's
run of hands at one seat: the four opening stints first (seats 0-3, the sheet's `players`), then one per
substitution in the sheet's order. Hands are settled by seat as always (a player's name plays no part in
a deal), so a substitution changes no counter of any deal; it only splits a seat's counters between the
stints that held it: the leaver's are exactly his hands' deltas up to hand n-1, the substitute's from n.

The division of the pools at the close goes to one stint of each seat, by the variant's custom (its
declaration's `pool_share`, docs/decisions.md "A substitute mid-game"):
- "formed": the share goes to whoever held the seat at the hand that formed the pools standing at the
  close (the first hand after the pools were last empty; hand 1 if they never were). A leaver whose
  contributions still lie in the pool gets his share of it; a pool formed after he rose is not his.
- "seated": the share goes to whoever holds the seat at the close, the players who "divide it amongst
  themselves" at the end of the game.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal


@dataclass(frozen=True, slots=True)
class Substitution:
    """From hand `first` (2 or more), `player` sits at `seat`."""

    seat: int
    player: str
    first: int


@dataclass(frozen=True, slots=True)
class Stint:
    """One player at one seat, hands `first` to `last` (`last` None while the seat is his at the end)."""

    seat: int
    player: str
    first: int
    last: int | None


def stints(players: Sequence[str], substitutions: Sequence[Substitution]) -> list[Stint]:
    """The opening four, then one per substitution (the sheet's order), each ending where the next stint
    of its seat begins."""
    starts: list[tuple[int, str, int]] = [(seat, name, 1) for seat, name in enumerate(players)]
    starts += [(s.seat, s.player, s.first) for s in substitutions]
    out = []
    for seat, name, first in starts:
        later = [f for s, _, f in starts if s == seat and f > first]
        out.append(Stint(seat, name, first, min(later) - 1 if later else None))
    return out


def holder(all_stints: Sequence[Stint], seat: int, number: int) -> int:
    """The index of the stint that held `seat` at hand `number`."""
    for index, stint in enumerate(all_stints):
        if stint.seat == seat and stint.first <= number and (stint.last is None or number <= stint.last):
            return index
    raise ValueError(f"no one at seat {seat} at hand {number}")


def formed_at(pools_after: Sequence[Sequence[int]]) -> int:
    """The hand that formed the pools standing after the last hand: the one after they were last empty."""
    formed = 1
    for number, pools in enumerate(pools_after, start=1):
        if not sum(pools):
            formed = number + 1
    return formed


def share_owners(
    pool_share: Literal["formed", "seated"], all_stints: Sequence[Stint], hands: Sequence[dict[str, Any]]
) -> list[int]:
    """For each seat, the stint its share of the division goes to (the variant's `pool_share`)."""
    last = max(len(hands), 1)
    at = min(formed_at([h["pools"] for h in hands]), last) if pool_share == "formed" else last
    return [holder(all_stints, seat, at) for seat in range(4)]


def stint_counters(all_stints: Sequence[Stint], hands: Sequence[dict[str, Any]]) -> list[int]:
    """Each stint's counters before the division: the seat's deltas over the stint's hands."""
    out = []
    for stint in all_stints:
        last = len(hands) if stint.last is None else stint.last
        out.append(sum(h["deltas"][stint.seat] for h in hands[stint.first - 1 : last]))
    return out


def forfeiting_stints(all_stints: Sequence[Stint], misdeals: Sequence[tuple[int, int]]) -> frozenset[int]:
    """The stints whose player dealt a misdeal (number, dealer) under Russian `misdeal_forfeits_share`:
    the forfeit is the misdealer's own, not his seat's (a substitute does not inherit it)."""
    return frozenset(holder(all_stints, dealer, number) for number, dealer in misdeals)
