"""The four seats round the table, the pool, and who sits where to whom (`rules.md` §0.2, §0.7).

Tables of seats, worked out once at import: a variant asks them for every payment, so a look-up
stands where a search would run for each deal (the figures are in bench/README.md).
"""

from __future__ import annotations

from itertools import permutations
from typing import Any, Literal

SEATS = (0, 1, 2, 3)
POOL: Literal["pool"] = "pool"
Party = int | Literal["pool"]
PARTIES: tuple[Party, ...] = (0, 1, 2, 3, POOL)


def is_seat(value: Any) -> bool:
    return type(value) is int and 0 <= value <= 3


def rank(party: Party) -> int:
    """A party as an index: a seat is its own, the pool 4."""
    return 4 if party == POOL else party


# The dealers of a round of four deals, passing left (step 1) or right (step 3), from each first dealer.
ROUNDS = {step: {first: tuple((first + step * i) % 4 for i in SEATS) for first in SEATS} for step in (1, 3)}


def _others(seats: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(seat for seat in SEATS if seat not in seats)


# The other seats of each group of seats, listed once: a look-up rather than a tuple built for every
# call (bench/README.md, "Instructions").
OTHERS = {seats: _others(seats) for size in range(5) for seats in permutations(SEATS, size)}


def others(*seats: int) -> tuple[int, ...]:
    """The seats that are not `seats`, in seat order."""
    return OTHERS[seats]


def opposite(seat: int) -> int:
    return (seat + 2) % 4


def pairing(payers: tuple[int, ...]) -> tuple[tuple[int, int], tuple[int, int]]:
    """`rules.md` §0.7: who pays whom when a pair of players pays the other pair.

    Returns ((payer, payee), (payer, payee)). Payers opposite each other: each pays the player on his
    right. Payers adjacent: each pays the opponent sitting next to him. Call it with the losing pair,
    whichever side that is: opposite pairs are not symmetric (partners 0-2 pay 0->3 and 2->1, their
    opponents pay 1->0 and 3->2).
    """
    a, b = payers
    if (a - b) % 4 == 2:
        return (a, (a + 3) % 4), (b, (b + 3) % 4)
    receivers = others(a, b)
    a_to = next(r for r in receivers if (r - a) % 4 != 2)
    b_to = next(r for r in receivers if r != a_to)
    return (a, a_to), (b, b_to)


# Each seat's adversaries (the other three) and §0.7's pairings of every two seats, listed once for
# every variant: pairing() searches for an adjacent pair's payees, a look-up does not.
ADVERSARIES = {seat: others(seat) for seat in SEATS}
PAIRINGS: dict[tuple[int, ...], tuple[tuple[int, int], tuple[int, int]]] = {
    payers: pairing(payers) for payers in permutations(SEATS, 2)
}
