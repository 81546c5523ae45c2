"""Every label and refusal the engine words, as a message id with parameters and its English text.

One table (`ENGLISH`) holds the source text of every id, so a later translation replaces the table's
text per language and keeps the ids. A `Message` is a `str` (the English, parameters filled in) that
also carries its id and parameters: callers that only show text need nothing else, a translator
reads `.id` and `.params`.
"""

from __future__ import annotations

from typing import Any


class Message(str):
    """English text that remembers the message id and the parameters it was built from."""

    id: str
    params: dict[str, Any]

    def __new__(cls, message_id: str, **params: Any) -> Message:
        text = super().__new__(cls, with_article(ENGLISH[message_id], params.get("bid")).format(**params))
        text.id = message_id
        text.params = params
        return text

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild, (self.id, self.params))


def with_article(template: str, bid: object) -> str:
    """English says "an eight", "an all pass": a template's "a {bid}" takes "an" before a bid said with a vowel."""
    if bid is not None and str(bid)[:1].lower() in "aeiou":
        return template.replace("a {bid}", "an {bid}")
    return template


def _rebuild(message_id: str, params: dict[str, Any]) -> Message:
    return Message(message_id, **params)


def text(message_id: str, **params: Any) -> Message:
    return Message(message_id, **params)


class Words(str):
    """Items joined for a player to read ("a, b" in English), keeping the items so a translator joins its own.

    An item is a `Message`, a `Term` or a code (a JSON key, a house rule's name) that stays as it is.
    """

    items: tuple[str, ...]

    def __new__(cls, items: Any, sep: str = ", ") -> Words:
        items = tuple(items)
        words = super().__new__(cls, sep.join(items))
        words.items = items
        return words

    def __reduce__(self) -> tuple[Any, ...]:
        return (Words, (self.items,))


class Term(str):
    """A word of a variant's declaration that is not a message id (a label of its own, belle's name).

    `context` names where a translator finds it (the variant's name); `lowered`: its first letter is
    lowered inside a sentence ("Turned card" -> "turned card").
    """

    context: str
    source: str
    lowered: bool

    def __new__(cls, source: str, context: str, lowered: bool = False) -> Term:
        term = super().__new__(cls, source[:1].lower() + source[1:] if lowered else source)
        term.context, term.source, term.lowered = context, source, lowered
        return term

    def __reduce__(self) -> tuple[Any, ...]:
        return (Term, (self.source, self.context, self.lowered))


