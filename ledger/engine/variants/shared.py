"""What more than one variant says, said once (docs/variants.md, "Sharing and deriving").

The Boston ladder of bids (boston to thirteen, the misères and spreads, the slams) is the same words in
American Boston and Boston de Fontainebleau; its labels are registered here, once, as `bid.<code>`
under the catalog context `GAME_WORDS`, so each is one catalog entry whatever variant shows it. A variant
that builds on another (`class Classic(American)`) imports its parent's module instead.
"""

from __future__ import annotations

from ..deal import Deal
from ..messages import GAME_WORDS, REFUSAL, register
from ..seats import POOL

# The trick bids named by the tricks they undertake (rules.md §1.2, §2.2).
TRICK_LADDER = {
    "boston": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "thirteen": 13,
}
BID_WORDS = {
    **{code: code for code in TRICK_LADDER},
    "little_misere": "little misère",
    "grand_misere": "grand misère",
    "little_spread": "little spread",
    "grand_spread": "grand spread",
    "piccolissimo": "piccolissimo",
    "slam": "slam",
    "spread_slam": "spread slam",
    "last_trick": "last trick",
}
register({f"bid.{code}": word for code, word in BID_WORDS.items()}, context=GAME_WORDS)
MISERE_TRUMP = "forbidden.misere.trump"  # French and Russian misères alike
register({MISERE_TRUMP: "a misère is played without trumps: leave the trump empty"}, context=REFUSAL)


def bid_label(code: str) -> str:
    """The message id of a bid of the ladder (`bid.boston`)."""
    if code not in BID_WORDS:
        raise KeyError(f"{code} is not a bid of the shared ladder: register the variant's own label")
    return f"bid.{code}"


def bid_word(code: str) -> str:
    """A ladder bid's English, as a table's row heading prints it."""
    return BID_WORDS[code]


def pay_ante(deal: Deal, amount: int) -> None:
    """The dealer's ante into the pool (reason `ante`), when there is one."""
    if amount:
        deal.pay(deal.dealer, POOL, amount, "ante")
        deal.pools.feed(amount)
