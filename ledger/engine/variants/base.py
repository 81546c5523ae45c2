"""What a variant supplies, and the hand checks every variant shares (`rules.md` §0.10).

A variant is one module with one `Variant` subclass: its options, its bid codes and field table, its
tables (as data), its deal order and its `settle_deal`. Replay, pools bookkeeping, transfer order,
conservation, closing and output are shared and never know which variant they run.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, ClassVar

from ..errors import INVALID_HAND, INVALID_OPTION, EngineError
from ..sheet import POOL, SUITS, Adjustment, Hand, Party, is_int, is_seat

R, O = "R", "O"  # required, optional; a field a bid does not list is forbidden

HAND_FIELDS = (
    "bid",
    "bidder",
    "trump",
    "partner",
    "turned",
    "tricks",
    "honours",
    "conceded",
    "jack",
    "revoke",
    "last_trick",
    "adjustments",
    "number",
)
TABLE_FIELDS = (
    "bidder",
    "trump",
    "partner",
    "turned",
    "tricks",
    "honours",
    "conceded",
    "jack",
    "revoke",
    "last_trick",
)
DEFAULTS: dict[str, Any] = {"conceded": False, "honours": 0, "tricks": [0, 0, 0, 0], "adjustments": []}
DISCARD_BIDS = frozenset({"little_misere", "little_spread", "piccolissimo"})
SUIT_LIST = "one of clubs, diamonds, hearts, spades"
ADJUSTMENT_KEYS = frozenset({"from", "to", "counters", "note"})


# --- options ---------------------------------------------------------------------------------------

OptionCheck = Callable[[Any], Any]


def option_error(name: str, message: str) -> EngineError:
    return EngineError(INVALID_OPTION, {f"rules.{name}": [message]})


def parse_options(raw: Mapping[str, Any], checks: Mapping[str, tuple[OptionCheck, Any]], cls: type) -> Any:
    """Build a variant's frozen options from `rules`: each check returns the value or raises ValueError."""
    for name in raw:
        if name not in checks:
            known = ", ".join(checks) or "none"
            raise option_error(name, f"`{name}` is not a house rule of this variant (known: {known})")
    values = {}
    for name, (check, default) in checks.items():
        if name in raw:
            try:
                values[name] = check(raw[name])
            except ValueError as exc:
                raise option_error(name, f"`rules.{name}`: {exc}") from None
        else:
            values[name] = default
    return cls(**values)


def int_at_least(low: int) -> OptionCheck:
    def check(value: Any) -> int:
        if not is_int(value) or value < low:
            raise ValueError(f"must be a whole number, {low} or more")
        return value

    return check


def one_of(*allowed: Any) -> OptionCheck:
    def check(value: Any) -> Any:
        if value not in allowed or any(type(value) is not type(a) for a in allowed if a == value):
            raise ValueError("must be one of " + ", ".join(repr(a) for a in allowed))
        return value

    return check


def boolean(value: Any) -> bool:
    if type(value) is not bool:
        raise ValueError("must be true or false")
    return value


# --- the deal being settled ------------------------------------------------------------------------


@dataclass(slots=True)
class Deal:
    """The working state of one deal: the variant records movements here, the replay orders them."""

    number: int
    dealer: int
    double: bool
    hand: Hand
    options: Any
    pools: Any
    moves: list[tuple[Party, Party, int, str]] = field(default_factory=list)

    def pay(self, frm: Party, to: Party, counters: int, reason: str) -> None:
        """Record one movement (from, to, counters, reason); a payment of 0 is not a transfer (§0.1)."""
        if counters:
            self.moves.append((frm, to, counters, reason))

    def pay_each(self, payers: tuple[int, ...] | list[int], to: Party, counters: int, reason: str) -> None:
        for seat in payers:
            self.pay(seat, to, counters, reason)

    def collect_from_each(self, payees: tuple[int, ...] | list[int], frm: Party, counters: int, reason: str) -> None:
        for seat in payees:
            self.pay(frm, seat, counters, reason)

    def divide_pool(self, seats: list[int] | tuple[int, ...], reason: str) -> None:
        """Equal division (G-2): each gets floor(P/k); the remainder stays in the pool."""
        share = self.pools.total // len(seats)
        for seat in seats:
            self.pay(POOL, seat, share, reason)
        self.pools.withdraw(share * len(seats))


def others(*seats: int) -> tuple[int, ...]:
    return tuple(s for s in (0, 1, 2, 3) if s not in seats)


def opposite(seat: int) -> int:
    return (seat + 2) % 4


def pairing(payers: tuple[int, int]) -> tuple[tuple[int, int], tuple[int, int]]:
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


def split_joint(amount: int) -> tuple[int, int]:
    """G-3: the caller pays ceil(A/2), the partner floor(A/2)."""
    return amount - amount // 2, amount // 2


# --- the variant -----------------------------------------------------------------------------------


