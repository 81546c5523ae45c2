"""The API's own refusal words (api/exceptions.py, api/errors.py) and the ledger's fixed ones, in its catalog.

They live here, not in api/ or ledger/, so that `makemessages` files them with the engine's words
(ledger/i18n/locale) and not in the pages' catalog. `code`, `hand` and the field keys never change;
only these texts follow the request's language.
"""

from __future__ import annotations

import re
from functools import cache

from django.utils.translation import gettext, gettext_noop, pgettext, pgettext_lazy

IF_MATCH_REQUIRED = pgettext_lazy("api", 'this write needs If-Match: "<version>", the session version it was based on')
IDEMPOTENCY_KEY_REQUIRED = pgettext_lazy(
    "api", "recording a hand needs an Idempotency-Key header: a UUID the client generates"
)
IDEMPOTENCY_KEY_REQUIRED_PAYMENT = pgettext_lazy(
    "api", "recording a payment needs an Idempotency-Key header: a UUID the client generates"
)
IDEMPOTENCY_KEY_REQUIRED_SUBSTITUTE = pgettext_lazy(
    "api", "seating a substitute needs an Idempotency-Key header: a UUID the client generates"
)
IDEMPOTENCY_IN_FLIGHT = pgettext_lazy(
    "api", "the first request with this Idempotency-Key is still running: retry in a moment"
)
IDEMPOTENCY_KEY_REUSED = pgettext_lazy("api", "this Idempotency-Key was used with another body")
NOT_VALID = pgettext_lazy("api", "the request is not valid")
TOO_LARGE = pgettext_lazy("api", "the request body is larger than {limit} bytes")
NO_SUCH_RESOURCE = pgettext_lazy("api", "no such resource: {path}")
CSRF_FAILED = pgettext_lazy("api", "CSRF check failed: {reason}")
SERVER_ERROR = pgettext_lazy("api", "the server failed to answer; the error is logged")
SERVICE_UNAVAILABLE = pgettext_lazy(
    "api", "the service is unavailable for a moment: send the same request again shortly"
)
BAD_REQUEST = pgettext_lazy("api", "bad request")
FORBIDDEN = pgettext_lazy("api", "forbidden")

# The API's own fixed refusals of a field (its serializers' and views' words, api/): said by their
# English, context "api", by the one error handler (api/errors.py) through `ledger_text`.
API = (
    pgettext_lazy("api", "the score sheet is not valid JSON"),
    pgettext_lazy("api", "the score sheet is nested too deeply to be read"),
    pgettext_lazy("api", "strings must not contain NUL or lone surrogates (\\u0000, \\ud800)"),
    pgettext_lazy("api", "`currency` must be three capital letters (ISO 4217)"),
    pgettext_lazy("api", "`format` must be json or csv"),
    pgettext_lazy("api", "`month` must be YYYY-MM"),
    pgettext_lazy("api", "`year` must be YYYY"),
    pgettext_lazy("api", "`date_to` must not be before `date_from`"),
    pgettext_lazy("api", 'a party is a player id or "pool"'),
    pgettext_lazy("api", "log out with the device's `Authorization: Token <key>`"),
    # presets (issue 42)
    pgettext_lazy("api", "a session opened from a preset takes its variant, rules and stake from it"),
    pgettext_lazy("api", "choose a variant, or give a `preset`"),
    pgettext_lazy("api", "give `player` or `guest`, one of them"),
)

