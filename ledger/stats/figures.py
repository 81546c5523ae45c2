"""A closed session's figures per seat, from its hands and the engine's settlement (`stats.md`).

Pure Python, no Django: the same function serves the incremental handler, the rebuild, the
benchmark's naive aggregate and the tests.

What a bid needs is read from the variant's declaration (`ledger.engine.variants.declaration`): each
bid's kind (a trick contract made at t >= n, an exact one made at t == n: misères, spreads,
piccolissimo), its trick counts alone and with a partner, and how a misère partout's losers are told.
Nothing per variant is written here.

Rules common to every variant (`stats.md`, "contracts"):
- conceded (`conceded: true`, the adversaries conceded) counts as made (and has no over-tricks: the
  engine pays none);
- table law (issue 42, rules.md §0.11): a misdeal (`bid: "misdeal"`) is no contract and counts against
  that deal's dealer; a bidder who pays instead of playing (`conceded: "bidder"`) counts a concession
  and is left out of the contracts (neither played nor made: a penalty is never a contract made); a
  revoke counts against the revoking seat;
- a revoke by the bidder's side counts as not made for that side; a revoke by an opponent leaves the
  contract to be judged by the tricks;
- over-tricks: tricks above the contract when made; shortfall: tricks below it when not; both 0 for
  exact contracts (misères, spreads, piccolissimo).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from ledger.engine.variants import get_variant, variant_names
from ledger.engine.variants.declaration import EXACT, TRICKS

BIDDER, PARTNER = "bidder", "partner"
ROLES = (BIDDER, PARTNER)
POOL = "pool"


@dataclass(frozen=True)
class ContractRules:
    """What the bidder's side of each bid of one variant must take.

    tricks: trick contracts, made when the bidder alone takes at least n.
    exact: misères, spreads, piccolissimo, made when the bidder takes exactly n.
    pair: trick contracts played with a partner, made when the two together take at least n.
    """

    tricks: Mapping[str, int]
    exact: Mapping[str, int]
    pair: Mapping[str, int]
    # Where an all-pass deal is played as misère partout (`stats.md`): how its loser is told.
    misere_partout: str | None = None


def _frozen(mapping: Mapping[str, int]) -> Mapping[str, int]:
    return MappingProxyType(dict(mapping))


def contract_rules(variant: str) -> ContractRules:
    """A variant's contracts as the statistics judge them, from its declaration."""
    declaration = get_variant(variant).declaration
    return ContractRules(
        tricks=_frozen({b.code: b.tricks for b in declaration.bids if b.kind == TRICKS and b.tricks is not None}),
        exact=_frozen({b.code: b.tricks for b in declaration.bids if b.kind == EXACT and b.tricks is not None}),
        pair=_frozen({b.code: b.pair_tricks for b in declaration.bids if b.pair_tricks is not None}),
        misere_partout=declaration.all_pass,
    )


class _ContractsByVariant(Mapping[str, ContractRules]):
    """Each known variant's `ContractRules`, worked out the first time it is asked for and kept with the
    declaration it was read from: a variant named in `VARIANTS` after this module's import is known too."""

    def __init__(self) -> None:
        self._read: dict[str, tuple[Any, ContractRules]] = {}

    def __getitem__(self, name: str) -> ContractRules:
        try:
            declaration = get_variant(name).declaration
        except ValueError:
            raise KeyError(name) from None
        found = self._read.get(name)
        if found is None or found[0] is not declaration:
            found = self._read[name] = (declaration, contract_rules(name))
        return found[1]

    def __iter__(self) -> Iterator[str]:
        return iter(variant_names())

    def __len__(self) -> int:
        return len(variant_names())


CONTRACTS: Mapping[str, ContractRules] = _ContractsByVariant()


