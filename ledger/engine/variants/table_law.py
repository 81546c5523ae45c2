"""Table law (`rules.md` §0.11): what happens at a real table, priced once for every variant.

A revoke, a misdeal that passes the deal, a bidder who pays instead of playing, and the Russian
conditions agreed before play. The variants keep their own tables (a failure's amount, a contract's
value); this module says who pays whom with them, so the law reads the same in every variant. A
variant calls it from small hooks in its `settle_deal` and declares the options and bids it adds with
the builders below.
"""

from __future__ import annotations

from ..deal import Deal
from ..seats import POOL, others

# --- a revoke (§0.11, "Revoke in every variant") ----------------------------------------------------


def revoke_adversaries(revoker: int, side: tuple[int, ...]) -> tuple[int, ...]:
    """The adversaries of the revoker's side: the opponents when he is on the bidder's side, else the
    bidder's side itself."""
    return others(*side) if revoker in side else side


def pay_revoke(deal: Deal, side: tuple[int, ...], amount: int) -> None:
    """Boston's law of the revoke ("double the pool, and pay both adversaries", 001:71), in place of the
    contract's settlement: the revoker alone pays each adversary of his side `amount` (the contract's
    failure for max(1, s) tricks short, worked by the variant's own table), and an amount equal to the
    pools into them (reason `penalty`). No pool is won that deal."""
    revoker = deal.hand.revoke
    assert revoker is not None
    deal.pays_each(revoker, revoke_adversaries(revoker, side), amount, "penalty")
    held = deal.pools.total
    deal.pay(revoker, POOL, held, "penalty")
    deal.pools.feed(held)  # American: into the newest pool, fed like an ante (§1.5)


def revoke_shortfall(deal: Deal, side: tuple[int, ...], needed: int) -> int:
    """max(1, s): the tricks short the revoke is priced at, s being the side's actual shortfall (0 if
    made or conceded)."""
    hand = deal.hand
    if hand.conceded is True:
        return 1
    taken = sum(hand.tricks[seat] for seat in side)
    return max(1, needed - taken)


def pay_opponent_revoke(deal: Deal, side: tuple[int, ...], amount: int) -> None:
    """Russian, a revoke by an opponent (§0.11): the contract is paid as made with exactly its quota,
    `amount` from each opponent to the player he pays, and the revoker alone pays what his whole side
    would have paid. Each winner of `side` gets amount × opponents / winners from him."""
    revoker = deal.hand.revoke
    assert revoker is not None
    opponents = others(*side)
    deal.pays_each(revoker, side, amount * len(opponents) // len(side), "penalty")