# The ledger's refusals whose text has no parameter (ledger/exceptions.py's defaults and the fixed
# ones raised by the services and selectors): translated by their English, context "ledger". A text
# with numbers in it is not here and stays English.
LEDGER = (
    pgettext_lazy("ledger", "the request is not valid"),
    pgettext_lazy("ledger", "not found"),
    pgettext_lazy("ledger", "your role in this club does not allow this"),
    pgettext_lazy("ledger", "the session is closed: reopen it first"),
    pgettext_lazy("ledger", "the session is open: only a closed session can be reopened"),
    pgettext_lazy("ledger", "only the last hand can be undone"),
    pgettext_lazy("ledger", "this deal can no longer be amended: claims lapse once the next deal is recorded"),
    pgettext_lazy("ledger", "the carried pools are already claimed by another session"),
    pgettext_lazy("ledger", "the session has changed since that version"),
    pgettext_lazy("ledger", "no such club"),
    pgettext_lazy("ledger", "no such session"),
    pgettext_lazy("ledger", "no such session in this club"),
    pgettext_lazy("ledger", "no such player"),
    pgettext_lazy("ledger", "no such variant"),
    pgettext_lazy("ledger", "no such payment in this club"),
    pgettext_lazy("ledger", "no such device token"),
    pgettext_lazy("ledger", "a player's statement is for the player and the club's treasurers"),
    pgettext_lazy("ledger", "a name must be a non-empty string"),
    pgettext_lazy("ledger", "a name must not contain control characters"),
    pgettext_lazy(
        "ledger", "a name must not contain invisible or direction characters (zero-width, soft hyphen, BOM, bidi marks)"
    ),
    pgettext_lazy(
        "ledger", "a name must not contain U+FFFD (�), the mark of text that was not UTF-8: save the file as UTF-8"
    ),
    pgettext_lazy("ledger", "the club already has a player of this name"),
    pgettext_lazy("ledger", "four different players, in seat order"),
    pgettext_lazy("ledger", "the four players must have different names"),
    pgettext_lazy("ledger", "only a closed session's carried pools can be claimed"),
    pgettext_lazy("ledger", "American pools go only to a session with several pools"),
    pgettext_lazy("ledger", "a single pool goes only to a single-pool variant"),
    pgettext_lazy("ledger", "carried pools are claimed at the same stake as the session that carried them"),
    pgettext_lazy("ledger", '`pools` must be "divide" or "carry"'),
    pgettext_lazy("ledger", "`closed_at` is only for a sheet with `close`"),
    pgettext_lazy("ledger", "`closed_at` must be an ISO 8601 date or date and time"),
    pgettext_lazy("ledger", "`closed_at` must be an ISO 8601 date (2025-03-14) or date and time with offset"),
    pgettext_lazy("ledger", "`closed_at` may not be in the future"),
    pgettext_lazy("ledger", 'a party is a player id of the club or "pool"'),
    pgettext_lazy("ledger", "this party has no money in the club's ledger"),
    pgettext_lazy("ledger", "a payment goes from one party to another"),
    # the club night (issue 37)
    pgettext_lazy("ledger", "no such night"),
    pgettext_lazy("ledger", "the tables of this night are drawn already"),
    pgettext_lazy("ledger", "a table needs four players checked in"),
    pgettext_lazy("ledger", "a draw is by lot or by rating"),
    pgettext_lazy("ledger", "a seed is a whole number from 0 to 2^53 - 1"),
    pgettext_lazy("ledger", "a date is written YYYY-MM-DD"),
    pgettext_lazy("ledger", "a player is named by his id"),
    pgettext_lazy("ledger", "the room is settled once every table is closed"),
    pgettext_lazy("ledger", "no table has been drawn tonight"),
    pgettext_lazy("ledger", "a payment is tied to one evening's transfer or one night's, not both"),
    # cut-ins (issue 37)
    pgettext_lazy("ledger", "the tables of this night are not drawn yet"),
    pgettext_lazy("ledger", "no such table tonight"),
    pgettext_lazy("ledger", "nobody waits to cut in"),
    pgettext_lazy("ledger", "as many players cut in as wait, four at most"),
    pgettext_lazy("ledger", "a cut-in waits for the end of the game: the 12th deal"),
    pgettext_lazy("ledger", "a cut-in waits for the end of the partie: the 40th deal"),
    pgettext_lazy("ledger", "players cut out by the longest seated or by lot"),
    pgettext_lazy("ledger", "the game is the table's game number the cut-in closes"),
    pgettext_lazy("ledger", "this table has moved on to its next game: read the night again"),
    # the whole table (issue 25)
    pgettext_lazy("ledger", "a deal is disputed: the treasurer resolves or overrules each dispute before the close"),
    pgettext_lazy("ledger", "only a player seated at this table confirms or disputes its deals"),
    pgettext_lazy("ledger", "say in a few words what is not right"),
    pgettext_lazy("ledger", "a check is confirmed or disputed"),
    pgettext_lazy("ledger", '`outcome` must be "resolved" or "overruled"'),
    pgettext_lazy("ledger", "this dispute is already settled"),
    pgettext_lazy("ledger", "a note is a string"),
    pgettext_lazy("ledger", "a label is a string"),
    pgettext_lazy("ledger", "a seat is 0, 1, 2 or 3"),
    pgettext_lazy("ledger", "no such seat link"),
    pgettext_lazy("ledger", "no such board link"),
    # a club's time zone (issue 26)
    pgettext_lazy("ledger", "the time zone must be an IANA name such as Europe/Paris"),
    # presets (issue 42)
    pgettext_lazy("ledger", "no such preset in this club"),
    pgettext_lazy("ledger", "the club already has a preset of this name"),
    pgettext_lazy("ledger", "choose a variant"),
    # seasons (issue 41)
    pgettext_lazy("ledger", "a season needs a name"),
    pgettext_lazy("ledger", "a season ends on or after the day it starts"),
    pgettext_lazy("ledger", "name the variants the season counts, each once"),
    pgettext_lazy("ledger", "a season is measured by counters or by money"),
    pgettext_lazy(
        "ledger", "counters of different variants are different units: a season by counters counts one variant"
    ),
    pgettext_lazy("ledger", "a season by money names its currency (three capital letters)"),
    pgettext_lazy("ledger", "the club already has a season of this name"),
    pgettext_lazy("ledger", "no such season in this club"),
    # a substitute mid-game (issue 37)
    pgettext_lazy("ledger", "this seat already changes hands at the next deal"),
    pgettext_lazy("ledger", "name the substitute: a player of the club or a new guest"),
    pgettext_lazy(
        "ledger", "before the first deal the players are changed by opening the table again, not by a substitute"
    ),
    # the club's payment details and the evening's mail (issue 41)
    pgettext_lazy("ledger", "the payment details are text"),
    pgettext_lazy("ledger", "this text is too long for the field"),
    pgettext_lazy("ledger", "the IBAN is not valid: check its country, its length and its check digits"),
    pgettext_lazy("ledger", "the BIC is not valid: 8 or 11 letters and digits"),
    pgettext_lazy("ledger", "the account number has 20 digits"),
    pgettext_lazy("ledger", "the BIK has 9 digits"),
    pgettext_lazy("ledger", "the correspondent account has 20 digits"),
    pgettext_lazy("ledger", "the e-mail address is not valid"),
    pgettext_lazy("ledger", "the language is English (en), French (fr) or Russian (ru)"),
)

