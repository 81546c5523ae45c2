"""What a variant supplies: the `Variant` base, which reads a variant's declaration.

A variant is one module with one `Variant` subclass: its declaration (options, bid codes and field
table, tables as data, deal order) and its `settle_deal`. The replay (`replay.py`), the order of a
deal's movements (`deal.py`), the hand checks (`checks.py`), pools bookkeeping, closing and output are
shared and never know which variant they run.
"""

from __future__ import annotations

from collections.abc import Mapping
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from functools import cached_property
from typing import Any, ClassVar

from ..cards import SUITS, Hand
from ..deal import Deal
from ..messages import ENGLISH, GAME_WORDS, Message, Term, text, words_or
from ..pools import SinglePool
from ..seats import ROUNDS
from . import checks
from .checks import SEAT_FIELDS, BidCheck, Domain, Errors, HandChecks
from .declaration import BELLE_OR_PETITE, MISDEAL, SUIT_OR_NONE, TABLE_FIELDS, TRICKS, Bid, Declaration

BELLE_DEAL = 1  # the deal whose turned suit is belle (старшая) for the rest of the game


@dataclass(slots=True)
class Belle:
    """The suit turned on deal 1 (French belle, Russian старшая), for the whole game."""

    suit: str | None = None

    def suits_of(self, number: int, turned: str) -> tuple[str, str | None]:
        """(belle, petite) of deal `number` with `turned` up: no petite on deal 1, nor when belle is turned again."""
        belle = turned if number == 1 or self.suit is None else self.suit
        petite = None if number == 1 or turned == belle else turned
        return belle, petite


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
        """bid -> {field: "R" (required) or "O" (optional)}, the short forms the scorer's page reads; a
        field not listed is forbidden."""
        return {b.code: {name: mode[0].upper() for name, mode in b.fields.items()} for b in self.declaration.bids}

    @cached_property
    def trick_bids(self) -> frozenset[str]:
        return frozenset(b.code for b in self.declaration.bids if b.kind == TRICKS)

    @cached_property
    def domains(self) -> dict[str, Domain]:
        """field -> the values it can take (`checks.domains`)."""
        return checks.domains(self)

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
        """After each deal is settled: deal 1's turned suit is belle for the whole game."""
        if number == BELLE_DEAL and state is not None:
            state.suit = hand.turned

    def belle_of(self, number: int, state: Belle | None) -> dict[str, Any] | None:
        """Where deal `number` finds belle, None when no bid is played in belle: `deal`, the deal whose
        turned suit it is (deal `deal` itself has none yet: its turned suit sets it), and `suit` when the
        game knows it (that deal recorded)."""
        if not self.plays_belle:
            return None
        return {"deal": BELLE_DEAL, "suit": state.suit if state is not None and number > BELLE_DEAL else None}

    def recall(self, first_hand: Any) -> Belle | None:
        """The memory of a game whose deal 1 was `first_hand` (a recorded, valid hand), or of none yet."""
        state = self.new_state()
        if state is not None and isinstance(first_hand, dict) and first_hand.get("bid") != MISDEAL:
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
            if deals.extra_bid is not None and (bid.code == deals.extra_bid) != extra and bid.kind != MISDEAL:
                continue
            needs = getattr(options, bid.needs_option) if bid.needs_option else True
            if needs is None or needs is False:  # not set, or a boolean house rule that is off
                continue
            entry: dict[str, Any] = {
                "code": bid.code,
                "label": str(text(bid.label)),
                "fields": {name: bid.mode(name, options) for name in TABLE_FIELDS},
            }
            if bid.trumps == BELLE_OR_PETITE:
                belle = state.suit if state is not None and number > BELLE_DEAL else None
                entry["trumps"] = [belle] if belle else []
                entry["trumps_turned"] = True
                entry["belle_trump"] = True
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
            return Term(own, GAME_WORDS, lowered=True)
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
        self, hand: Hand, number: int, options: Any, state: Any, broken: AbstractSet[str], errors: Errors
    ) -> None:
        """A variant's own rules on the hand's well-formed fields (a broken field, named in `broken`, has its
        default in `hand`): each broken rule goes into `errors` with `checks.add_error`. None here."""

    def settle_deal(self, deal: Deal, state: Any) -> None:
        raise NotImplementedError

    @cached_property
    def switches(self) -> tuple[str, ...]:
        """The boolean house rules that decide whether a bid takes a field (Fontainebleau: honours)."""
        return tuple(sorted({name for bid in self.declaration.bids for name in bid.field_options.values()}))

    @cached_property
    def bid_checks(self) -> dict[tuple[bool, ...], dict[str, BidCheck]]:
        """Each bid's `BidCheck` for every setting of the `switches` (`checks.bid_checks`)."""
        return checks.bid_checks(self)

    def hand_checks(self, options: Any) -> HandChecks:
        """What a hand must be under these rules."""
        flags = tuple(bool(getattr(options, name)) for name in self.switches)
        deals = self.declaration.deals
        extra_bid = self.declaration.bid[deals.extra_bid] if deals.extra_bid is not None else None
        limit = deals.limit if deals.limit is not None else 0
        own = self.check_hand if type(self).check_hand is not Variant.check_hand else None
        return HandChecks(options, self.bid_checks[flags], self.unknown_bid, deals.last(options), extra_bid, limit, own)

    @cached_property
    def unknown_bid(self) -> BidCheck:
        return BidCheck(None, self.domains, (), frozenset(), None, False, False)

    def validate_hand(self, raw: Any, number: int, options: Any, state: Belle | None, hand_checks: HandChecks) -> Hand:
        """All of a hand's checks but the adjustments against the pools (`checks.validate_hand`)."""
        return checks.validate_hand(self, raw, number, state, hand_checks)

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

    def invalid_message(self, name: str, bid: Bid | None) -> Message:
        if name in SEAT_FIELDS:
            return text("hand.invalid.seat")
        if name == "trump":
            return text("hand.invalid.trump", trumps=self._trumps_text(bid))
        if name == "conceded" and bid is not None and bid.code in self.declaration.pays_instead:
            return text("hand.invalid.conceded_or_bidder")
        return text(f"hand.invalid.{name}")
