"""A deal's table-law event in words (`ledger.web.deal_notes`, issue 42): every event of rules.md §0.11 in
English, French and Russian, with what it cost each seat worked by hand here from the rule, against the
engine's own settlement of the deal. Seed lines are `NNN:line` of `../shared/seeds/`."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import translation

from ledger.engine import settle
from ledger.web.deal_notes import claims_lapse, deal_notes, forfeiting, game_deals, lapsed_words, open_claim_words
from tests.engine.helpers import sheet

NAMES = ["Ann", "Ben", "Cleo", "Dan"]


def notes_of(variant: str, hands: list[dict[str, Any]], language: str, **extra: Any) -> list[tuple[str, str]]:
    """The last deal's notes (kind, words) in `language`, from the engine's settlement of the sheet."""
    played = sheet(variant, hands, **extra)
    settled = settle(played)["hands"][-1]
    with translation.override(language):
        notes = deal_notes(
            variant=variant,
            rules=played.get("rules"),
            first_dealer=played["first_dealer"],
            raw=hands[-1],
            settled=settled,
            names=NAMES,
        )
        # A party and its amount are held together ("Ann\u00a0+20"); the words are compared with plain spaces.
        assert all(" +" not in n.costs and " −" not in n.costs for n in notes), notes
        return [(n.kind, n.text.replace("\u00a0", " ")) for n in notes]


# American revoke (000:115 "the same as at Boston", 001:71): seven by Ben, 6 tricks, Ben revoked. s = 1,
# A-T4 seven one short = 20 to each of Ann, Cleo and Dan; the pools held 5 (Ann's ante): he pays 5 in.
AMERICAN_REVOKE = {"bid": "seven", "bidder": 1, "trump": "hearts", "tricks": [2, 6, 2, 2], "revoke": 1}
# Russian, an opponent's revoke (§0.11, 002:194 prices only the buyer's side): simple by Ben with Dan,
# Ann revoked. The contract is paid as made at its quota (R-T2 младшая, simple at 8: 4 from each opponent),
# Ann alone pays what her side would have: 4 to Ben and 4 to Dan. The бостон (Cleo's) is paid as usual.
RUSSIAN_SIMPLE = {"bid": "simple", "bidder": 1, "partner": 3, "trump": "spades", "turned": "spades", "jack": 2}
RUSSIAN_REVOKE = {**RUSSIAN_SIMPLE, "tricks": [3, 5, 0, 5], "revoke": 0}
# The buyer's own side revoked (002:194 «они ничего не выигрывают»): the made contract is not paid.
RUSSIAN_BUYER_REVOKE = {**RUSSIAN_SIMPLE, "tricks": [3, 5, 0, 5], "revoke": 1}
# Fontainebleau, paying instead of playing (000:111): six ♥ by Cleo, one trick short by default: V = 40,
# +5 a trick short = 45 to each adversary and 45 into the pool (a failure's pool payment).
PAYS_INSTEAD = {"bid": "six", "bidder": 2, "trump": "hearts", "conceded": "bidder"}
# Russian «с ремизом» (002:108), remiz 2: Ann deals, turns an ace, and pays 2 into the basket.
ACE_TURNED = {"bid": "pass", "turned": "hearts", "ace_turned": True}
# Russian open petit misère agreed at 60 (002:114): Ben takes no trick of 12: 60 from each opponent, and
# the basket (40, the four antes) is his.
OPEN_MISERE = {"bid": "open_misere", "bidder": 1, "tricks": [4, 0, 4, 4], "jack": 2, "turned": "hearts"}

# French revoke (§3.6, 001:71): Ann's simple ♥ (belle on deal 1, m = 4) with Cleo, 8 tricks made; Ben, an
# adversary, revoked: s = 0, max(1, s) = 1, a failure one short = 16 + 4 = 20 to each of Ann and Cleo, and
# the pool's 10 (Ann's ante) into it. The ♦J's 2 from each (Ann held it) is not the revoke's.
FRENCH_REVOKE = {
    "bid": "simple",
    "bidder": 0,
    "partner": 2,
    "trump": "hearts",
    "turned": "hearts",
    "jack": 0,
    "tricks": [4, 2, 4, 3],
    "revoke": 1,
}

CASES: list[tuple[str, str, list[dict[str, Any]], dict[str, Any], dict[str, str]]] = [
    (
        "revoke",
        "french",
        [FRENCH_REVOKE],
        {},
        {
            "en": "Revoke by Ben — Ben −50 · Ann +20 · Cleo +20 · pool +10",
            "fr": "Fausse renonce de Ben — Ben −50 · Ann +20 · Cleo +20 · poule +10",
            "ru": "Ренонс: Ben — Ben −50 · Ann +20 · Cleo +20 · корзина +10",
        },
    ),
    (
        "revoke",
        "american",
        [AMERICAN_REVOKE],
        {},
        {
            "en": "Revoke by Ben — Ben −65 · Ann +20 · Cleo +20 · Dan +20 · pools +5",
            "fr": "Fausse renonce de Ben — Ben −65 · Ann +20 · Cleo +20 · Dan +20 · poules +5",
            "ru": "Ренонс: Ben — Ben −65 · Ann +20 · Cleo +20 · Dan +20 · корзины +5",
        },
    ),
    (
        "revoke",
        "russian",
        [RUSSIAN_REVOKE],
        {},
        {
            "en": "Revoke by Ann — Ann −8 · Ben +4 · Dan +4",
            "fr": "Fausse renonce d'Ann — Ann −8 · Ben +4 · Dan +4",  # « de Ann » elided
            "ru": "Ренонс: Ann — Ann −8 · Ben +4 · Dan +4",
        },
    ),
    (
        "revoke",
        "russian",
        [RUSSIAN_BUYER_REVOKE],
        {},
        {
            "en": "Revoke by Ben: the bidder's side wins nothing — the contract is not paid",
            "fr": "Fausse renonce de Ben : le camp du demandeur ne gagne rien — le contrat n'est pas payé",
            "ru": "Ренонс: Ben; сторона играющего ничего не выигрывает — заказ не оплачивается",
        },
    ),
    (
        # American misdeal (§0.11, "same as at Boston"): Ann deals, pays one red counter, 10, into the pool;
        # the deal passes to the left, to Ben.
        "misdeal",
        "american",
        [{"bid": "misdeal"}],
        {},
        {
            "en": "Misdeal by Ann: the deal passes to Ben — Ann −10 · pools +10",
            "fr": "Maldonne d'Ann : la donne passe à Ben — Ann −10 · poules +10",
            "ru": "Промах сдатчика: Ann; сдача переходит к Ben — Ann −10 · корзины +10",
        },
    ),
    (
        # French misdeal ("a misdeal loses the deal", 001:13): no penalty; the deal passes to the right, Dan.
        "misdeal",
        "french",
        [{"bid": "misdeal"}],
        {},
        {
            "en": "Misdeal by Ann: the deal passes to Dan — nothing to pay",
            "fr": "Maldonne d'Ann : la donne passe à Dan — rien à payer",
            "ru": "Промах сдатчика: Ann; сдача переходит к Dan — платить нечего",
        },
    ),
    (
        "pays_instead",
        "fontainebleau",
        [PAYS_INSTEAD],
        {},
        {
            "en": "Cleo pays instead of playing: as a failure by 1 trick — Cleo −180 · Ann +45 · Ben +45 · Dan +45 "
            "· pool +45",
            "fr": "Cleo paie au lieu de jouer : comme une chute de 1 levée — Cleo −180 · Ann +45 · Ben +45 · Dan +45 "
            "· poule +45",
            "ru": "Cleo платит, не играя: как ремиз без 1 взятки — Cleo −180 · Ann +45 · Ben +45 · Dan +45 "
            "· корзина +45",
        },
    ),
    (
        "ace_turned",
        "russian",
        [ACE_TURNED],
        {"rules": {"remiz": 2}},
        {
            "en": "The dealer turned an ace: remiz into the basket — Ann −2 · basket +2",
            "fr": "Le donneur a retourné un as : remiz dans la corbeille — Ann −2 · corbeille +2",
            "ru": "Сдатчик открыл туза: ремиз в корзину — Ann −2 · корзина +2",
        },
    ),
    (
        "optional_bid",
        "russian",
        [OPEN_MISERE],
        {"rules": {"open_misere": 60}},
        {
            "en": "open petit misère (петит‑мизер уверт), a bid agreed before play — Ben +220 · Ann −60 · Cleo −60 "
            "· Dan −60 · basket −40",
            "fr": "petite misère ouverte (петит‑мизер уверт), annonce convenue avant le jeu — Ben +220 · Ann −60 "
            "· Cleo −60 · Dan −60 · corbeille −40",
            "ru": "петит‑мизер уверт — заказ, оговорённый до игры — Ben +220 · Ann −60 · Cleo −60 · Dan −60 "
            "· корзина −40",
        },
    ),
]


@pytest.mark.parametrize("language", ["en", "fr", "ru"])
@pytest.mark.parametrize(
    ("kind", "variant", "hands", "extra", "words"), CASES, ids=[f"{c[0]}-{c[1]}-{i}" for i, c in enumerate(CASES)]
)
def test_each_event_is_said_with_what_it_cost_each_seat(
    kind: str, variant: str, hands: list[dict[str, Any]], extra: dict[str, Any], words: dict[str, str], language: str
) -> None:
    assert notes_of(variant, hands, language, **extra) == [(kind, words[language])]


def test_paying_instead_by_more_tricks_says_them() -> None:
    """`pay_instead_short` 3: six ♥ (V = 40) three short = 40 + 5 × 3 = 55 to each adversary and 55 in."""
    said = {
        lang: notes_of("fontainebleau", [PAYS_INSTEAD], lang, rules={"pay_instead_short": 3}) for lang in ["en", "ru"]
    }
    assert said["en"] == [
        (
            "pays_instead",
            "Cleo pays instead of playing: as a failure by 3 tricks — Cleo −220 · Ann +55 · Ben +55 "
            "· Dan +55 · pool +55",
        )
    ]
    assert said["ru"][0][1].startswith("Cleo платит, не играя: как ремиз без 3 взяток — ")


def test_the_ace_turned_and_a_revoke_on_one_deal_are_two_notes() -> None:
    """Ann deals, turns an ace (remiz 2) and revokes against Ben's simple: the remiz is hers as the dealer, the
    revoke's 4 + 4 hers as the revoker; neither is counted twice."""
    hand = {**RUSSIAN_REVOKE, "ace_turned": True}
    assert notes_of("russian", [hand], "en", rules={"remiz": 2}) == [
        ("ace_turned", "The dealer turned an ace: remiz into the basket — Ann −2 · basket +2"),
        ("revoke", "Revoke by Ann — Ann −8 · Ben +4 · Dan +4"),
    ]


