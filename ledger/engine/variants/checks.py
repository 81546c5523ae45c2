"""The hand checks every variant shares (`rules.md` §0.10): every broken field of a hand, named.

Each field is checked on its own first, against the bid's field table; the rules that tie fields
together (the trick sum, partner and bidder, the trump of a simple, the variant's own `check_hand`)
then run on the fields that are well formed, so one refusal names every broken field. The words of a
refusal are the variant's (`Variant.forbidden_message` and its kin); the order of the checks is here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from itertools import product
from typing import Any, NamedTuple, Protocol

from ..cards import SUIT_SYMBOLS, SUITS, Adjustment, Hand, is_int
from ..errors import INVALID_HAND, OPTION_REQUIRED, EngineError
from ..messages import GAME_WORDS, Message, Term, Words, text, words_or
from ..seats import POOL, SEATS, is_seat
from .declaration import ALL_PASS, BELLE_OR_PETITE, FORBIDDEN, MISDEAL, REQUIRED, TABLE_FIELDS, TRICKS, Bid, Declaration

Errors = dict[str, list[str]]  # field -> what is wrong with it, in the player's words
ADJUSTMENT_KEYS = frozenset({"from", "to", "counters", "note"})
SEAT_FIELDS = frozenset({"bidder", "partner", "jack", "revoke", "last_trick"})
TABLE_FIELD_NAMES = frozenset(TABLE_FIELDS)
NO_FIELDS: frozenset[str] = frozenset()
_TRICKS_SUM_FIELDS = frozenset({"tricks", "conceded", "revoke"})  # broken, they leave the trick sum unjudged
PAYS_INSTEAD = "bidder"  # `conceded: "bidder"`: the bidder pays instead of playing (rules.md §0.11)
DEFAULTS: dict[str, Any] = {
    "conceded": False,
    "honours": 0,
    "tricks": [0, 0, 0, 0],
    "adjustments": [],
    "ace_turned": False,
}


@dataclass(frozen=True, slots=True)
class Domain:
    """The values a hand field can take: those of `values` that are of `type`; with `trick_counts`,
    four whole numbers of tricks 0-13 instead (a list, which no set can hold)."""

    type: type
    values: frozenset[Any]
    trick_counts: bool = False


# Of type `object`, which no JSON value is exactly: the set test never sees a list (unhashable).
TRICK_COUNTS = Domain(object, frozenset(), trick_counts=True)


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
    pays_instead: bool = False  # `conceded` may be "bidder": he pays instead of playing (rules.md §0.11)


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
    # The variant's own rules (`check_hand`), or None when it has none: a call saved on every hand of
    # the variants without (bench/README.md, "The engine's devices").
    variant_rules: Callable[[Hand, int, Any, Any, AbstractSet[str], Errors], None] | None


class Variant(Protocol):
    """What the checks ask of the variant whose hand it is: its declaration and its words (`base.Variant`
    is one; the checks never import it, so that `base` may import them)."""

    @property
    def declaration(self) -> Declaration: ...
    @property
    def bids(self) -> tuple[str, ...]: ...
    @property
    def no_trump(self) -> bool: ...
    @property
    def domains(self) -> dict[str, Domain]: ...
    @property
    def switches(self) -> tuple[str, ...]: ...
    def game_limit_error(self, number: int, options: Any) -> str | None: ...
    def bid_label(self, bid: str) -> str: ...
    def invalid_message(self, name: str, bid: Bid | None) -> Message: ...
    def required_message(self, name: str, bid: Bid) -> Message: ...
    def forbidden_message(self, name: str, bid: Bid, options: Any) -> Message: ...


def domains(variant: Variant) -> dict[str, Domain]:
    """field -> the values it can take: seats, suits, honours 0, 3 or 4, yes or no, four trick counts."""
    trumps = (*SUITS, "none") if variant.no_trump else SUITS
    return {
        **dict.fromkeys(SEAT_FIELDS, Domain(int, frozenset(SEATS))),
        "trump": Domain(str, frozenset(trumps)),
        "turned": Domain(str, frozenset(SUITS)),
        "tricks": TRICK_COUNTS,
        "honours": Domain(int, frozenset((0, 3, 4))),
        "conceded": Domain(bool, frozenset((False, True))),
        "ace_turned": Domain(bool, frozenset((False, True))),
    }


def bid_checks(variant: Variant) -> dict[tuple[bool, ...], dict[str, BidCheck]]:
    """Each bid's `BidCheck`, for every setting of the variant's `switches`: worked out once per variant,
    not for each sheet (the figures: bench/README.md, "Instructions")."""
    declaration, fields = variant.declaration, variant.domains
    out = {}
    for flags in product((False, True), repeat=len(variant.switches)):
        options = declaration.options_class(**dict(zip(variant.switches, flags, strict=True)))
        checks = {}
        for bid in declaration.bids:
            modes = {name: bid.mode(name, options) for name in bid.fields}
            takes = {name: fields[name] for name, mode in modes.items() if mode != FORBIDDEN}
            takes["bid"] = Domain(str, frozenset((bid.code,)))
            required = tuple(name for name, mode in modes.items() if mode == REQUIRED)
            in_belle = bid.trumps == BELLE_OR_PETITE
            pays_instead = bid.code in declaration.pays_instead
            checks[bid.code] = BidCheck(
                bid, takes, required, frozenset(required), *_trick_sum(bid), in_belle, pays_instead
            )
        out[flags] = checks
    return out


def validate_hand(variant: Variant, raw: Any, number: int, state: Any, checks: HandChecks, deal: int = 0) -> Hand:
    """All of a hand's checks but the adjustments against the pools (§0.10, step 2), in the order a
    refusal names them: the game's limit, the fields one by one, the required ones, the rules that tie
    fields together, and last the house rule a bid needs.

    `number` is the hand's place in the sheet, `deal` the deal of the game it is (none given: the same);
    they differ after a misdeal, which is a hand but not a deal of the game (§0.11)."""
    deal = deal or number
    _check_game_limit(variant, number, deal, checks)
    if type(raw) is not dict:
        raise EngineError(INVALID_HAND, {"hands": [text("hand.not_object")]}, number)
    errors: Errors = {}
    check = _bid_check(variant, raw, checks, errors)
    values = _field_values(variant, raw, number, check, checks.options, errors)
    if check.bid is None:
        raise EngineError(INVALID_HAND, errors, number)
    _check_required(variant, raw, check, values, errors)
    hand = Hand(**values)
    broken = set(errors) if errors else NO_FIELDS
    extra = checks.extra_bid
    if extra is not None and (deal > checks.game_limit) != (check.bid is extra) and check.bid.kind != MISDEAL:
        _check_extra_deal(variant, check.bid, deal, extra, errors)
    _check_ties(variant, hand, check, deal, state, broken, errors)
    if checks.variant_rules is not None:
        checks.variant_rules(hand, deal, checks.options, state, broken, errors)
    if errors:
        raise EngineError(INVALID_HAND, errors, number)
    _check_option_needed(variant, check.bid, checks.options, number)
    return hand


def _check_game_limit(variant: Variant, number: int, deal: int, checks: HandChecks) -> None:
    """A deal past the game's last (American and Fontainebleau play 12, or 13 with the extra deal)."""
    if checks.last_deal is not None and deal > checks.last_deal:
        past_game = variant.game_limit_error(deal, checks.options)
        assert past_game is not None
        raise EngineError(INVALID_HAND, {"hands": [past_game]}, number)