ENGLISH: dict[str, str] = {
    # --- hand fields, as a player names them ------------------------------------------------------
    "field.bid": "Bid",
    "field.bidder": "Bidder",
    "field.trump": "Trump",
    "field.partner": "Partner",
    "field.turned": "Turned card",
    "field.tricks": "Tricks",
    "field.honours": "Honours",
    "field.conceded": "Conceded",
    "field.jack": "Bonus jack",
    "field.revoke": "Revoke",
    "field.last_trick": "Last trick",
    "field.ace_turned": "Ace turned",
    "field.adjustments": "Adjustments",
    "field.number": "Deal number",
    # --- refusals of a hand (rules.md §0.10) -------------------------------------------------------
    "hand.not_object": "this deal is not a hand: each entry of the hands must be an object",
    "hand.unknown_field": "{name} is not part of a hand: leave it out",
    "hand.bid": "choose a bid: {bids}",
    "hand.number": "this is deal {number}: correct the deal number or leave it out",
    "hand.required.bidder": "choose who bid",
    "hand.required.trump": "choose the trump: {trumps}",
    "hand.required.partner": "choose the partner",
    "hand.required.turned": "choose the suit of the turned card",
    "hand.required.tricks": "enter the tricks each player took",
    "hand.required.jack": "choose who held the bonus jack",
    "hand.required.last_trick": "choose who won the last trick",
    "hand.invalid.seat": "choose one of the four players",
    "hand.invalid.trump": "choose the trump: {trumps}",
    "hand.invalid.turned": "choose the suit of the turned card: clubs, diamonds, hearts or spades",
    "hand.invalid.tricks": "enter four whole numbers of tricks, each from 0 to 13",
    "hand.invalid.honours": "honours are 0, 3 or 4",
    "hand.invalid.conceded": "say yes or no: did the adversaries concede?",
    "hand.invalid.ace_turned": "say yes or no: did the dealer turn up an ace?",
    "hand.option_off": "a {bid} is not played under these house rules: {option} is off",
    "hand.invalid.conceded_or_bidder": (
        "say yes or no (did the adversaries concede?), or bidder when the bidder paid instead of playing"
    ),
    "hand.forbidden": "a {bid} does not use the {field}: leave it empty",
    "hand.forbidden.option": "the {field} counts only with the house rule {option}: leave it empty",
    "hand.partner_is_bidder": "the partner must be another player than the bidder",
    "hand.pays_instead_alone": "only a bidder playing alone may pay instead of playing: leave the partner empty",
    "hand.pays_instead_revoke": "the bidder paid instead of playing, so nobody revoked: leave the revoke empty",
    "hand.tricks_sum": "the four seats' tricks must add up to {total}, not {got}",
    "hand.tricks_sum_most": "the four seats' tricks must add up to at most {total}, not {got}",
    "hand.tricks_sum_discard": (
        "the four seats' tricks must add up to at most 12, not {got}: one card is discarded in a {bid}"
    ),
    "hand.trump_belle_or_petite": "a {bid} is played in {belle} or {petite}: {suits} this deal, not {trump}",
    "hand.trump_belle_only": "a {bid} is played in {belle}: {suits} this deal ({why}), not {trump}",
    "hand.why.first_deal": "the first deal has no {petite}",
    "hand.why.belle_again": "{belle} was turned again",
    "hand.only_extra_deal": "a {bid} is only the last deal, played with the house rule {option}",
    "hand.extra_deal_bid": "this last deal is the {bid}: choose it as the bid",
    "hand.past_game": "the game is {limit} deals: there is no deal {number}",
    "hand.past_game_extra": "the game is {limit} deals, and a last one only with the house rule {option}",
    "hand.option_required": "a {bid} needs the house rule {option}: set its amounts when opening the session",
    "hand.honours_no_trump": "honours count only with a trump suit: leave them at 0 in no trump",
    "hand.adjustments": "each adjustment needs who pays, who receives, how many counters and a note",
    "hand.adjustment.keys": "adjustment {i} needs exactly who pays, who receives, how many counters and a note",
    "hand.adjustment.party": "adjustment {i}: choose a player or the pool on each end",
    "hand.adjustment.same": "adjustment {i}: who pays and who receives must differ",
    "hand.adjustment.counters": "adjustment {i}: enter a whole number of counters, more than 0",
    "hand.adjustment.note": "adjustment {i}: say why in the note",
    "hand.adjustment.pool": "adjustment {i} takes {counters} from the pool, which holds {held}",
    # --- refusals of a sheet ------------------------------------------------------------------------
    "sheet.not_object": "a score sheet must be a JSON object",
    "sheet.unknown_key": "{key} is not part of a score sheet: leave it out",
    "sheet.required": "the score sheet needs its {key}",
    "sheet.format": "the format must be {format}",
    "sheet.variant": "choose a variant: {variants}",
    "sheet.players": "give the names of the four players, by seat",
    "sheet.first_dealer": "choose the first dealer, one of the four players",
    "sheet.pools": "the pools are a list of whole counter amounts, each 0 or more",
    "sheet.one_pool": "{title} has one pool: give at most one amount",
    "sheet.pool_limit": "a carried-in pool holds more than the pool limit of {limit}",
    "sheet.hands": "the hands must be a list",
    "sheet.rules": "the house rules must be an object of rule names and values",
    "sheet.stake": "the stake needs exactly a currency and the value of one counter",
    "sheet.stake.currency": "the stake's currency is three capital letters, such as EUR",
    "sheet.stake.per_counter": (
        "the value of one counter is a decimal such as 0.01: digits 0-9, a point and at most 6 decimals"
    ),
    "sheet.stake.positive": "the value of one counter must be more than 0",
    "sheet.close": "closing takes the pools divided or carried",
    "sheet.close.pools": "the pools are divided or carried at the close",
    "sheet.substitutions": "each substitution gives a seat, the player who sits there and the deal from which",
    "sheet.substitutions.seat": "a substitute takes one of the four seats, 0 to 3",
    "sheet.substitutions.player": "give the substitute's name",
    "sheet.substitutions.from": "a substitute sits from a deal between 2 and {last}, in the order played",
    "sheet.substitutions.twice": "seat {seat} already changes hands at deal {number}",
    "sheet.substitutions.seated": "{player} is already seated at this table",
    # --- refusals of a house rule --------------------------------------------------------------------
    "option.named": "“{label}”",  # a house rule inside a sentence: its label, quoted
    "option.unknown": "{name} is not a house rule of this variant (its rules: {known})",
    "option.choice": "{label}: choose one of {choices}",
    "option.integer": "{label}: enter a whole number, {minimum} or more",
    "option.integer_or_none": "{label}: enter a whole number, {minimum} or more, or leave it empty",
    "option.integer_range": "{label}: enter a whole number from {minimum} to {maximum}",
    "option.boolean": "{label}: say yes or no",
    "option.object": "{label}: give {parts}",
    "option.part": "{label}: {part} must be a whole number, {minimum} or more",
    # --- shared words ---------------------------------------------------------------------------------
    "suit.clubs": "clubs",
    "suit.diamonds": "diamonds",
    "suit.hearts": "hearts",
    "suit.spades": "spades",
    "suit.none": "no trump",
    "suit.named": "{suit} {symbol}",
    "seat": "seat {seat}",
    "words.or": "{first} or {last}",
    "option.per_suit": "{parts} amounts for each of {suits}",
}