def test_an_ordinary_deal_has_no_note() -> None:
    seven = {"bid": "seven", "bidder": 1, "trump": "hearts", "tricks": [2, 7, 2, 2]}
    assert notes_of("american", [seven], "en") == []
    # The ace turned counts only with the house rule (remiz 0 forbids the field: nothing to say either).
    assert notes_of("russian", [{"bid": "pass", "turned": "hearts"}], "en", rules={"remiz": 2}) == []


def test_the_game_s_deal_is_a_deal_behind_after_a_misdeal() -> None:
    """§0.2, §0.11: a misdeal is a hand of the sheet, not a deal of the game."""
    hands = {1: {"bid": "pass"}, 2: {"bid": "misdeal"}, 3: {"bid": "pass"}, 4: {"bid": "misdeal"}, 5: {"bid": "pass"}}
    assert game_deals(hands) == {1: 1, 2: 2, 3: 2, 4: 3, 5: 3}


@pytest.mark.parametrize(
    ("language", "lapsed", "open_"),
    [
        (
            "en",
            "Claims on deal 3 lapsed when deal 4 was recorded (house rule “Claims lapse”): it can no longer be "
            "amended. A treasurer can record the correction as an adjustment into the basket on the next deal.",
            "Claims on deal 3 lapse once deal 4 is recorded: check it now.",
        ),
        (
            "fr",
            "Les réclamations sur la donne 3 sont closes depuis que la donne 4 est notée (règle maison « Réclamations "
            "closes à la donne suivante ») : elle ne peut plus être corrigée. Un trésorier peut noter la correction "
            "comme un ajustement versé à la corbeille sur la donne suivante.",
            "Les réclamations sur la donne 3 seront closes dès que la donne 4 sera notée : vérifiez-la maintenant.",
        ),
        (
            "ru",
            "Претензии по сдаче 3 закрыты: записана сдача 4 (домашнее правило «Претензии до следующей сдачи»), "
            "исправить её уже нельзя. Казначей может внести исправление поправкой в корзину на следующей сдаче.",
            "Претензии по сдаче 3 закроются, как только будет записана сдача 4: проверьте её сейчас.",
        ),
    ],
)
def test_claims_lapse_says_why_and_what_the_treasurer_can_do(language: str, lapsed: str, open_: str) -> None:
    """002:189: the amend's refusal (409 `claim_lapsed`) said before anyone asks, in the players' words."""
    assert claims_lapse({"claims_lapse": True}) and not claims_lapse({}) and not claims_lapse(None)
    with translation.override(language):
        assert (lapsed_words(3), open_claim_words(3)) == (lapsed, open_)


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", "No share of the basket for Ann: a misdeal earlier in the game — Cleo +20 · Dan +20 · basket −40"),
        (
            "fr",
            "Pas de part de la corbeille pour Ann : maldonne plus tôt dans la partie — Cleo +20 · Dan +20 "
            "· corbeille −40",
        ),
        ("ru", "Без доли в корзине: Ann (промах сдатчика раньше в этой партии) — Cleo +20 · Dan +20 · корзина −40"),
    ],
)
def test_a_misdealer_left_out_of_a_division_is_said(language: str, words: str) -> None:
    """002:33 «лишали его доли в кассе», `misdeal_forfeits_share`: Ann (seat 0) misdeals; deal 1, Ben's
    unsupported simple fails (3 tricks), and the basket of 40 is divided by the three others but Ann: Cleo
    and Dan take 20 each (tests/engine/test_table_law.py works the deal)."""
    simple = {"bid": "simple", "bidder": 1, "trump": "spades", "turned": "spades", "jack": 2, "tricks": [4, 3, 3, 3]}
    rules = {"misdeal_forfeits_share": True}
    played = sheet("russian", [{"bid": "misdeal"}, simple], rules=rules)
    settled = settle(played)["hands"]
    forfeits = forfeiting({1: {"bid": "misdeal"}, 2: simple}, rules, {h["number"]: h["dealer"] for h in settled})
    assert forfeits == {1: frozenset(), 2: frozenset({0})}

    def said(forfeits: frozenset[int]) -> list[tuple[str, str]]:
        with translation.override(language):
            notes = deal_notes(
                variant="russian",
                rules=rules,
                first_dealer=0,
                raw=simple,
                settled=settled[1],
                names=NAMES,
                forfeits=forfeits,
            )
        return [(n.kind, n.text.replace("\u00a0", " ")) for n in notes]

    assert said(forfeits[2]) == [("forfeit", words)]
    assert forfeiting({1: {"bid": "misdeal"}}, {}, {1: 0}) == {}  # the house rule off: nobody forfeits
    # The failing bidder divides nothing anyway: his earlier misdeal is not what left him out.
    assert said(frozenset({1})) == []
