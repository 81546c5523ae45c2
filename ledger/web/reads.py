"""Reads the pages need, composed from `ledger.selectors` and scoped the same way: what a user sees comes
from club membership only, and another club's object is `NotFound`.

Every number here is one the engine already produced (a session's balances, its settlement, its
closing); nothing is computed but sums of those numbers and their order.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext, pgettext, pgettext_lazy

from ledger import selectors
from ledger.currency import money_text
from ledger.engine.variants import get_variant
from ledger.engine.variants.checks import SEAT_FIELDS
from ledger.engine.variants.declaration import BELLE_OR_PETITE, TABLE_FIELDS
from ledger.engine.variants.table_law import MISDEAL_CODE
from ledger.exceptions import NotFound
from ledger.i18n import field_label, prose
from ledger.models import Player, Session
from ledger.money.selectors import TransferPaid
from ledger.selectors import Reader

from .catalog import SUIT_SYMBOLS, bid_label
from .deal_notes import DealNote, deal_notes, forfeiting, game_deals


def player_get(*, user: Reader, player_id: int) -> Player:
    player = Player.objects.select_related("club").filter(pk=player_id).first()
    if player is None:
        raise NotFound("no such player")
    try:
        selectors.club_role(user=user, club_id=player.club_id)
    except NotFound:
        raise NotFound("no such player") from None
    return player


@dataclass
class SessionResult:
    session: Session
    seat: int
    players: list[str]
    counters: int  # close.final when closed, else the running balance
    final: bool
    money: int | None = None
    currency: str | None = None


@dataclass
class PlayerResults:
    rows: list[SessionResult]
    counters_by_variant: dict[str, int] = field(default_factory=dict)
    sessions_by_variant: dict[str, int] = field(default_factory=dict)
    money_by_currency: dict[str, int] = field(default_factory=dict)
    series: dict[str, list[dict[str, Any]]] = field(default_factory=dict)


def _stints_result(session: Session, player: Player, closing: dict[str, Any]) -> SessionResult:
    """The player's result in a closed session whose seats changed hands: his stints' counters and money."""
    parties = selectors.closing_players(session=session)
    mine = [i for i, p in enumerate(parties) if p.pk == player.pk]
    stints = closing["stints"]
    row = SessionResult(
        session=session,
        seat=stints[mine[0]]["seat"],
        players=[p.name for p in selectors.seated_now(session=session)],
        counters=sum(stints[i]["final"] for i in mine),
        final=True,
    )
    if "money" in closing:
        row.money, row.currency = sum(closing["money"][i] for i in mine), closing["currency"]
    return row


def player_results(*, user: Reader, player: Player) -> PlayerResults:
    """The sessions the player sat in, newest first, with his result in each (from the engine's closing)."""
    rows = []
    for session in selectors.session_list(user=user, player=player.pk):
        players = selectors.session_players(session=session)
        closing = session.closing if session.status == Session.Status.CLOSED else None
        if closing and "stints" in closing:  # a seat changed hands (issue 37): his own stints
            rows.append(_stints_result(session, player, closing))
            continue
        seat = next((i for i, p in enumerate(players) if p.pk == player.pk), None)
        if seat is None:  # a substitute at a table still open: his seat now, its balance so far
            players = selectors.seated_now(session=session)
            seat = next(i for i, p in enumerate(players) if p.pk == player.pk)
        row = SessionResult(
            session=session,
            seat=seat,
            players=[p.name for p in players],
            counters=closing["final"][seat] if closing else session.balances[seat],
            final=closing is not None,
        )
        if closing and "money" in closing:
            row.money, row.currency = closing["money"][seat], closing["currency"]
        rows.append(row)
    out = PlayerResults(rows)
    closed = sorted((r for r in rows if r.final), key=lambda r: (r.session.closed_at, r.session.pk))
    counters: dict[str, int] = defaultdict(int)
    for r in closed:
        variant = r.session.variant
        counters[variant] += r.counters
        out.sessions_by_variant[variant] = out.sessions_by_variant.get(variant, 0) + 1
        out.series.setdefault(variant, []).append(
            {
                "session": r.session.pk,
                "date": r.session.closed_at.date().isoformat() if r.session.closed_at else "",
                "counters": r.counters,
                "total": counters[variant],
            }
        )
        if r.money is not None and r.currency:
            out.money_by_currency[r.currency] = out.money_by_currency.get(r.currency, 0) + r.money
    out.counters_by_variant = dict(counters)
    return out


# --- the score sheet and the settlement ------------------------------------------------------------


# Why counters moved (the engine's REASONS), in words: the sheet's title on each deal.
REASON_WORDS = {
    "ante": pgettext_lazy("transfer", "ante"),
    "contract": pgettext_lazy("transfer", "contract"),
    "overtricks": pgettext_lazy("transfer", "over-tricks"),
    "honours": pgettext_lazy("transfer", "honours"),
    "pool": pgettext_lazy("transfer", "pool"),
    "division": pgettext_lazy("transfer", "pool divided"),
    "jack": pgettext_lazy("transfer", "jack of diamonds"),
    "penalty": pgettext_lazy("transfer", "penalty"),
    "adjustment": pgettext_lazy("transfer", "adjustment"),
}


def reason(code: str) -> str:
    return str(REASON_WORDS.get(code, code))


def trump_text(trump: Any) -> str:
    """The trump as the sheet shows it: the suit's symbol, or the language's "no trump" (NT, SA, БК)."""
    if not trump:
        return ""
    if trump == "none":
        return pgettext("no trump, short", "NT")
    return SUIT_SYMBOLS.get(trump, "")


def transfer_text(transfer: dict[str, Any], names: list[str]) -> str:
    """One movement of counters in words: `Ann → Ben 40 (contract)`."""
    frm, to = party_name(transfer["from"], names), party_name(transfer["to"], names)
    return f"{frm} → {to} {transfer['counters']} ({reason(transfer['reason'])})"


def party_name(party: Any, names: list[str]) -> str:
    return pgettext("the pot of counters", "pool") if party == "pool" else names[party]


@dataclass
class SheetRow:
    number: int
    dealer: str
    double: bool
    bidder: str
    partner: str
    bid: str
    trump: str
    tricks: str
    tricks_all: str
    deltas: list[int]
    balances: list[int]
    pools: list[int]
    pool_delta: int
    transfers: list[str]
    conceded: bool = False
    entered: list[tuple[str, str]] = field(default_factory=list)  # the other fields the scorer entered
    notes: list[DealNote] = field(default_factory=list)  # its table-law events in words (rules.md §0.11)
    misdeal: bool = False  # a hand of the sheet that passed the deal, not a deal of the game
    game_deal: int | None = None  # the deal of the game, where a misdeal made it differ from `number`
    next_dealer: str = ""  # a misdeal's: who deals next (the deal moved on)

    @property
    def note(self) -> str:
        """The row's events in one line: the score sheet's note, its CSV's column."""
        return " · ".join(n.text for n in self.notes)


def sheet_rows(
    *,
    session: Session,
    names: list[str],
    settlement: dict[str, Any],
    raws: dict[int, Any] | None = None,
    dealers: dict[int, int] | None = None,
) -> list[SheetRow]:
    """Every deal of the session: what was played (the hand as recorded) and what the engine settled.
    `raws` (each hand as recorded, by number) and `dealers` (by number), when the caller has them: a
    live change carries its rows with the earlier hands' misdeals and deal 1 (ledger/live.py)."""
    hands = raws if raws is not None else {h.number: h.raw for h in selectors.hand_list(session=session)}
    deal_of = game_deals(hands)
    if dealers is None:
        dealers = {h["number"]: h["dealer"] for h in settlement["hands"]}
    forfeits = forfeiting(hands, session.rules, dealers)
    variant = get_variant(session.variant)
    options = variant.parse_options(session.rules or {})  # once for the sheet, not once a deal
    rows = []
    for settled in settlement["hands"]:
        raw = hands.get(settled["number"], {})
        misdeal = raw.get("bid") == MISDEAL_CODE
        game = deal_of.get(settled["number"], settled["number"])
        bidder = raw.get("bidder")
        partner = raw.get("partner")
        tricks = raw.get("tricks")
        side = [s for s in (bidder, partner) if s is not None]
        rows.append(
            SheetRow(
                number=settled["number"],
                dealer=names[settled["dealer"]],
                double=settled["double"],
                bidder=names[bidder] if bidder is not None else "",
                partner=names[partner] if partner is not None else "",
                bid=bid_label(session.variant, raw.get("bid", "")),
                trump=trump_text(raw.get("trump")),
                tricks="+".join(str(tricks[s]) for s in side) if tricks and side else "",
                tricks_all=" · ".join(str(t) for t in tricks) if tricks else "",
                deltas=settled["deltas"],
                balances=settled["balances"],
                pools=settled["pools"],
                pool_delta=settled["pool_delta"],
                conceded=raw.get("conceded") is True,  # "bidder" is paying instead of playing: a note says it
                transfers=[transfer_text(t, names) for t in settled["transfers"]],
                entered=entered_fields(
                    session.variant, raw, names, None if settled["number"] == 1 else hands.get(1, {}).get("turned")
                ),
                notes=deal_notes(
                    variant=session.variant,
                    rules=session.rules,
                    first_dealer=session.first_dealer,
                    raw=raw,
                    settled=settled,
                    names=names,
                    forfeits=forfeits.get(settled["number"], frozenset()),
                    options=options,
                ),
                misdeal=misdeal,
                game_deal=game if game != settled["number"] and not misdeal else None,
                next_dealer=names[variant.dealer(session.first_dealer, settled["number"] + 1)] if misdeal else "",
            )
        )
    return rows


# The fields a deal's words already say ("Ann seven ♥, partner Ben · tricks 5 · 4 · 2 · 2 (conceded)").
_IN_WORDS = frozenset({"bidder", "trump", "partner", "tricks", "conceded"})


def entered_fields(variant: str, raw: dict[str, Any], names: list[str], belle: str | None) -> list[tuple[str, str]]:
    """Every other field of the deal that its bid declares and the scorer entered, labelled as the
    variant names it (♦J, Бостон, the turned card), so that a follower can check the whole deal (issue 38,
    item 7). Read from the declaration's field table: a new variant's field shows with no change here.
    `belle`: deal 1's turned suit, None on deal 1 itself."""
    declaration = get_variant(variant).declaration
    bid = declaration.bid.get(raw.get("bid", ""))
    if bid is None:
        return []
    out = []
    for name in TABLE_FIELDS:
        if name in _IN_WORDS or bid.fields.get(name) is None or raw.get(name) is None:
            continue
        value = raw[name]
        if name in SEAT_FIELDS:
            said = names[value]
        elif name == "turned":
            said = turned_text(declaration, value, belle)
        elif isinstance(value, bool):
            said = gettext("yes") if value else gettext("no")
        else:
            said = str(value)
        out.append((field_label(declaration, name), said))
    for adjustment in raw.get("adjustments") or []:
        frm, to = party_name(adjustment["from"], names), party_name(adjustment["to"], names)
        note = f" ({adjustment['note']})" if adjustment.get("note") else ""
        out.append((field_label(declaration, "adjustments"), f"{frm} → {to} {adjustment['counters']}{note}"))
    return out


def turned_text(declaration: Any, suit: str, belle: str | None) -> str:
    """The turned card's suit, and where the variant plays in belle and petite (старшая, младшая), which
    of the two it is: deal 1's is belle for the whole game, a later deal's its petite."""
    symbol = SUIT_SYMBOLS.get(suit, suit)
    if not any(bid.trumps == BELLE_OR_PETITE for bid in declaration.bids):
        return symbol
    big, small = (prose(word) for word in declaration.belle_words)
    if belle is None:
        return f"{symbol} ({big})"
    return gettext("%(turned)s (%(petite)s; %(belle)s %(suit)s)") % {
        "turned": symbol,
        "petite": small,
        "belle": big,
        "suit": SUIT_SYMBOLS.get(belle, belle),
    }


@dataclass
class Payment:
    payer: str
    payee: str
    cents: int
    text: str
    payer_party: str = ""  # the money ledger's party (a player id or "pool"), for the books' form
    payee_party: str = ""
    paid: int | None = None  # what the payments tied to this transfer add up to, once it is in the ledger
    open: int | None = None  # what is left to pay of it, from the money ledger (`evening_paid`)
    mark: str = ""  # what is paid of it, in words: "paid", "written off", "€5.00 paid"…

    @property
    def left(self) -> int:
        return self.open if self.open is not None else max(self.cents - (self.paid or 0), 0)


def paid_mark(transfer: TransferPaid, currency: str) -> str:
    """What is paid of an evening's transfer, in words (issue 38): "paid", "written off", or the
    amounts handed over and written off, uncapped ("€5.00 paid" of a €3.40 transfer), "" for nothing."""
    cash, off = transfer.cash, transfer.written_off
    if not transfer.left and transfer.paid == transfer.cents:
        if not off:
            return pgettext("transfer", "paid")
        if not cash:
            return pgettext("transfer", "written off")
    if not transfer.paid:
        return "" if transfer.left else gettext("nothing left to pay: paid by tonight's other payments")
    parts = []
    if cash > 0:
        parts.append(gettext("%(amount)s paid") % {"amount": money_text(cash, currency, with_currency=True)})
    if off:
        parts.append(gettext("%(amount)s written off") % {"amount": money_text(off, currency, with_currency=True)})
    return ", ".join(parts)


def pool_name() -> str:
    """The pool as money the club holds: one name on every page (issue 26)."""
    return gettext("the club's pool")


def payments(*, close: dict[str, Any], names: list[str], player_ids: list[int] | None = None) -> list[Payment]:
    currency = close.get("currency")
    if not currency:
        return []
    names = [*names]

    def who(party: Any) -> str:
        return pool_name() if party == "pool" else names[party]

    def ledger_party(party: Any) -> str:
        return "pool" if party == "pool" else str(player_ids[party]) if player_ids else ""

    return [
        Payment(
            who(p["from"]),
            who(p["to"]),
            p["cents"],
            money_text(p["cents"], currency),
            ledger_party(p["from"]),
            ledger_party(p["to"]),
        )
        for p in close.get("payments", [])
    ]
