"""What a variant supplies, and the hand checks every variant shares (`rules.md` §0.10).

A variant is one module with one `Variant` subclass: its options, its bid codes and field table, its
tables (as data), its deal order and its `settle_deal`. Replay, pools bookkeeping, transfer order,
conservation, closing and output are shared and never know which variant they run.
"""

from __future__ import annotations

from collections.abc import Mapping
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from functools import cached_property
from itertools import permutations, product
from typing import Any, ClassVar, NamedTuple

from ..errors import INVALID_HAND, OPTION_REQUIRED, EngineError
from ..messages import ENGLISH, Message, Term, Words, text, words_or
from ..pools import SinglePool
from ..sheet import POOL, SEATS, SUIT_SYMBOLS, SUITS, Adjustment, Hand, Party, is_int, is_seat
from .declaration import (
    ALL_PASS,
    BELLE_OR_PETITE,
    FORBIDDEN,
    REQUIRED,
    SUIT_OR_NONE,
    TABLE_FIELDS,
    TRICKS,
    Bid,
    Declaration,
)

Errors = dict[str, list[str]]  # field -> what is wrong with it, in the player's words
R, O = "R", "O"  # the field tables' short forms: required, optional
ADJUSTMENT_KEYS = frozenset({"from", "to", "counters", "note"})


# --- the deal being settled


@dataclass(slots=True)
class Belle:
    """The suit turned on deal 1 (French belle, Russian старшая), for the whole game."""

    suit: str | None = None

    def suits_of(self, number: int, turned: str) -> tuple[str, str | None]:
        """(belle, petite) of deal `number` with `turned` up: no petite on deal 1, nor when belle is turned again."""
        belle = turned if number == 1 or self.suit is None else self.suit
        petite = None if number == 1 or turned == belle else turned
        return belle, petite


REASONS = ("ante", "contract", "overtricks", "honours", "pool", "division", "jack", "penalty", "adjustment")
_SEAT_REASONS = frozenset({"contract", "overtricks", "honours", "penalty"})
PARTIES: tuple[Party, ...] = (0, 1, 2, 3, POOL)


Movement = tuple[Party, Party, str]  # from, to, reason
# A movement's place in §0.9's order (its step, payer, payee and reason, as ranks: a seat is its own
# rank, the pool 4), then the movement itself: sorting places sorts the movements.
Place = tuple[int, int, int, int, Party, Party, str]


def rank(party: Party) -> int:
    return 4 if party == POOL else party


def _order(frm: Party, to: Party, reason: str) -> Place | None:
    """A movement's place in the order of `rules.md` §0.9: its step (ante, seat-to-seat table payments,
    pool movements, the jack), then payer, payee and reason; None for a movement that fits no step."""
    if reason == "ante":
        step = 1
    elif reason == "jack":
        step = 4
    elif POOL in (frm, to):
        step = 3
    elif reason in _SEAT_REASONS:
        step = 2
    else:
        return None
    return step, rank(frm), rank(to), REASONS.index(reason), frm, to, reason


# Every movement's place, worked out once (one tuple per movement, shared by every deal).
ORDER: dict[Movement, Place] = {
    (frm, to, reason): place
    for frm in PARTIES
    for to in PARTIES
    for reason in REASONS[:-1]
    if frm != to and (place := _order(frm, to, reason)) is not None
}


# The same places by reason, payer and payee: a payment looks its place up with no tuple to build and
# hash (2 % of settle()'s time, American).
def _by_reason() -> dict[str, dict[Party, dict[Party, Place]]]:
    places: dict[str, dict[Party, dict[Party, Place]]] = {}
    for (frm, to, reason), place in ORDER.items():
        places.setdefault(reason, {}).setdefault(frm, {})[to] = place
    return places


PLACE = _by_reason()