class Variant:
    """Base of the four variants. Subclasses fill in the class attributes and `settle_deal`."""

    name: ClassVar[str]
    title: ClassVar[str]
    bids: ClassVar[tuple[str, ...]]
    fields: ClassVar[dict[str, dict[str, str]]]
    trick_bids: ClassVar[frozenset[str]]
    multi_pool: ClassVar[bool] = False
    no_trump: ClassVar[bool] = False
    deal_step: ClassVar[int] = 1  # 1: the deal passes to the left; 3: to the right

    # options and pools
    def parse_options(self, raw: Mapping[str, Any]) -> Any:
        raise NotImplementedError

    def check_pools(self, pools: tuple[int, ...], options: Any) -> None:
        """Carried-in pools against the options (American: the pool limit)."""

    def make_pools(self, carried_in: tuple[int, ...], options: Any) -> Any:
        from ..pools import SinglePool

        return SinglePool(carried_in)

    # the deals
    def dealer(self, first_dealer: int, number: int) -> int:
        return (first_dealer + self.deal_step * (number - 1)) % 4

    def is_double(self, number: int) -> bool:
        return False

    def game_limit_error(self, number: int, options: Any) -> str | None:
        """A message when deal `number` is past the game; None when it may be played."""
        return None

    def next_deal_allowed(self, number: int, options: Any) -> bool:
        return self.game_limit_error(number, options) is None

    def new_state(self) -> Any:
        """Per-session memory a variant needs across deals (belle, старшая); None by default."""
        return None

    # hand checks
    def forbidden_message(self, name: str, bid: str) -> str:
        return f"`{name}` must be absent: the bid {bid} does not use it"

    def required_message(self, name: str, bid: str) -> str:
        return f"`{name}` is required for {bid}: {_EXPECTED[name](self)}"

    def check_hand(self, hand: Hand, number: int, options: Any, state: Any) -> dict[str, list[str]]:
        """Variant rules on a well-typed hand; field -> messages."""
        return {}

    def required_option(self, hand: Hand, options: Any) -> tuple[str, str] | None:
        """(`rules.<name>`, message) when the hand needs an option the sheet does not set."""
        return None

    def settle_deal(self, deal: Deal, state: Any) -> None:
        raise NotImplementedError

    # shared machinery
    @cached_property
    def required_fields(self) -> dict[str, tuple[str, ...]]:
        return {bid: tuple(name for name, mode in table.items() if mode == R) for bid, table in self.fields.items()}

    def validate_hand(self, raw: Any, number: int, options: Any, state: Any) -> Hand:
        """All of a hand's checks but the adjustments against the pools (§0.10, step 2)."""
        limit = self.game_limit_error(number, options)
        if limit:
            raise EngineError(INVALID_HAND, {"hands": [limit]}, number)
        if type(raw) is not dict:
            raise EngineError(INVALID_HAND, {"hands": ["a hand must be a JSON object"]}, number)
        errors: dict[str, list[str]] = {}
        bid = raw.get("bid")
        table = self.fields.get(bid) if type(bid) is str else None
        slots = [bid, *_HAND_DEFAULTS]  # the Hand's fields in order, filled in place
        for name, value in raw.items():
            kind = _KINDS.get(name)
            if kind is _TABLE:
                if value is None:
                    continue
                if table is not None and name not in table:
                    default = DEFAULTS.get(name, _ABSENT)  # `false` is no 0 here: booleans are never integers
                    if value != default or type(value) is not type(default):
                        _add(errors, name, self.forbidden_message(name, bid))
                elif not _VALID[name](self, value):
                    _add(errors, name, f"`{name}` must be {_EXPECTED[name](self)}")
                else:
                    slots[_SLOT[name]] = tuple(value) if name == "tricks" else value
            elif kind is _NUMBER:
                if value is not None and (not is_int(value) or value != number):
                    _add(errors, "number", f"`number` must be {number}, this deal's place on the sheet")
            elif kind is _ADJUSTMENTS:
                slots[_SLOT["adjustments"]] = _parse_adjustments(value, errors)
            elif kind is None:
                _add(errors, name, f"`{name}` is not a field of a hand")
        if table is None:
            _add(errors, "bid", "`bid` must be one of " + ", ".join(self.bids))
        else:
            for name in self.required_fields[bid]:
                if raw.get(name) is None:
                    _add(errors, name, self.required_message(name, bid))
        if errors:
            raise EngineError(INVALID_HAND, errors, number)
        hand: Hand = _new(Hand, slots)  # tuple.__new__: the NamedTuple without its Python-level __new__
        if hand.partner is not None and hand.partner == hand.bidder:
            _add(errors, "partner", "`partner` must be another seat than the bidder")
        sum_error = self._tricks_sum_error(hand, table)
        if sum_error:
            _add(errors, "tricks", sum_error)
        for name, msgs in self.check_hand(hand, number, options, state).items():
            for msg in msgs:
                _add(errors, name, msg)
        if errors:
            raise EngineError(INVALID_HAND, errors, number)
        needed = self.required_option(hand, options)
        if needed:
            raise EngineError("option_required", {needed[0]: [needed[1]]}, number)
        return hand

    def _tricks_sum_error(self, hand: Hand, table: dict[str, str]) -> str | None:
        if "tricks" not in table:
            return None
        total = sum(hand.tricks)
        if hand.bid in DISCARD_BIDS:
            if total > 12:
                return f"the four seats' tricks must add up to at most 12 (one card is discarded), not {total}"
        elif hand.bid == "pass" or (hand.bid in self.trick_bids and not hand.conceded and hand.revoke is None):
            if total != 13:
                return f"the four seats' tricks must add up to 13, not {total}"
        elif total > 13:
            return f"the four seats' tricks must add up to at most 13, not {total}"
        return None


