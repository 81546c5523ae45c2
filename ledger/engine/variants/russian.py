"""Russian Boston («Бостон»): старшая and младшая, the basket, the tariff.

Source: «Бостон правила карточной игры» and its «Тариф платежей» (seed 002), as normalised in
`rules.md` §4. rules.md is followed where the two disagree.

House defaults applied (not in the source; `rules.md` §4):
- the basket is formed at the start of every deal at which it holds 0 (the source describes only the
  first deal), by each of the four, the dealer included; a carried-in basket or a division remainder
  is not formed again;
- all pass: the basket is doubled by floor(C/4) from each player, the dealer adding C mod 4;
- a `solo` or `nine` in a suit that is neither старшая nor младшая pays at `third_suit_rate`;
- the tariff has no nine and no misère: their amounts are the options `nine` and `misere`, required
  when such a deal is played; a nine is made at 9 tricks and has no slam doubling;
- a supported pair with both partners short: each pays each opponent 2 + 2 × (his quota − his
  tricks); at T = 0 the pair pays R-T2[0] to each opponent, split G-3; the labet is split G-3;
- a solo, nine or misère that fails pays a labet; a labet and the all-pass doubling pay the basket's
  amount once even in double tours;
- a successful pair is paid by pairing (§0.7); a failing pair is not paired;
- a revoke by the buying side voids a made contract (the бостон is still paid) and never excuses a
  failure; a revoke by an opponent is priced by the table law (`table_law`, rules.md §0.11).

† Tariff corrections (rules.md §4.4), marked in the tables below and listed in `CORRECTED`:
R-T1 старшая 9 tricks printed «3», read 8; R-T3 младшая 12 tricks printed «30», read 32; R-T3
старшая «за 13 взяток — 64» read as the 12-trick value (144 is the 13-trick one). The seed's
misprinted loss headings are read by the text under them: «Прикуп, купленный в старшей масти и
выигранный» (text: a lost прикуп, 4 … 56) is R-T2 младшая; the second «Прикуп младшей масти, не
купленный и выигранный» (text: «не взявший пяти взяток платит») is R-T6 младшая; «Прикуп большой
масти, купленный и проигранный» (text: double the above) is R-T6 старшая. Under «Проигранная
самостоятельная игра в большую масть» the text's «в младшую масть» is the slip: R-T4 старшая.
Chips: the basket's default of 10 from each is the seed's «десяти фиш с каждого игрока».
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..cards import Hand
from ..deal import Deal, split_joint
from ..messages import Message, register, text
from ..seats import ADVERSARIES, PAIRINGS, POOL, SEATS, others
from . import table_law
from .base import Belle, Variant
from .declaration import (
    ALL_PASS,
    ANY_SUIT,
    BELLE_OR_PETITE,
    CHOICE,
    EXACT,
    INTEGER,
    OBJECT,
    TRICKS,
    Bid,
    Deals,
    Declaration,
    O,
    Option,
    R,
    Table,
)
from .shared import MISERE_TRUMP

STARSHAYA, MLADSHAYA = "starshaya", "mladshaya"  # the tariff's two rows, and `third_suit_rate`'s values
RATE = {MLADSHAYA: 1, STARSHAYA: 2}  # r: старшая pays double

# The contracts: what each must take.
PAIR_CONTRACT = 8  # buyer and supporter together (прикуп купленный)
BUYER_QUOTA, SUPPORTER_QUOTA = 5, 3  # who pays when the pair fails
UNSUPPORTED_CONTRACT = 5  # прикуп не купленный
SOLO_CONTRACT = 8  # соло, индепанданс
NINE_CONTRACT = 9
KONSOLYATSIYA = 2  # консоляция: 2 chips for the unfulfilled obligation
SHORT_TRICK = 2  # and 2 for each trick short (supported failure)
BOSTON_BONUS = 2  # the бостон: 2 chips from each other player
DOUBLE_TOURS = range(33, 41)  # deals 33-40: two double tours of four deals

# --- the tariff (chips per opponent, simple tour) -----------------------------------------------
# Each table maps a row (младшая, старшая) to {tricks: chips}, as printed in the seed and rules.md §4.4.

# R-T1, прикуп купленный и выигранный (supported, made): pair tricks T -> from each paired opponent.
R_T1 = {
    MLADSHAYA: {8: 2, 9: 4, 10: 6, 11: 8, 12: 10, 13: 24},
    STARSHAYA: {8: 4, 9: 8, 10: 12, 11: 16, 12: 20, 13: 48},  # 9: 8†
}
# R-T2, прикуп купленный и проигранный (supported, failed): pair tricks T -> 2 + 2 × (8 − T); 0 as printed.
R_T2 = {
    MLADSHAYA: {7: 4, 6: 6, 5: 8, 4: 10, 3: 12, 2: 14, 1: 16, 0: 56},
    STARSHAYA: {7: 8, 6: 12, 5: 16, 4: 20, 3: 24, 2: 28, 1: 32, 0: 112},
}
# R-T3, выигранная самостоятельная игра (solo, made): tricks t.
R_T3 = {
    MLADSHAYA: {8: 16, 9: 20, 10: 24, 11: 28, 12: 32, 13: 72},  # 12: 32†
    STARSHAYA: {8: 32, 9: 40, 10: 48, 11: 56, 12: 64, 13: 144},  # 12: 64†
}
# R-T4, проигранная самостоятельная игра (solo, failed): 16 + 4 × (8 − t); 0 as printed.
R_T4 = {
    MLADSHAYA: {7: 20, 6: 24, 5: 28, 4: 32, 3: 36, 2: 40, 1: 44, 0: 136},
    STARSHAYA: {7: 40, 6: 48, 5: 56, 4: 64, 3: 72, 2: 80, 1: 88, 0: 272},
}
# R-T5, прикуп не купленный и выигранный (unsupported, made): tricks t; the slam is at 13.
R_T5 = {
    MLADSHAYA: {5: 2, 6: 4, 7: 6, 8: 8, 9: 10, 10: 12, 11: 14, 12: 16, 13: 36},
    STARSHAYA: {5: 4, 6: 8, 7: 12, 8: 16, 9: 20, 10: 24, 11: 28, 12: 32, 13: 72},
}
# R-T6, прикуп не купленный и проигранный (unsupported, failed): tricks t.
R_T6 = {
    MLADSHAYA: {4: 4, 3: 6, 2: 8, 1: 10, 0: 24},
    STARSHAYA: {4: 8, 3: 12, 2: 16, 1: 20, 0: 48},
}
TARIFF = {"R-T1": R_T1, "R-T2": R_T2, "R-T3": R_T3, "R-T4": R_T4, "R-T5": R_T5, "R-T6": R_T6}
# † The cells read differently from the seed's print: (table, row, tricks) -> what the seed prints.
CORRECTED = {
    ("R-T1", STARSHAYA, 9): "«за 9 взяток—3»: steps of 4, and the slam 48 = 2 × (4 + 5 × 4)",
    ("R-T3", MLADSHAYA, 12): "«за 12 — 30 фиш»: steps of 4, and 72 = 2 × (16 + 5 × 4)",
    ("R-T3", STARSHAYA, 12): "«за 13 взяток — 64 фиши»: 144 is the 13-trick value",
}


# --- bids and fields ----------------------------------------------------------------------------
BID_LABELS = {
    "simple": "simple (прикуп)",
    "solo": "solo (индепанданс)",
    "nine": "nine (девять взяток)",
    "misere": "misère (мизер)",
    "pass": "all pass (пас)",
}


REMIZ, REMIZ_RULE = table_law.REMIZ_FIELD, table_law.REMIZ_RULE  # table law: «с ремизом» (rules.md §0.11)


# --- options ------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class NineAmounts:
    """`rules.nine`: chips per opponent at the младшая rate: base for nine tricks, extra per trick."""

    base: int
    extra: int


register(
    {
        "russian.forbidden.honours": (
            "honours are not paid in Russian Boston (the бостон is the bonus jack): leave them empty"
        ),
        "russian.required.turned": (
            "choose the suit of the turned card: deal 1's is старшая (belle) for the whole partie, a later "
            "deal's is its младшая (petite)"
        ),
        "russian.required.jack": "choose who held the бостон (♦J, or ♥J when diamonds are trumps; ♦J in a misère)",
        "russian.forbidden.conceded": "nobody concedes in Russian Boston: enter the tricks as they were taken",
        "russian.forbidden.last_trick": "Russian Boston has no last-trick hand: leave the last trick empty",
        "russian.forbidden.partner": "a {bid} is played alone, without a supporter: leave the partner empty",
        "russian.forbidden.pass": "when all four pass the cards are thrown in: leave the {field} empty",
        "russian.option.basket": "Basket",
        "russian.option.basket.help": "what each of the four puts in when the basket is formed",
        "russian.option.third_suit_rate": "Rate of a third suit",
        "russian.option.third_suit_rate.help": (
            "the rate of a solo or nine in a suit that is neither старшая nor младшая"
        ),
        "russian.option.nine": "Nine amounts",
        "russian.option.nine.help": (
            "chips per opponent at the младшая rate: base for nine tricks, extra per trick; needed only if a nine "
            "is played"
        ),
        "russian.option.misere": "Misère amount",
        "russian.option.misere.help": "chips per opponent for a misère; needed only if a misère is played",
        "russian.ante": "each of the four puts the basket amount in when the basket is empty",
        **{f"russian.bid.{bid}": label for bid, label in BID_LABELS.items()},
    }
)

TARIFF_TITLES = {
    "R-T1": (
        "прикуп купленный и выигранный",
        "Supported simple, made: from each paired opponent, by the pair's tricks.",
    ),
    "R-T2": ("прикуп купленный и проигранный", "Supported simple, failed: to each opponent, by the pair's tricks."),
    "R-T3": ("выигранная самостоятельная игра", "Solo, made: from each opponent, by the tricks taken."),
    "R-T4": ("проигранная самостоятельная игра", "Solo, failed: to each opponent, by the tricks taken."),
    "R-T5": ("прикуп не купленный и выигранный", "Unsupported simple, made: from each opponent, by the tricks taken."),
    "R-T6": ("прикуп не купленный и проигранный", "Unsupported simple, failed: to each opponent, by the tricks taken."),
}
ROW_LABELS = {MLADSHAYA: "младшая (petite)", STARSHAYA: "старшая (belle)"}


def _tables() -> tuple[Table, ...]:
    tables = []
    for code, table in TARIFF.items():
        tricks = sorted({t for row in table.values() for t in row})
        rows = (MLADSHAYA, STARSHAYA)
        notes = {(rows.index(row), tricks.index(t)): why for (tc, row, t), why in CORRECTED.items() if tc == code}
        russian, caption = TARIFF_TITLES[code]
        tables.append(
            Table(
                code.lower(),
                f"{code} {russian}",
                caption,
                tuple(str(t) for t in tricks),
                tuple((ROW_LABELS[row], tuple(table[row].get(t) for t in tricks)) for row in rows),
                notes,
            )
        )
    return tuple(tables)


DECLARATION = Declaration(
    name="russian",
    title="Russian Boston (Бостон)",
    short_title="Russian",
    aliases=("boston-russe", "русский-бостон", "бостон"),
    pool_share="formed",  # the basket holds what "belongs" to a player until it is played out (002:157)
    playable_rules={"nine": {"base": 30, "extra": 5}, "misere": 40, **table_law.RUSSIAN_PLAYABLE},
    sample_deals=40,
    source="«Бостон правила карточной игры» and its «Тариф платежей».",
    options=(
        Option("basket", INTEGER, 10, "russian.option.basket", "russian.option.basket.help", minimum=1),
        Option(
            "third_suit_rate",
            CHOICE,
            MLADSHAYA,
            "russian.option.third_suit_rate",
            "russian.option.third_suit_rate.help",
            choices=(MLADSHAYA, STARSHAYA),
            choice_labels=("младшая", "старшая"),
        ),
        Option(
            "nine",
            OBJECT,
            None,
            "russian.option.nine",
            "russian.option.nine.help",
            minimum=0,
            parts=("base", "extra"),
            build=NineAmounts,
        ),
        Option("misere", INTEGER, None, "russian.option.misere", "russian.option.misere.help", minimum=0),
        # table law (rules.md §0.11)
        table_law.misdeal_penalty(0, "russian.option.misdeal_penalty.help"),  # the deal passes on (002:33)
        table_law.misdeal_forfeits_share(),
        *table_law.RUSSIAN_CONDITIONS,
    ),
    bids=(
        Bid(
            code="simple",
            label="russian.bid.simple",
            kind=TRICKS,
            fields={"bidder": R, "trump": R, "tricks": R, "partner": O, "jack": R, "revoke": O, "turned": R, **REMIZ},
            tricks=UNSUPPORTED_CONTRACT,
            pair_tricks=PAIR_CONTRACT,
            trumps=BELLE_OR_PETITE,
            field_options=REMIZ_RULE,
        ),
        Bid(
            code="solo",
            label="russian.bid.solo",
            kind=TRICKS,
            fields={"bidder": R, "trump": R, "tricks": R, "jack": R, "revoke": O, "turned": R, **REMIZ},
            tricks=SOLO_CONTRACT,
            trumps=ANY_SUIT,
            needs_option="solo",  # table law (rules.md §0.11): a condition a club may switch off
            field_options=REMIZ_RULE,
        ),
        Bid(
            code="nine",
            label="russian.bid.nine",
            kind=TRICKS,
            fields={"bidder": R, "trump": R, "tricks": R, "jack": R, "revoke": O, "turned": R, **REMIZ},
            tricks=NINE_CONTRACT,
            trumps=ANY_SUIT,
            needs_option="nine",
            field_options=REMIZ_RULE,
        ),
        Bid(
            code="misere",
            label="russian.bid.misere",
            kind=EXACT,
            fields={"bidder": R, "tricks": R, "jack": R, "revoke": O, "turned": R, **REMIZ},
            tricks=0,
            needs_option="misere",
            field_options=REMIZ_RULE,
        ),
        *table_law.RUSSIAN_BIDS,  # table law (rules.md §0.11): the optional bids agreed before play
        Bid(
            code="pass",
            label="russian.bid.pass",
            kind=ALL_PASS,
            fields={"turned": R, **REMIZ},
            field_options=REMIZ_RULE,
        ),
        table_law.misdeal_bid("russian"),  # table law (rules.md §0.11)
    ),
    deals=Deals(limit=None, step=3, ante="russian.ante", doubles=(DOUBLE_TOURS.start, DOUBLE_TOURS.stop - 1)),
    tables=_tables(),
    facts=(
        ("Basket", "formed by each of the four when empty (10 each by default, house rule “Basket”)"),
        ("Бостон", f"{BOSTON_BONUS} from each other player"),
        ("Supported failure, both short", f"{KONSOLYATSIYA} + {SHORT_TRICK} per trick short of each one's quota"),
        ("Double tours", f"deals {DOUBLE_TOURS.start}-{DOUBLE_TOURS.stop - 1}: every amount twice"),
        ("Deal order", "the deal passes to the right"),
    ),
    pool_label="Basket",
    belle_words=("старшая", "младшая"),
    field_labels={"jack": "Бостон (♦J / ♥J)", "bidder": "Buyer"},
)
Options = DECLARATION.options_class  # made from the declaration at import: `Any` in annotations


NEEDED = {"simple": UNSUPPORTED_CONTRACT, "solo": SOLO_CONTRACT, "nine": NINE_CONTRACT}  # alone


def row_of(hand: Hand, number: int, partie: Belle, options: Any) -> str:
    """The tariff's row: старшая, младшая, or `third_suit_rate`'s in another suit (a solo or a nine);
    its rate r (RATE) is 2 in старшая, 1 in младшая."""
    assert hand.turned is not None
    starshaya, mladshaya = partie.suits_of(number, hand.turned)
    if hand.trump == starshaya:
        return STARSHAYA
    if hand.trump == mladshaya:
        return MLADSHAYA
    return options.third_suit_rate


# --- the basket ---------------------------------------------------------------------------------
def form_basket(deal: Deal, each: int) -> None:
    """Each of the four, the dealer included, puts `each` into an empty basket (reason `ante`)."""
    deal.each_pays(SEATS, POOL, each, "ante")
    deal.pools.feed(4 * each)


def all_pass(deal: Deal) -> None:
    """All four passed: the basket C doubles; floor(C/4) from each, C mod 4 more from the dealer."""
    basket = deal.pools.total
    share, rest = divmod(basket, 4)
    deal.each_pays(SEATS, POOL, share, "pool")
    deal.pay(deal.dealer, POOL, rest, "pool")
    deal.pools.feed(basket)


def labet(deal: Deal, payers: tuple[int, ...] | list[int]) -> None:
    """Лабет: an amount equal to the basket paid into it; two payers split it G-3 (the buyer first)."""
    if not deal.options.labet:  # table law (rules.md §0.11): switched off, a failure doubles nothing
        return
    deal.pay_shared(payers, POOL, deal.pools.double(), "pool")


def alone(deal: Deal, made: bool, amount: int) -> None:
    """A solo, nine or misère, the buyer against the three: made, each pays him `amount` and he takes
    the basket; failed, he pays each `amount` and a labet."""
    buyer = deal.hand.bidder
    assert buyer is not None
    if made:
        deal.each_pays(ADVERSARIES[buyer], buyer, amount, "contract")
        deal.pay(POOL, buyer, deal.pools.take_all(), "pool")  # he takes the basket
    else:
        deal.pays_each(buyer, ADVERSARIES[buyer], amount, "contract")
        if deal.options.labet:  # table law (rules.md §0.11): labet is a condition a club may switch off
            deal.pay(buyer, POOL, deal.pools.double(), "pool")  # a labet, his alone


# --- the variant --------------------------------------------------------------------------------
class Russian(Variant):
    declaration = DECLARATION

    forbidden_ids = {
        "honours": "russian.forbidden.honours",
        "conceded": "russian.forbidden.conceded",
        "last_trick": "russian.forbidden.last_trick",
        "partner": "russian.forbidden.partner",
    }

    required_ids = {"turned": "russian.required.turned", "jack": "russian.required.jack"}

    def forbidden_message(self, name: str, bid: Bid, options: Any) -> Message:
        if bid.kind == EXACT and name == "trump":
            return text(MISERE_TRUMP)
        if bid.kind == ALL_PASS and name not in self.forbidden_ids and name not in bid.field_options:
            return text("russian.forbidden.pass", field=self.field_words(name))
        return super().forbidden_message(name, bid, options)

    # settling (rules.md §4.7)
    def settle_deal(self, deal: Deal, state: Belle) -> None:
        hand = deal.hand
        tour = 2 if deal.double else 1
        if deal.pools.total == 0:
            form_basket(deal, deal.options.basket * tour)
        if hand.ace_turned:  # table law (rules.md §0.11): «с ремизом», before anything else
            table_law.pay_remiz(deal)
        bid = hand.bid
        if bid == "pass":
            all_pass(deal)
            return
        made = self.made(hand)
        if hand.revoke is not None and hand.revoke not in (hand.bidder, hand.partner):  # table law, §0.11
            side = (hand.bidder,) if hand.partner is None else (hand.bidder, hand.partner)
            table_law.pay_opponent_revoke(deal, side, quota_amount(deal, state, tour))  # type: ignore[arg-type]
            self.boston(deal, True, tour)
            return
        if not (made and hand.revoke is not None):  # a buyer's-side revoke voids a made contract
            if bid in table_law.OPTIONAL_BIDS:  # table law (rules.md §0.11)
                alone(deal, made, optional_amount(deal, state, made, tour))
            elif bid == "misere":
                self.misere(deal, made, tour)
            else:
                row = row_of(hand, deal.number, state, deal.options)
                if bid == "solo":
                    self.solo(deal, made, row, tour)
                elif bid == "nine":
                    self.nine(deal, made, row, tour)
                elif hand.partner is not None:
                    self.supported(deal, row, tour)
                else:
                    self.unsupported(deal, made, row, tour)
        self.boston(deal, made, tour)

    @staticmethod
    def made(hand: Hand) -> bool:
        bidder, tricks = hand.bidder, hand.tricks
        assert bidder is not None
        if hand.bid in table_law.OPTIONAL_BIDS:  # table law (rules.md §0.11)
            return DECLARATION.bid[hand.bid].made(tricks[bidder], False)
        if hand.bid == "misere":
            return tricks[bidder] == 0
        if hand.partner is not None:  # only a simple is supported
            return tricks[bidder] + tricks[hand.partner] >= PAIR_CONTRACT
        return tricks[bidder] >= NEEDED[hand.bid]

    @staticmethod
    def supported(deal: Deal, row: str, tour: int) -> None:
        """Прикуп купленный: buyer and supporter need 8 together; quotas 5 and 3 decide who pays."""
        hand = deal.hand
        buyer, supporter = hand.bidder, hand.partner
        assert buyer is not None and supporter is not None
        tricks = hand.tricks
        pair_tricks = tricks[buyer] + tricks[supporter]
        opponents = others(buyer, supporter)
        if pair_tricks >= PAIR_CONTRACT:
            amount = R_T1[row][pair_tricks] * tour
            for payer, payee in PAIRINGS[opponents]:
                deal.pay(payer, payee, amount, "contract")
            deal.divide_pool((buyer, supporter), "pool")
            return
        quotas = ((buyer, BUYER_QUOTA), (supporter, SUPPORTER_QUOTA))
        short = [seat for seat, quota in quotas if tricks[seat] < quota]
        if pair_tricks == 0:
            lead, follow = split_joint(R_T2[row][0] * tour)
            deal.pays_each(buyer, opponents, lead, "contract")
            deal.pays_each(supporter, opponents, follow, "contract")
        elif len(short) == 1:
            deal.pays_each(short[0], opponents, R_T2[row][pair_tricks] * tour, "contract")
        else:
            for seat, quota in quotas:
                amount = (KONSOLYATSIYA + SHORT_TRICK * (quota - tricks[seat])) * RATE[row] * tour
                deal.pays_each(seat, opponents, amount, "contract")
        labet(deal, short)

    @staticmethod
    def unsupported(deal: Deal, made: bool, row: str, tour: int) -> None:
        """Прикуп не купленный: alone against three, 5 tricks; a failure's basket goes to the three."""
        buyer = deal.hand.bidder
        assert buyer is not None
        taken = deal.hand.tricks[buyer]
        opponents = ADVERSARIES[buyer]
        if made:
            deal.each_pays(opponents, buyer, R_T5[row][taken] * tour, "contract")
            deal.pay(POOL, buyer, deal.pools.take_all(), "pool")  # he takes the basket
        else:
            deal.pays_each(buyer, opponents, R_T6[row][taken] * tour, "contract")
            deal.divide_pool(opponents, "division")

    @staticmethod
    def solo(deal: Deal, made: bool, row: str, tour: int) -> None:
        """Соло (индепанданс): 8 tricks alone, in any suit."""
        buyer = deal.hand.bidder
        assert buyer is not None
        alone(deal, made, (R_T3 if made else R_T4)[row][deal.hand.tricks[buyer]] * tour)

    @staticmethod
    def nine(deal: Deal, made: bool, row: str, tour: int) -> None:
        """Девять взяток: 9 tricks alone, at the table's `rules.nine` amounts (the tariff has none)."""
        buyer = deal.hand.bidder
        assert buyer is not None
        nine = deal.options.nine
        times = RATE[row] * tour
        beyond = deal.hand.tricks[buyer] - NINE_CONTRACT  # over-tricks, or (negative) tricks short
        if made:
            alone(deal, made, nine.base * times)
            deal.each_pays(ADVERSARIES[buyer], buyer, nine.extra * beyond * times, "overtricks")
        else:
            alone(deal, made, (nine.base - nine.extra * beyond) * times)

    @staticmethod
    def misere(deal: Deal, made: bool, tour: int) -> None:
        """Мизер: no trick, no trumps, at the table's `rules.misere` amount; no rate."""
        alone(deal, made, deal.options.misere * tour)

    @staticmethod
    def boston(deal: Deal, made: bool, tour: int) -> None:
        """The бостон: its holder gets 2 from each other player. A misère: a failed misère player who
        does not hold it pays it to each of the three others; otherwise nothing."""
        hand = deal.hand
        bonus = BOSTON_BONUS * tour
        if hand.bid in MISERES:  # the open misères (table law) as the misère
            assert hand.bidder is not None
            if not made and hand.jack != hand.bidder:
                deal.pays_each(hand.bidder, ADVERSARIES[hand.bidder], bonus, "jack")
            return
        assert hand.jack is not None
        deal.each_pays(ADVERSARIES[hand.jack], hand.jack, bonus, "jack")