@dataclass(slots=True)
class Deal:
    """The working state of one deal: the variant records movements here, the replay orders them.

    A payment only notes its place and amount; the replay sorts them, sums equal ones and each
    party's flow (by rank, in a list) in one pass. Keeping the payments in a dict by movement, and
    the flows in a dict by party, cost 7 % more time (bench/README.md, "Instructions")."""

    number: int
    dealer: int
    double: bool
    hand: Hand
    options: Any
    pools: Any
    moves: list[tuple[Place, int]]  # each movement's place and counters

    def pay(self, frm: Party, to: Party, counters: int, reason: str) -> None:
        """Record one movement; movements with the same from, to and reason add up; a payment of 0 is
        not a transfer (§0.1)."""
        if counters:
            self.moves.append((PLACE[reason][frm][to], counters))

    def pay_each(self, payers: tuple[int, ...] | list[int], to: Party, counters: int, reason: str) -> None:
        """Each of `payers` pays `to` the same amount."""
        if counters:
            moves, places = self.moves, PLACE[reason]
            for seat in payers:
                moves.append((places[seat][to], counters))

    def collect_from_each(self, payees: tuple[int, ...] | list[int], frm: Party, counters: int, reason: str) -> None:
        """`frm` pays each of `payees` the same amount."""
        if counters:
            moves, places = self.moves, PLACE[reason][frm]
            for seat in payees:
                moves.append((places[seat], counters))

    def pay_shared(self, payers: tuple[int, ...] | list[int], to: Party, amount: int, reason: str) -> None:
        """`amount` paid by one payer, or by two in the shares of G-3 (the first pays the odd counter)."""
        if len(payers) == 1:
            self.pay(payers[0], to, amount, reason)
        else:
            first, second = payers
            first_share, second_share = split_joint(amount)
            self.pay(first, to, first_share, reason)
            self.pay(second, to, second_share, reason)

    def divide_pool(self, seats: list[int] | tuple[int, ...], reason: str) -> None:
        """Equal division (G-2): each gets floor(P/k); the remainder stays in the pool."""
        share = self.pools.total // len(seats)
        for seat in seats:
            self.pay(POOL, seat, share, reason)
        self.pools.withdraw(share * len(seats))


# The dealers of a round of four deals, passing left (step 1) or right (step 3), from each first dealer.
ROUNDS = {step: {first: tuple((first + step * i) % 4 for i in SEATS) for first in SEATS} for step in (1, 3)}


