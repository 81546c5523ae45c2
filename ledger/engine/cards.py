"""The cards and the hand as recorded: the suits, the fields of one deal (`scoresheet.md`).

No variant's rule lives here; `seats.py` has the table round which the cards are played.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

from .seats import Party

SUITS = ("clubs", "diamonds", "hearts", "spades")
SUIT_SYMBOLS = {"clubs": "♣", "diamonds": "♦", "hearts": "♥", "spades": "♠", "none": "NT"}


def is_int(value: Any) -> bool:
    """An integer that is not a boolean: JSON `true` is never a seat or an amount."""
    return type(value) is int


@dataclass(frozen=True, slots=True)
class Adjustment:
    frm: Party
    to: Party
    counters: int
    note: str


class Hand(NamedTuple):
    """One deal as recorded, checked and with its defaults filled in.

    An immutable record; a NamedTuple because one is built for every deal of every replay.
    """

    bid: str
    tricks: tuple[int, int, int, int] = (0, 0, 0, 0)
    bidder: int | None = None
    trump: str | None = None
    partner: int | None = None
    turned: str | None = None
    honours: int = 0
    conceded: bool | str = False  # "bidder": he paid instead of playing (rules.md §0.11)
    jack: int | None = None
    revoke: int | None = None
    last_trick: int | None = None
    adjustments: tuple[Adjustment, ...] = ()
    ace_turned: bool = False  # Russian «с ремизом» (rules.md §0.11)