# The ledger's refusals with a number or a name in them, as the services word them: matched against the
# English text and said again with the same values (`{name}` takes any text). Context-free entries
# (`gettext_noop`: Django's makemessages knows no `pgettext_noop`), in this package's catalog.
TEMPLATES = (
    gettext_noop("deal {number} is already recorded: the next deal is {expected}"),
    gettext_noop("the session is at version {version}, not {expected}"),
    gettext_noop("If-Match names {given}, but the session is at version {version}"),
    gettext_noop("If-Match names {given}, but the preset is at version {version}"),
    gettext_noop("the preset is at version {version}, not {expected}"),
    gettext_noop("If-Match names {given}, but the season is at version {version}"),
    gettext_noop("the season is at version {version}, not {expected}"),
    gettext_noop("`{name}` is a whole number from {low} to {high}"),
    gettext_noop("a season's dates lie in the years {first} to {last}"),
    gettext_noop("the session has no hand {number}"),
    gettext_noop("seat {seat} already changes hands at deal {number}"),
    gettext_noop("{name} is already seated at this table"),
    gettext_noop("only the last hand ({last}) can be undone, not {number}"),
    gettext_noop(
        "deal {number} can no longer be amended: under the house rule “Claims lapse” a deal stands once the next "
        "one is recorded (deal {next} is); a treasurer can record the correction as an adjustment into the basket "
        "on the next deal"
    ),
    gettext_noop("session {session}'s carried pools are already claimed"),
    gettext_noop("session {session} claimed the pools this session carried"),
    gettext_noop("session {session} carried no pools"),
    gettext_noop("this needs the role {role} or above in the club; yours is {found}"),
    gettext_noop("`number` must be {expected}, the next deal of the session"),
    gettext_noop("`number` must be {number}, the hand's number"),
    gettext_noop("a movement above {limit} counters"),
    gettext_noop("an amount above {limit} cannot be stored"),
    gettext_noop("a session has at most {limit} hands"),
    gettext_noop("a name has at most {limit} characters"),
    gettext_noop(
        "“{name}” looks like “{other}”, already a player of the club: use that name,"
        " or a name told apart at a glance (add an initial)"
    ),
    gettext_noop("the four players must have names told apart at a glance: “{name}” looks like “{other}”"),
    gettext_noop("no player {player} in this club"),
    gettext_noop("role must be one of {roles}"),
    gettext_noop("status must be one of {statuses}"),
    gettext_noop("payment {payment} is already reversed"),
    # a night is paid once (issue 37, follow-up): a table's own payments or the room's, never both
    gettext_noop(
        "table {number} is paid with the room of the night of {date}: a payment is recorded there, and it counts"
        " this table already, so paying the table's own transfers would pay twice; record the payments on the"
        " night's settlement"
    ),
    gettext_noop(
        "night {night} has no transfer from this payer to this payee: the room leaves out the tables paid on their own"
    ),
    # `ledger.money.services._overpay_text` (issue 38): the overpayment refusal, tied to an evening or not.
    gettext_noop(
        "this evening's transfer leaves {owed} to pay, less than {cents}: recorded, the payer's balance goes"
        " from {payer_before} to {payer_after} and the payee's from {payee_before} to {payee_after};"
        " send `overpay: true` to record it"
    ),
    gettext_noop(
        "the payer owes the payee {owed} to pay, less than {cents}: recorded, the payer's balance goes"
        " from {payer_before} to {payer_after} and the payee's from {payee_before} to {payee_after};"
        " send `overpay: true` to record it"
    ),
    gettext_noop("cents must be a whole number from 1 to {limit}"),
    gettext_noop("`{name}` is not a field of this request"),
    gettext_noop("`{name}` must be a whole number, 1 or more"),
    gettext_noop("`{name}` must be a date from the year {first} to {last}"),
    gettext_noop("`{name}` goes with period={same}, not period={period}"),
    gettext_noop("`{name}` must be in the years {first} to {last}"),
    gettext_noop("adjustment {i}: `note` has at most {limit} characters"),
    gettext_noop("deal {number} is disputed by seat {seat}"),
    gettext_noop("no open dispute of seat {seat} on deal {number}"),
    gettext_noop("a reason has at most {limit} characters"),
    gettext_noop("a note has at most {limit} characters"),
    gettext_noop(
        "the club has sessions in several currencies in this period: choose one with `currency` ({currencies})"
    ),
)


@cache
def _patterns() -> tuple[tuple[re.Pattern[str], str], ...]:
    out = []
    for template in TEMPLATES:
        pattern = re.sub(r"\\\{(\w+)\\\}", r"(?P<\1>.+?)", re.escape(template))
        out.append((re.compile(pattern + r"\Z"), template))
    return tuple(out)


def ledger_text(english: str) -> str:
    """A ledger or API refusal's text in the active language (itself when the catalog does not have it)."""
    for context in ("ledger", "api"):
        said = pgettext(context, english)
        if said != english:
            return said
    for pattern, template in _patterns():
        found = pattern.match(english)
        if found:
            values = {name: _value_words(name, value) for name, value in found.groupdict().items()}
            return gettext(template).format(**values)
    return english


ROLE_VALUES = ("role", "found")  # the parameters that hold a club role's code


def _value_words(name: str, value: str) -> str:
    """A parameter in words where it is a code with words of its own (a club role: the pages' catalog,
    context "role"), else as it is (a number, a currency code)."""
    if name in ROLE_VALUES and value in ("player", "scorer", "treasurer", "admin"):
        return pgettext("role", value)
    return value
