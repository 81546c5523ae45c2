"""The score sheet and the settlement as types, and the checks of the sheet's own fields.

`scoresheet.md` is the contract. A sheet is parsed once into a frozen `Sheet`; its hands stay the raw
JSON objects the scorer posted and are checked one by one, in deal order, by the replay, because the
rules a hand must obey depend on the deals before it (belle, the pools, the game limit).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Literal, NamedTuple, TypedDict

from .cards import is_int
from .deal import TransferJSON
from .errors import sheet_error
from .messages import GAME_WORDS, Term, Words, text
from .seats import is_seat
from .stints import Substitution
from .variants import VARIANTS, find_variant

SHEET_FORMAT = "clubscore-sheet/1"
SETTLEMENT_FORMAT = "clubscore-settlement/1"

SHEET_KEYS = (
    "format",
    "variant",
    "rules",
    "players",
    "first_dealer",
    "pools",
    "stake",
    "hands",
    "close",
    "substitutions",
)
REQUIRED_SHEET_KEYS = ("format", "variant", "players", "first_dealer", "hands")
# ASCII digits only ("1٠" is no 10); at most 9 before the point: money is stored in 64 bits.
_PER_COUNTER = re.compile(r"[0-9]{1,9}(\.[0-9]{1,6})?")
_CURRENCY = re.compile(r"[A-Z]{3}")


class Stake(NamedTuple):
    currency: str
    per_counter: Decimal


@dataclass(frozen=True, slots=True)
class Close:
    pools: Literal["divide", "carry"] = "divide"


class Sheet(NamedTuple):
    """A parsed score sheet, its hands still raw (see the module's docstring).

    An immutable record; a NamedTuple as `Hand` is, because one is built for every settle(): it costs
    less than half a frozen dataclass of these nine fields (bench/README.md).
    """

    variant: str
    options: Any
    rules: dict[str, Any]
    players: tuple[str, str, str, str]
    first_dealer: int
    pools: tuple[int, ...]
    stake: Stake | None
    hands: tuple[Any, ...]
    close: Close | None
    substitutions: tuple[Substitution, ...] = ()  # who sat where from which hand (issue 37)


class SettledHand(TypedDict):
    """A deal as the engine settled it, as the settlement JSON of `scoresheet.md` holds it: its transfers
    in the order of §0.9 and the state after it.

    A plain dict, since every caller wants the JSON: a record with the same fields, turned into JSON
    afterwards, cost a fifth of settle()'s time per hand (bench/README.md).
    """

    number: int
    dealer: int
    double: bool
    transfers: list[TransferJSON]
    deltas: list[int]  # the four seats'
    pool_delta: int
    balances: list[int]  # the four seats'
    pools: list[int]


_STAKE_KEYS = frozenset({"currency", "per_counter"})
_CLOSE_KEYS = frozenset({"pools"})
_SHEET_KEYS = frozenset(SHEET_KEYS)
_REQUIRED_SHEET_KEYS = frozenset(REQUIRED_SHEET_KEYS)


def parse_stake(raw: Any) -> Stake:
    if not isinstance(raw, dict) or raw.keys() != _STAKE_KEYS:
        raise sheet_error("stake", text("sheet.stake"))
    currency, per_counter = raw["currency"], raw["per_counter"]
    if not isinstance(currency, str) or not _CURRENCY.fullmatch(currency):
        raise sheet_error("stake", text("sheet.stake.currency"))
    if not isinstance(per_counter, str) or not _PER_COUNTER.fullmatch(per_counter):
        raise sheet_error("stake", text("sheet.stake.per_counter"))
    value = Decimal(per_counter)
    if not value:  # the pattern has no sign: zero is the one amount that is not positive
        raise sheet_error("stake", text("sheet.stake.positive"))
    return Stake(currency, value)


# The two ways to close, built once (a Close is frozen) rather than for every sheet.
_CLOSES = {"divide": Close("divide"), "carry": Close("carry")}


def parse_close(raw: Any) -> Close:
    if not isinstance(raw, dict) or not raw.keys() <= _CLOSE_KEYS:
        raise sheet_error("close", text("sheet.close"))
    pools = raw.get("pools", "divide")
    if not isinstance(pools, str) or pools not in _CLOSES:
        raise sheet_error("close", text("sheet.close.pools"))
    return _CLOSES[pools]


_SUBSTITUTION_KEYS = frozenset({"seat", "player", "from"})


def parse_substitutions(raw: Any, players: list[str], hands: int) -> tuple[Substitution, ...]:
    """The seat history (issue 37): `[{"seat", "player", "from"}]`, in the order of `from`; from hand
    `from` (2 to the hand after the last) `player` sits at `seat`. Nobody sits at two seats at once, and
    a seat is taken by someone other than who holds it."""
    if not isinstance(raw, list):
        raise sheet_error("substitutions", text("sheet.substitutions"))
    seated = list(players)
    out: list[Substitution] = []
    for item in raw:
        if not isinstance(item, dict) or item.keys() != _SUBSTITUTION_KEYS:
            raise sheet_error("substitutions", text("sheet.substitutions"))
        seat, player, first = item["seat"], item["player"], item["from"]
        if not is_seat(seat):
            raise sheet_error("substitutions", text("sheet.substitutions.seat"))
        if not isinstance(player, str) or not player.strip():
            raise sheet_error("substitutions", text("sheet.substitutions.player"))
        if not is_int(first) or not 2 <= first <= hands + 1 or (out and first < out[-1].first):
            raise sheet_error("substitutions", text("sheet.substitutions.from", last=hands + 1))
        if any(s.seat == seat and s.first == first for s in out):
            raise sheet_error("substitutions", text("sheet.substitutions.twice", seat=seat, number=first))
        if player in seated:
            raise sheet_error("substitutions", text("sheet.substitutions.seated", player=player))
        seated[seat] = player
        out.append(Substitution(seat, player, first))
    return tuple(out)


def parse_sheet(raw: Any) -> Sheet:
    """Check the sheet's own fields, its rules and its pools (`rules.md` §0.10, step 1).

    A right sheet costs one pass per check (a set comparison, a plain loop); the key-by-key search
    runs only to name what is wrong.
    """
    if not isinstance(raw, dict):
        raise sheet_error("sheet", text("sheet.not_object"))
    if not raw.keys() <= _SHEET_KEYS:
        for key in raw:  # the first unknown key, in the sheet's order
            if key not in _SHEET_KEYS:
                raise sheet_error(key, text("sheet.unknown_key", key=key))
    if not raw.keys() >= _REQUIRED_SHEET_KEYS:
        for key in REQUIRED_SHEET_KEYS:
            if key not in raw:
                raise sheet_error(key, text("sheet.required", key=key))
    if raw["format"] != SHEET_FORMAT:
        raise sheet_error("format", text("sheet.format", format=SHEET_FORMAT))
    name = raw["variant"]
    try:
        variant = find_variant(name)
    except ValueError:
        raise sheet_error("variant", text("sheet.variant", variants=Words(v.name for v in VARIANTS))) from None
    players = raw["players"]
    if not isinstance(players, list) or len(players) != 4:
        raise sheet_error("players", text("sheet.players"))
    for player in players:
        if not isinstance(player, str) or not player.strip():
            raise sheet_error("players", text("sheet.players"))
    first_dealer = raw["first_dealer"]
    if not is_seat(first_dealer):
        raise sheet_error("first_dealer", text("sheet.first_dealer"))
    pools = raw.get("pools")
    if pools is None:
        pools = []
    if not isinstance(pools, list):
        raise sheet_error("pools", text("sheet.pools"))
    for pool in pools:
        if not is_int(pool) or pool < 0:
            raise sheet_error("pools", text("sheet.pools"))
    if len(pools) > 1 and not variant.multi_pool:
        raise sheet_error("pools", text("sheet.one_pool", title=Term(variant.title, GAME_WORDS)))
    stake = raw.get("stake")
    if stake is not None:
        stake = parse_stake(stake)
    hands = raw["hands"]
    if not isinstance(hands, list):
        raise sheet_error("hands", text("sheet.hands"))
    close = raw.get("close")
    if close is not None:
        close = parse_close(close)
    rules = raw.get("rules")
    if rules is None:
        rules = {}
    if not isinstance(rules, dict):
        raise sheet_error("rules", text("sheet.rules"))  # invalid_sheet: the sheet's own field (rules.md §0.10)
    options = variant.parse_options(rules)
    substitutions: tuple[Substitution, ...] = ()
    if raw.get("substitutions") is not None:
        substitutions = parse_substitutions(raw["substitutions"], players, len(hands))
    carried_in = tuple(pools)
    variant.check_pools(carried_in, options)
    return Sheet(
        variant=variant.name,  # an alias (its French or Russian name) is kept as the code
        options=options,
        rules=dict(rules),
        players=tuple(players),
        first_dealer=first_dealer,
        pools=carried_in,
        stake=stake,
        hands=tuple(hands),
        close=close,
        substitutions=substitutions,
    )