def _bid_check(variant: Variant, raw: dict[str, Any], checks: HandChecks, errors: Errors) -> BidCheck:
    """The checks of the hand's bid; for a bid the variant does not know, the error and the checks that
    still apply to its fields (`unknown_bid`), so that one answer names everything wrong."""
    code = raw.get("bid")
    check = checks.bids.get(code) if type(code) is str else None
    if check is None:
        add_error(errors, "bid", text("hand.bid", bids=Words(variant.bid_label(c) for c in variant.bids)))
        return checks.unknown_bid
    return check


def _field_values(
    variant: Variant, raw: dict[str, Any], number: int, check: BidCheck, options: Any, errors: Errors
) -> dict[str, Any]:
    """Each field on its own: the value the hand keeps, or an error naming the field."""
    bid, takes = check.bid, check.takes
    values: dict[str, Any] = {}
    for name, value in raw.items():
        domain = takes.get(name)
        if domain is None:
            _check_other_field(variant, name, value, number, bid, options, values, errors)
        elif type(value) is domain.type and value in domain.values:  # a type check first: True is no seat
            values[name] = value
        elif value is None:
            continue
        elif name == "conceded" and value == PAYS_INSTEAD and check.pays_instead:
            values[name] = value
        elif domain.trick_counts and _valid_tricks(value):
            values[name] = tuple(value)
        else:
            add_error(errors, name, variant.invalid_message(name, bid))
    return values


def _check_required(
    variant: Variant, raw: dict[str, Any], check: BidCheck, values: dict[str, Any], errors: Errors
) -> None:
    """A required field missing (one that is there but broken is already named). A bidder who pays
    instead of playing gives no tricks (§0.11)."""
    if check.required_set <= values.keys():
        return
    assert check.bid is not None
    for name in check.required:
        if raw.get(name) is None and not (name == "tricks" and values.get("conceded") == PAYS_INSTEAD):
            add_error(errors, name, variant.required_message(name, check.bid))