def words_or(items: list[str]) -> str:
    """'a, b or c' for a player to read (a `Message`, so a translator joins the items its own way)."""
    if not items:
        return ""
    if len(items) == 1:
        return items[0]
    return text("words.or", first=Words(items[:-1]), last=items[-1])


# The catalogs' contexts (docs/i18n.md, "The engine's words"): an id's entry is `pgettext(context, english)`.
# An id registered without a context is its own context; a variant's words are registered under the
# word's meaning, so that the same English meaning the same thing is one entry whichever variant says it.
GAME_WORDS = "game"  # a word of the game as a variant declares it: a bid's label, a table's title, a fact
HOUSE_RULE = "house rule"  # a house rule's label
HOUSE_RULE_HELP = "house rule, help"
CHOICE = "house rule, choice"  # one of a house rule's choices in words ("American" order, not the title)
REFUSAL = "refusal"  # why a hand is refused, in a variant's words
ANTE = "ante"  # who antes what, as the rules page says it
CONTEXTS: dict[str, str] = {}  # id -> its catalog context, when it is not the id itself


def context_of(message_id: str) -> str:
    """The context of an id's catalog entry: the meaning it was registered with, else the id."""
    return CONTEXTS.get(message_id, message_id)


_KINDS = {"bid": GAME_WORDS, "option": HOUSE_RULE, "forbidden": REFUSAL, "required": REFUSAL, "ante": ANTE}


def kind_of(message_id: str) -> str:
    """The context a variant's id has by its shape: `<variant>.bid.*` a word of the game,
    `<variant>.option.*` a house rule's label (`….help` its help), `<variant>.forbidden.*` and
    `….required.*` a refusal, `<variant>.ante` the ante; any other id is its own context."""
    parts = message_id.split(".")
    if len(parts) < 2 or parts[1] not in _KINDS:
        return message_id
    if parts[1] == "option" and parts[-1] == "help":
        return HOUSE_RULE_HELP
    return _KINDS[parts[1]]


def register(messages: dict[str, str], context: str | None = None) -> None:
    """A variant module's own ids (its labels and help), added to the one table, each under `context`
    or, by default, the context of its kind (`kind_of`): the word's meaning, which every variant saying
    the same English shares. A word one variant means differently is registered with a context of its own."""
    for key, value in messages.items():
        if ENGLISH.get(key, value) != value:
            raise ValueError(f"message id {key} already has another text")
        ENGLISH[key] = value
        CONTEXTS[key] = context or kind_of(key)