@dataclass(frozen=True)
class Outcome:
    """One contract as the statistics count it."""

    bid: str
    bidder: int
    partner: int | None
    made: bool
    overtricks: int
    shortfall: int

    def seats(self) -> Iterable[tuple[int, str]]:
        yield self.bidder, BIDDER
        if self.partner is not None:
            yield self.partner, PARTNER


MISDEAL = "misdeal"  # rules.md §0.11: the deal passed on after a misdeal, its dealer the culprit
BIDDER_CONCEDED = "bidder"  # `conceded: "bidder"`: the bidder paid instead of playing


def contract_outcome(variant: str, hand: Mapping[str, Any]) -> Outcome | None:
    """The contract of a recorded (engine-valid) hand; None for a deal without a bidder (pass, last
    trick, misdeal) and for a bidder who paid instead of playing (a penalty, not a contract played)."""
    rules = CONTRACTS[variant]
    bid = hand["bid"]
    bidder = hand.get("bidder")
    if bidder is None or bid == MISDEAL or hand.get("conceded") == BIDDER_CONCEDED:
        return None
    partner = hand.get("partner")
    tricks = hand["tricks"]
    taken = tricks[bidder] + (tricks[partner] if partner is not None else 0)
    side = (bidder,) if partner is None else (bidder, partner)
    revoked = hand.get("revoke") is not None and hand["revoke"] in side
    if bid in rules.exact:
        made = not revoked and (hand.get("conceded") is True or taken == rules.exact[bid])
        return Outcome(bid, bidder, partner, made, 0, 0)
    need = rules.pair[bid] if partner is not None else rules.tricks[bid]
    if revoked:
        made = False
    elif hand.get("conceded") is True:
        return Outcome(bid, bidder, partner, True, 0, 0)
    else:
        made = taken >= need
    if made:
        return Outcome(bid, bidder, partner, True, taken - need, 0)
    return Outcome(bid, bidder, partner, False, 0, max(0, need - taken))


@dataclass
class Tally:
    """played, made, over-tricks and shortfall of one (bid, role)."""

    played: int = 0
    made: int = 0
    overtricks: int = 0
    shortfall: int = 0

    def add(self, outcome: Outcome) -> None:
        self.played += 1
        self.made += outcome.made
        self.overtricks += outcome.overtricks
        self.shortfall += outcome.shortfall


@dataclass
class SeatFigures:
    """One seat's figures in one closed session."""

    seat: int
    deals: int
    counters: int  # close.final
    currency: str | None = None
    money: int | None = None  # close.money, minor units; None without a stake
    pools_won: int = 0
    pools_won_counters: int = 0
    misere_partout_played: int = 0
    misere_partout_lost: int = 0
    # Table law (issue 42): the seat's revokes, its misdeals as dealer, its payments instead of playing.
    revokes: int = 0
    misdeals: int = 0
    concessions: int = 0
    contracts: dict[tuple[str, str], Tally] = field(default_factory=dict)

    @property
    def bidder_played(self) -> int:
        return sum(t.played for (_bid, role), t in self.contracts.items() if role == BIDDER)

    @property
    def bidder_made(self) -> int:
        return sum(t.made for (_bid, role), t in self.contracts.items() if role == BIDDER)


def session_figures(
    variant: str, hands: Iterable[tuple[Mapping[str, Any], Mapping[str, Any]]], closing: Mapping[str, Any]
) -> list[SeatFigures]:
    """The four seats' figures of a closed session: `hands` are (recorded hand, settled hand) in deal order."""
    rules = CONTRACTS[variant]
    hands = list(hands)
    money = closing.get("money")
    seats = [
        SeatFigures(
            seat=seat,
            deals=len(hands),
            counters=closing["final"][seat],
            currency=closing.get("currency") if money is not None else None,
            money=money[seat] if money is not None else None,
        )
        for seat in range(4)
    ]
    for raw, settled in hands:
        _table_law(seats, raw, settled)
        transfers = settled["transfers"]
        for t in transfers:
            if t["from"] == POOL and t["reason"] == "pool" and t["to"] != POOL:
                seats[t["to"]].pools_won += 1
                seats[t["to"]].pools_won_counters += t["counters"]
        if raw["bid"] == "pass" and rules.misere_partout is not None:
            for s in seats:
                s.misere_partout_played += 1
            for seat in _misere_partout_losers(rules.misere_partout, transfers):
                seats[seat].misere_partout_lost += 1
            continue
        outcome = contract_outcome(variant, raw)
        if outcome is None:
            continue
        for seat, role in outcome.seats():
            seats[seat].contracts.setdefault((outcome.bid, role), Tally()).add(outcome)
    return seats