def _others(seats: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(seat for seat in SEATS if seat not in seats)


# The other seats of each group of seats, listed once: a look-up rather than a tuple built for every
# call takes settle() from 135,900 to 130,300 instructions a hand (American; bench/README.md).
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
# every variant: pairing() looks for an adjacent pair's payees (12,000 instructions), the look-up
# costs about 500.
ADVERSARIES = {seat: others(seat) for seat in SEATS}
PAIRINGS: dict[tuple[int, ...], tuple[tuple[int, int], tuple[int, int]]] = {
    payers: pairing(payers) for payers in permutations(SEATS, 2)
}


def split_joint(amount: int) -> tuple[int, int]:
    """G-3: the caller pays ceil(A/2), the partner floor(A/2)."""
    return amount - amount // 2, amount // 2


@dataclass(frozen=True, slots=True)
class Domain:
    """The values a hand field can take: those of `values` that are of `type`."""

    type: type
    values: frozenset[Any]


# Four whole numbers of tricks 0-13, checked by `_valid_tricks`: no JSON value is exactly an `object`.
TRICKS_DOMAIN = Domain(object, frozenset())


@dataclass(frozen=True, slots=True)
class BidCheck:
    """What one bid asks of a hand under a sheet's rules: the table fields it takes, each with the values
    it can have (any other table field is forbidden), and of those the ones it needs. `bid` None: an
    unknown bid, whose fields are checked for their values only."""

    bid: Bid | None
    takes: Mapping[str, Domain]  # with `bid` itself, whose one value is the bid's code
    required: tuple[str, ...]
    required_set: frozenset[str]
    most_tricks: int | None  # the most the four trick counts may add up to (12: a discard); None: no tricks
    whole_deal: bool  # they must add up to 13, unless the deal was conceded or stopped by a revoke
    in_belle: bool  # a simple: played in belle or petite


class HandChecks(NamedTuple):
    """A sheet's rules as the hand checks use them: each bid's `BidCheck`, the last deal of the game
    (None: no limit), and the bid that only an extra deal past the game may have (None: no such deal).

    A NamedTuple, as one is made for every sheet: a frozen dataclass sets each field through a call."""

    options: Any
    bids: Mapping[str, BidCheck]
    unknown_bid: BidCheck
    last_deal: int | None
    extra_bid: Bid | None
    game_limit: int  # the last deal of the game without the extra one (when there is an extra deal)
    own_rules: bool  # whether the variant has hand rules of its own (`check_hand`)


# --- the variant -----------------------------------------------------------------------------------


class Variant:
    """Base of the variants. A subclass sets `declaration` and writes `settle_deal`; the rest is read from it."""

    declaration: ClassVar[Declaration]
    forbidden_ids: ClassVar[dict[str, str]] = {}  # field -> the message id saying why a bid forbids it
    required_ids: ClassVar[dict[str, str]] = {}  # field -> the message id asking for it, in the variant's words

    @property
    def name(self) -> str:
        return self.declaration.name

    @property
    def title(self) -> str:
        return self.declaration.title

    @cached_property
    def bids(self) -> tuple[str, ...]:
        return self.declaration.codes

    @cached_property
    def fields(self) -> dict[str, dict[str, str]]:
        """bid -> {field: R or O}; a field not listed is forbidden."""
        return {b.code: {name: mode[0].upper() for name, mode in b.fields.items()} for b in self.declaration.bids}

    @cached_property
    def trick_bids(self) -> frozenset[str]:
        return frozenset(b.code for b in self.declaration.bids if b.kind == TRICKS)

    @cached_property
    def domains(self) -> dict[str, Domain]:
        """field -> the values it can take: seats, suits, honours 0, 3 or 4, yes or no, four trick counts."""
        trumps = (*SUITS, "none") if self.no_trump else SUITS
        return {
            **dict.fromkeys(SEAT_FIELDS, Domain(int, frozenset(SEATS))),
            "trump": Domain(str, frozenset(trumps)),
            "turned": Domain(str, frozenset(SUITS)),
            "tricks": TRICKS_DOMAIN,
            "honours": Domain(int, frozenset((0, 3, 4))),
            "conceded": Domain(bool, frozenset((False, True))),
        }

    @property
    def multi_pool(self) -> bool:
        return self.declaration.pools != 1

    @cached_property
    def no_trump(self) -> bool:
        return any(b.trumps == SUIT_OR_NONE for b in self.declaration.bids)

    # options and pools
    def parse_options(self, raw: Mapping[str, Any]) -> Any:
        return self.declaration.parse_options(raw)

    def check_pools(self, pools: tuple[int, ...], options: Any) -> None:
        """Carried-in pools against the options (American: the pool limit)."""

    def make_pools(self, carried_in: tuple[int, ...], options: Any) -> Any:
        return SinglePool(carried_in)

    # the deals
    def dealer(self, first_dealer: int, number: int) -> int:
        return (first_dealer + self.declaration.deals.step * (number - 1)) % 4

    def dealers(self, first_dealer: int) -> tuple[int, ...]:
        """Who deals deals 1 to 4, and so on round the table: deal n is dealt by `[(n - 1) % 4]`."""
        return ROUNDS[self.declaration.deals.step][first_dealer]

    def is_double(self, number: int) -> bool:
        return self.declaration.deals.is_double(number)

    def game_limit_error(self, number: int, options: Any) -> str | None:
        """A message when deal `number` is past the game; None when it may be played."""
        deals = self.declaration.deals
        last = deals.last(options)
        if last is None or number <= last:
            return None
        if deals.extra_option and last == deals.limit:
            rule = self.declaration.option[deals.extra_option].named()
            return text("hand.past_game_extra", limit=deals.limit, option=rule)
        return text("hand.past_game", limit=last, number=number)

    def next_deal_allowed(self, number: int, options: Any) -> bool:
        return self.game_limit_error(number, options) is None

    @cached_property
    def plays_belle(self) -> bool:
        """Whether a bid is played in belle or petite, so that a game remembers deal 1's turned suit."""
        return any(b.trumps == BELLE_OR_PETITE for b in self.declaration.bids)

    def new_state(self) -> Belle | None:
        """What a game remembers across deals: belle (старшая) when a bid is played in belle or petite."""
        return Belle() if self.plays_belle else None

    def remember(self, state: Belle | None, hand: Hand, number: int) -> None:
        """After deal 1 is settled (the replay asks only then): its turned suit is belle for the whole game."""
        if state is not None and number == 1:
            state.suit = hand.turned

    def recall(self, first_hand: Any) -> Belle | None:
        """The memory of a game whose deal 1 was `first_hand` (a recorded, valid hand), or of none yet."""
        state = self.new_state()
        if state is not None and isinstance(first_hand, dict):
            state.suit = first_hand.get("turned")
        return state

    def legal_bids(self, number: int, options: Any, state: Belle | None) -> list[dict[str, Any]]:
        """The bids deal `number` may have under these options, each with its fields and the trumps allowed.

        `trumps_turned`: the deal's turned suit is allowed as well (a simple in belle or petite).
        """
        deals = self.declaration.deals
        extra = deals.extra_option is not None and deals.limit is not None and number == deals.limit + 1
        out = []
        for bid in self.declaration.bids:
            if deals.extra_bid is not None and (bid.code == deals.extra_bid) != extra:
                continue
            if bid.needs_option and getattr(options, bid.needs_option) is None:
                continue
            entry: dict[str, Any] = {
                "code": bid.code,
                "label": str(text(bid.label)),
                "fields": {name: bid.mode(name, options) for name in TABLE_FIELDS},
            }
            if bid.trumps == BELLE_OR_PETITE:
                belle = state.suit if state is not None and number > 1 else None
                entry["trumps"] = [belle] if belle else []
                entry["trumps_turned"] = True
            elif bid.trumps is not None:
                entry["trumps"] = list(SUITS) + (["none"] if bid.trumps == SUIT_OR_NONE else [])
            out.append(entry)
        return out

    # hand checks (rules.md §0.10): every broken field of a hand, then the option it needs
    def bid_label(self, bid: str) -> str:
        found = self.declaration.bid.get(bid)
        return text(found.label) if found else bid

    def field_words(self, name: str) -> Term:
        """A field's label inside a sentence: "Turned card" -> "turned card", "♦J" stays."""
        own = self.declaration.field_labels.get(name)
        if own:
            return Term(own, self.declaration.name, lowered=True)
        return Term(ENGLISH[f"field.{name}"], f"field.{name}", lowered=True)

    def forbidden_message(self, name: str, bid: Bid, options: Any) -> Message:
        needs = bid.field_options.get(name)
        if needs is not None and not getattr(options, needs) and name in bid.fields:
            rule = self.declaration.option[needs].named()
            return text("hand.forbidden.option", field=self.field_words(name), option=rule)
        if name in self.forbidden_ids:
            return text(self.forbidden_ids[name], bid=text(bid.label))
        return text("hand.forbidden", bid=text(bid.label), field=self.field_words(name))

    def check_hand(
        self, hand: Hand, number: int, options: Any, state: Any, broken: AbstractSet[str], errors: dict[str, list[str]]
    ) -> None:
        """A variant's own rules on the hand's well-formed fields (a broken field, named in `broken`, has its
        default in `hand`): each broken rule goes into `errors` with `add_error`."""

    def settle_deal(self, deal: Deal, state: Any) -> None:
        raise NotImplementedError

    @cached_property
    def switches(self) -> tuple[str, ...]:
        """The boolean house rules that decide whether a bid takes a field (Fontainebleau: honours)."""
        return tuple(sorted({name for bid in self.declaration.bids for name in bid.field_options.values()}))

    @cached_property
    def bid_checks(self) -> dict[tuple[bool, ...], dict[str, BidCheck]]:
        """Each bid's `BidCheck`, for every setting of the `switches`: worked out once per variant, not
        for each sheet (American settle(): 164,100 instructions a hand then, 130,300 now; Fontainebleau
        210,800 and 134,300; bench/README.md, "Instructions")."""
        domains = self.domains
        out = {}
        for flags in product((False, True), repeat=len(self.switches)):
            options = self.declaration.options_class(**dict(zip(self.switches, flags, strict=True)))
            checks = {}
            for bid in self.declaration.bids:
                modes = {name: bid.mode(name, options) for name in bid.fields}
                takes = {name: domains[name] for name, mode in modes.items() if mode != FORBIDDEN}
                takes["bid"] = Domain(str, frozenset((bid.code,)))
                required = tuple(name for name, mode in modes.items() if mode == REQUIRED)
                in_belle = bid.trumps == BELLE_OR_PETITE
                checks[bid.code] = BidCheck(bid, takes, required, frozenset(required), *_trick_sum(bid), in_belle)
            out[flags] = checks
        return out

    def hand_checks(self, options: Any) -> HandChecks:
        """What a hand must be under these rules."""
        flags = tuple(bool(getattr(options, name)) for name in self.switches)
        deals = self.declaration.deals
        extra_bid = self.declaration.bid[deals.extra_bid] if deals.extra_bid is not None else None
        limit = deals.limit if deals.limit is not None else 0
        own_rules = type(self).check_hand is not Variant.check_hand
        return HandChecks(
            options, self.bid_checks[flags], self.unknown_bid, deals.last(options), extra_bid, limit, own_rules
        )

    @cached_property
    def unknown_bid(self) -> BidCheck:
        return BidCheck(None, self.domains, (), frozenset(), None, False, False)

    def validate_hand(self, raw: Any, number: int, options: Any, state: Belle | None, checks: HandChecks) -> Hand:
        """All of a hand's checks but the adjustments against the pools (§0.10, step 2).

        Every field is checked on its own first; the rules that tie fields together (the trick sum,
        partner and bidder, the trump of a simple, the variant's own) then run on the fields that are
        well formed, so one refusal names every broken field.
        """
        if checks.last_deal is not None and number > checks.last_deal:
            past_game = self.game_limit_error(number, options)
            assert past_game is not None
            raise EngineError(INVALID_HAND, {"hands": [past_game]}, number)
        if type(raw) is not dict:
            raise EngineError(INVALID_HAND, {"hands": [text("hand.not_object")]}, number)
        errors: dict[str, list[str]] = {}
        code = raw.get("bid")
        check = checks.bids.get(code) if type(code) is str else None
        if check is None:
            add_error(errors, "bid", text("hand.bid", bids=Words(self.bid_label(c) for c in self.bids)))
            check = checks.unknown_bid  # the fields are still checked, as far as they can be without a bid
        bid, takes = check.bid, check.takes
        values: dict[str, Any] = {}
        for name, value in raw.items():
            domain = takes.get(name)
            if domain is None:
                self._check_other_field(name, value, number, bid, options, values, errors)
            elif type(value) is domain.type and value in domain.values:  # a type check first: True is no seat
                values[name] = value
            elif value is None:
                continue
            elif domain is TRICKS_DOMAIN and _valid_tricks(value):
                values[name] = tuple(value)
            else:
                add_error(errors, name, self._invalid_message(name, bid))
        if bid is None:
            raise EngineError(INVALID_HAND, errors, number)
        if not check.required_set <= values.keys():  # a required field missing (or broken: named above)
            for name in check.required:
                if raw.get(name) is None:
                    add_error(errors, name, self.required_message(name, bid))
        hand = Hand(**values)
        broken = set(errors) if errors else NO_FIELDS
        extra = checks.extra_bid
        if extra is not None and (number > checks.game_limit) != (bid is extra):
            self._check_extra_deal(bid, number, extra, errors)
        # The rules that tie well-formed fields together: partner and bidder, the trick sum, belle.
        if hand.partner is not None and hand.partner == hand.bidder:
            add_error(errors, "partner", text("hand.partner_is_bidder"))
        if check.most_tricks is not None and broken.isdisjoint(_TRICKS_SUM_FIELDS):
            total = sum(hand.tricks)
            if check.whole_deal and not hand.conceded and hand.revoke is None:
                if total != 13:
                    add_error(errors, "tricks", text("hand.tricks_sum", total=13, got=total))
            elif total > check.most_tricks:
                if bid.discard:
                    add_error(errors, "tricks", text("hand.tricks_sum_discard", got=total, bid=text(bid.label)))
                else:
                    add_error(errors, "tricks", text("hand.tricks_sum_most", total=13, got=total))
        if check.in_belle and hand.trump is not None and hand.turned is not None:
            belle, petite = (state or Belle()).suits_of(number, hand.turned)
            if hand.trump not in (belle, petite):
                add_error(errors, "trump", self._belle_message(bid, number, belle, petite, hand.trump))
        if checks.own_rules:
            self.check_hand(hand, number, options, state, broken, errors)
        if errors:
            raise EngineError(INVALID_HAND, errors, number)
        if bid.needs_option and getattr(options, bid.needs_option) is None:
            rule = self.declaration.option[bid.needs_option].named()
            message = text("hand.option_required", bid=text(bid.label), option=rule)
            raise EngineError(OPTION_REQUIRED, {f"rules.{bid.needs_option}": [message]}, number)
        return hand

    def _check_other_field(
        self, name: str, value: Any, number: int, bid: Bid | None, options: Any, values: dict[str, Any], errors: Errors
    ) -> None:
        """A field that is not one of the bid's: forbidden by its table, the deal's number, the adjustments,
        the bid of an unknown bid, or no field at all."""
        if name in TABLE_FIELD_NAMES:  # a field this bid does not take (an unknown bid takes them all)
            assert bid is not None
            if value is not None and not _is_default(name, value):
                add_error(errors, name, self.forbidden_message(name, bid, options))
        elif name == "bid":
            return
        elif name == "number":
            if value is not None and (not is_int(value) or value != number):
                add_error(errors, "number", text("hand.number", number=number))
        elif name == "adjustments":
            values["adjustments"] = _parse_adjustments(value, errors)
        else:
            add_error(errors, name, text("hand.unknown_field", name=name))

    def _check_extra_deal(self, bid: Bid, number: int, extra: Bid, errors: dict[str, list[str]]) -> None:
        """The extra deal (American last-trick hand) is that bid, and that bid is only the extra deal."""
        deals = self.declaration.deals
        assert deals.limit is not None and deals.extra_option is not None
        if number > deals.limit and bid.code != extra.code:
            add_error(errors, "bid", text("hand.extra_deal_bid", bid=text(extra.label)))
        elif number <= deals.limit and bid.code == extra.code:
            rule = self.declaration.option[deals.extra_option].named()
            add_error(errors, "bid", text("hand.only_extra_deal", bid=text(extra.label), option=rule))

    def _belle_message(self, bid: Bid, number: int, belle: str, petite: str | None, trump: str) -> Message:
        names = {s: text("suit.named", suit=text(f"suit.{s}"), symbol=SUIT_SYMBOLS[s]) for s in SUITS}
        words = {
            k: Term(w, self.declaration.name)
            for k, w in zip(("belle", "petite"), self.declaration.belle_words, strict=True)
        }
        label = text(bid.label)
        if petite is not None:
            suits = words_or([names[belle], names[petite]])
            return text("hand.trump_belle_or_petite", bid=label, suits=suits, trump=names[trump], **words)
        why = text("hand.why.first_deal" if number == 1 else "hand.why.belle_again", **words)
        return text("hand.trump_belle_only", bid=label, suits=names[belle], why=why, trump=names[trump], **words)

    def _trumps_text(self, bid: Bid | None) -> str:
        suits: list[str] = [text(f"suit.{s}") for s in SUITS]
        if (bid is None and self.no_trump) or (bid is not None and bid.trumps == SUIT_OR_NONE):
            suits.append(text("suit.none"))
        return words_or(suits)

    def required_message(self, name: str, bid: Bid) -> Message:
        if name in self.required_ids:
            return text(self.required_ids[name])
        if name == "trump":
            return text("hand.required.trump", trumps=self._trumps_text(bid))
        return text(f"hand.required.{name}")

    def _invalid_message(self, name: str, bid: Bid | None) -> Message:
        if name in SEAT_FIELDS:
            return text("hand.invalid.seat")
        if name == "trump":
            return text("hand.invalid.trump", trumps=self._trumps_text(bid))
        return text(f"hand.invalid.{name}")


NO_FIELDS: frozenset[str] = frozenset()


def _trick_sum(bid: Bid) -> tuple[int | None, bool]:
    """How a bid's four trick counts must add up (`rules.md` §0.10): (the most, whether exactly 13)."""
    if "tricks" not in bid.fields:
        return None, False
    if bid.discard:
        return 12, False  # one card is discarded
    return 13, bid.kind in (ALL_PASS, TRICKS)  # a misère may stop at its first trick


SEAT_FIELDS = frozenset({"bidder", "partner", "jack", "revoke", "last_trick"})
TABLE_FIELD_NAMES = frozenset(TABLE_FIELDS)
_TRICKS_SUM_FIELDS = frozenset({"tricks", "conceded", "revoke"})  # broken, they leave the trick sum unjudged
DEFAULTS: dict[str, Any] = {"conceded": False, "honours": 0, "tricks": [0, 0, 0, 0], "adjustments": []}


def _is_default(name: str, value: Any) -> bool:
    """A forbidden field may still be sent as its default, of its own type: `[0.0, 0, 0, 0]` is no `[0, 0, 0, 0]`."""
    if name not in DEFAULTS:
        return False
    return _same(value, DEFAULTS[name])


def _same(value: Any, default: Any) -> bool:
    if type(value) is not type(default):
        return False
    if isinstance(default, list):
        return len(value) == len(default) and all(_same(v, d) for v, d in zip(value, default, strict=True))
    return value == default


def add_error(errors: Errors, name: str, message: Message) -> None:
    """One more message for the field `name` of a refused hand."""
    errors.setdefault(name, []).append(message)


def _valid_tricks(value: Any) -> bool:
    """Four whole numbers 0-13 (a loop: `all()` over a generator cost 3,000 instructions a hand more,
    `set(map(type, value))` with `min` and `max` 2,000)."""
    if type(value) is not list or len(value) != 4:
        return False
    for tricks in value:  # noqa: SIM110 (the docstring says why)
        if type(tricks) is not int or not 0 <= tricks <= 13:
            return False
    return True


def _party(value: Any) -> bool:
    return value == POOL or is_seat(value)


def _parse_adjustments(raw: Any, errors: dict[str, list[str]]) -> tuple[Adjustment, ...]:
    if raw is None:
        return ()
    if not isinstance(raw, list):
        add_error(errors, "adjustments", text("hand.adjustments"))
        return ()
    out = []
    for i, item in enumerate(raw, 1):
        if not isinstance(item, dict) or set(item) != ADJUSTMENT_KEYS:
            add_error(errors, "adjustments", text("hand.adjustment.keys", i=i))
            continue
        frm, to, counters, note = item["from"], item["to"], item["counters"], item["note"]
        if not _party(frm) or not _party(to):
            add_error(errors, "adjustments", text("hand.adjustment.party", i=i))
        elif frm == to:
            add_error(errors, "adjustments", text("hand.adjustment.same", i=i))
        elif not is_int(counters) or counters <= 0:
            add_error(errors, "adjustments", text("hand.adjustment.counters", i=i))
        elif not isinstance(note, str) or not note.strip():
            add_error(errors, "adjustments", text("hand.adjustment.note", i=i))
        else:
            out.append(Adjustment(frm, to, counters, note))
    return tuple(out)