_ABSENT = object()
_TABLE, _NUMBER, _ADJUSTMENTS = "table", "number", "adjustments"
_KINDS = {**dict.fromkeys(TABLE_FIELDS, _TABLE), "number": _NUMBER, "adjustments": _ADJUSTMENTS, "bid": "bid"}


_SLOT = {name: i for i, name in enumerate(Hand._fields)}
_HAND_DEFAULTS = tuple(Hand._field_defaults[name] for name in Hand._fields[1:])
_new = tuple.__new__


def _add(errors: dict[str, list[str]], name: str, message: str) -> None:
    errors.setdefault(name, []).append(message)


def _valid_tricks(value: Any) -> bool:
    if not isinstance(value, list) or len(value) != 4:
        return False
    a, b, c, d = value
    return (
        type(a) is int
        and type(b) is int
        and type(c) is int
        and type(d) is int
        and 0 <= a <= 13
        and 0 <= b <= 13
        and 0 <= c <= 13
        and 0 <= d <= 13
    )


def _valid_trump(variant: Variant, value: Any) -> bool:
    return value in SUITS or (variant.no_trump and value == "none")


def _trump_expected(variant: Variant) -> str:
    return SUIT_LIST + (", or none for a no-trump bid" if variant.no_trump else "")


_VALID: dict[str, Callable[[Variant, Any], bool]] = {
    "bidder": lambda v, x: is_seat(x),
    "partner": lambda v, x: is_seat(x),
    "jack": lambda v, x: is_seat(x),
    "revoke": lambda v, x: is_seat(x),
    "last_trick": lambda v, x: is_seat(x),
    "trump": _valid_trump,
    "turned": lambda v, x: x in SUITS,
    "tricks": lambda v, x: _valid_tricks(x),
    "honours": lambda v, x: is_int(x) and x in (0, 3, 4),
    "conceded": lambda v, x: type(x) is bool,
}
_EXPECTED: dict[str, Callable[[Variant], str]] = {
    "bidder": lambda v: "a seat 0-3",
    "partner": lambda v: "a seat 0-3",
    "jack": lambda v: "a seat 0-3",
    "revoke": lambda v: "a seat 0-3",
    "last_trick": lambda v: "a seat 0-3",
    "trump": _trump_expected,
    "turned": lambda v: SUIT_LIST,
    "tricks": lambda v: "four integers from 0 to 13, the tricks each seat took",
    "honours": lambda v: "0, 3 or 4",
    "conceded": lambda v: "true or false",
}


def _party(value: Any) -> bool:
    return value == POOL or is_seat(value)


def _parse_adjustments(raw: Any, errors: dict[str, list[str]]) -> tuple[Adjustment, ...]:
    if raw is None:
        return ()
    if not isinstance(raw, list):
        _add(errors, "adjustments", "`adjustments` must be a list of {from, to, counters, note}")
        return ()
    out = []
    for i, item in enumerate(raw, 1):
        where = f"adjustment {i}"
        if not isinstance(item, dict) or set(item) != ADJUSTMENT_KEYS:
            extra = sorted(set(item) - ADJUSTMENT_KEYS) if isinstance(item, dict) else []
            why = f" (unknown: {', '.join(extra)})" if extra else ""
            _add(errors, "adjustments", f"{where} must have exactly from, to, counters and note{why}")
            continue
        frm, to, counters, note = item["from"], item["to"], item["counters"], item["note"]
        if not _party(frm) or not _party(to):
            _add(errors, "adjustments", f'{where}: `from` and `to` must be a seat 0-3 or "pool"')
        elif frm == to:
            _add(errors, "adjustments", f"{where}: `from` and `to` must differ")
        elif not is_int(counters) or counters <= 0:
            _add(errors, "adjustments", f"{where}: `counters` must be a whole number greater than 0")
        elif not isinstance(note, str) or not note.strip():
            _add(errors, "adjustments", f"{where}: `note` must say why, in words")
        else:
            out.append(Adjustment(frm, to, counters, note))
    return tuple(out)