def stint_figures(
    variant: str, hands: Iterable[tuple[Mapping[str, Any], Mapping[str, Any]]], closing: Mapping[str, Any]
) -> list[SeatFigures]:
    """A closed session whose seats changed hands (issue 37): one `SeatFigures` per stint of the close's
    `stints` (its seat the stint's), over the stint's own hands only, so each player is credited with
    the deals he played; counters and money are the stint's. Without `stints`, the four seats'."""
    hands = list(hands)
    if "stints" not in closing:
        return session_figures(variant, hands, closing)
    currency = closing.get("currency") if "money" in closing else None
    out = []
    for stint in closing["stints"]:
        last = len(hands) if stint["to"] is None else stint["to"]
        figures = session_figures(variant, hands[stint["from"] - 1 : last], {"final": [0, 0, 0, 0]})[stint["seat"]]
        figures.counters = stint["final"]
        figures.currency, figures.money = currency, stint.get("money")
        out.append(figures)
    return out


_ADDED = (
    "deals",
    "counters",
    "pools_won",
    "pools_won_counters",
    "misere_partout_played",
    "misere_partout_lost",
    "revokes",
    "misdeals",
    "concessions",
)


def merged(first: SeatFigures, second: SeatFigures) -> SeatFigures:
    """Two stints of one player at one table (he left and came back) as one: his figures added up, at the
    seat he sat first."""
    out = SeatFigures(seat=first.seat, deals=0, counters=0, currency=first.currency or second.currency)
    for name in _ADDED:
        setattr(out, name, getattr(first, name) + getattr(second, name))
    if first.money is not None or second.money is not None:
        out.money = (first.money or 0) + (second.money or 0)
    for source in (first, second):
        for key, tally in source.contracts.items():
            into = out.contracts.setdefault(key, Tally())
            into.played += tally.played
            into.made += tally.made
            into.overtricks += tally.overtricks
            into.shortfall += tally.shortfall
    return out


def _seat(value: Any) -> int | None:
    return value if type(value) is int and 0 <= value <= 3 else None


def _table_law(seats: list[SeatFigures], raw: Mapping[str, Any], settled: Mapping[str, Any]) -> None:
    """Count the hand's table-law events (rules.md §0.11) against their culprit: the `revoke` seat, a
    misdeal's dealer (the settled hand's `dealer`), a bidder who conceded."""
    revoke = _seat(raw.get("revoke"))
    if revoke is not None:
        seats[revoke].revokes += 1
    if raw.get("bid") == MISDEAL:
        dealer = _seat(settled.get("dealer"))
        if dealer is not None:
            seats[dealer].misdeals += 1
    if raw.get("conceded") == BIDDER_CONCEDED:
        bidder = _seat(raw.get("bidder"))
        if bidder is not None:
            seats[bidder].concessions += 1


def _misere_partout_losers(kind: str, transfers: Iterable[Mapping[str, Any]]) -> set[int]:
    if kind == "paid":  # American: whoever paid the misère partout
        return {t["from"] for t in transfers if t["reason"] == "contract" and t["from"] != POOL}
    # Fontainebleau: whoever took no share of the pool while others did
    sharers = {t["to"] for t in transfers if t["reason"] == "division" and t["from"] == POOL}
    return set(range(4)) - sharers if sharers else set()