def _check_ties(
    variant: Variant,
    hand: Hand,
    check: BidCheck,
    deal: int,
    state: Any,
    broken: AbstractSet[str],
    errors: Errors,
) -> None:
    """The rules that tie well-formed fields together: partner and bidder, paying instead of playing,
    the trick sum, belle. A field already refused is not judged again through another."""
    bid = check.bid
    assert bid is not None
    if hand.partner is not None and hand.partner == hand.bidder:
        add_error(errors, "partner", text("hand.partner_is_bidder"))
    if hand.conceded == PAYS_INSTEAD:
        if hand.partner is not None:
            add_error(errors, "conceded", text("hand.pays_instead_alone"))
        if hand.revoke is not None:
            add_error(errors, "revoke", text("hand.pays_instead_revoke"))
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
        assert state is not None  # a variant that plays in belle remembers it (`Variant.new_state`)
        belle, petite = state.suits_of(deal, hand.turned)
        if hand.trump not in (belle, petite):
            add_error(errors, "trump", _belle_message(variant, bid, deal, belle, petite, hand.trump))


def _check_option_needed(variant: Variant, bid: Bid, options: Any, number: int) -> None:
    """A bid the table plays only by a house rule: refused when the rule is not set or is off."""
    needs = getattr(options, bid.needs_option) if bid.needs_option else True
    if needs is None or needs is False:  # not set, or a boolean house rule that is off (Russian `solo`)
        assert bid.needs_option is not None
        rule = variant.declaration.option[bid.needs_option].named()
        key = "hand.option_off" if needs is False else "hand.option_required"
        message = text(key, bid=text(bid.label), option=rule)
        raise EngineError(OPTION_REQUIRED, {f"rules.{bid.needs_option}": [message]}, number)


def _check_other_field(
    variant: Variant,
    name: str,
    value: Any,
    number: int,
    bid: Bid | None,
    options: Any,
    values: dict[str, Any],
    errors: Errors,
) -> None:
    """A field that is not one of the bid's: forbidden by its table, the deal's number, the adjustments,
    the bid of an unknown bid, or no field at all."""
    if name in TABLE_FIELD_NAMES:  # a field this bid does not take (an unknown bid takes them all)
        assert bid is not None
        if value is not None and not _is_default(name, value):
            add_error(errors, name, variant.forbidden_message(name, bid, options))
    elif name == "bid":
        return
    elif name == "number":
        if value is not None and (not is_int(value) or value != number):
            add_error(errors, "number", text("hand.number", number=number))
    elif name == "adjustments":
        values["adjustments"] = _parse_adjustments(value, errors)
    else:
        add_error(errors, name, text("hand.unknown_field", name=name))


def _check_extra_deal(variant: Variant, bid: Bid, number: int, extra: Bid, errors: Errors) -> None:
    """The extra deal (American last-trick hand) is that bid, and that bid is only the extra deal."""
    deals = variant.declaration.deals
    assert deals.limit is not None and deals.extra_option is not None
    if number > deals.limit and bid.code != extra.code:
        add_error(errors, "bid", text("hand.extra_deal_bid", bid=text(extra.label)))
    elif number <= deals.limit and bid.code == extra.code:
        rule = variant.declaration.option[deals.extra_option].named()
        add_error(errors, "bid", text("hand.only_extra_deal", bid=text(extra.label), option=rule))


def _belle_message(variant: Variant, bid: Bid, number: int, belle: str, petite: str | None, trump: str) -> Message:
    names = {s: text("suit.named", suit=text(f"suit.{s}"), symbol=SUIT_SYMBOLS[s]) for s in SUITS}
    declaration = variant.declaration
    words = {k: Term(w, GAME_WORDS) for k, w in zip(("belle", "petite"), declaration.belle_words, strict=True)}
    label = text(bid.label)
    if petite is not None:
        suits = words_or([names[belle], names[petite]])
        return text("hand.trump_belle_or_petite", bid=label, suits=suits, trump=names[trump], **words)
    why = text("hand.why.first_deal" if number == 1 else "hand.why.belle_again", **words)
    return text("hand.trump_belle_only", bid=label, suits=names[belle], why=why, trump=names[trump], **words)


def _trick_sum(bid: Bid) -> tuple[int | None, bool]:
    """How a bid's four trick counts must add up (`rules.md` §0.10): (the most, whether exactly 13)."""
    if "tricks" not in bid.fields:
        return None, False
    if bid.discard:
        return 12, False  # one card is discarded
    return 13, bid.kind in (ALL_PASS, TRICKS)  # a misère may stop at its first trick


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
    """Four whole numbers 0-13 (a loop: `all()` over a generator costs more, bench/README.md)."""
    if type(value) is not list or len(value) != 4:
        return False
    for tricks in value:  # noqa: SIM110 (the docstring says why)
        if type(tricks) is not int or not 0 <= tricks <= 13:
            return False
    return True


def _party(value: Any) -> bool:
    return value == POOL or is_seat(value)


def _parse_adjustments(raw: Any, errors: Errors) -> tuple[Adjustment, ...]:
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