# --- table law (rules.md §0.11): the amounts of this variant's tables it is priced with ----------------
def quota_amount(deal: Deal, state: Belle, tour: int) -> int:
    """What each opponent pays for the contract made with exactly its quota (an opponent's revoke)."""
    hand = deal.hand
    if hand.bid in table_law.OPTIONAL_BIDS:
        return optional_amount(deal, state, True, tour)
    if hand.bid == "misere":
        return deal.options.misere * tour
    row = row_of(hand, deal.number, state, deal.options)
    if hand.bid == "solo":
        return R_T3[row][SOLO_CONTRACT] * tour
    if hand.bid == "nine":
        return deal.options.nine.base * RATE[row] * tour
    if hand.partner is not None:
        return R_T1[row][PAIR_CONTRACT] * tour
    return R_T5[row][UNSUPPORTED_CONTRACT] * tour


MISERES = frozenset({"misere", *table_law.OPEN_MISERES})


def optional_amount(deal: Deal, state: Belle, made: bool, tour: int) -> int:
    """An optional bid's chips per opponent (§0.11): an open misère's amount like the misère's (the grand
    one, failed, × the tricks taken: 002:118); a souverain's made or failed amount at the rate, as a nine."""
    hand, options = deal.hand, deal.options
    assert hand.bidder is not None
    amount = getattr(options, hand.bid)
    if hand.bid in table_law.OPEN_MISERES:
        taken = hand.tricks[hand.bidder]
        return amount * (taken if hand.bid == "grand_open_misere" and not made else 1) * tour
    row = row_of(hand, deal.number, state, options)
    return amount["made" if made else "failed"] * RATE[row] * tour


VARIANT = Russian()
