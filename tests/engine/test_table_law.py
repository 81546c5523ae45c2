"""Table law (`rules.md` §0.11): each event worked by hand from the rule and its seed line, against the
engine's settlement. Seed lines are `NNN:line` of `../shared/seeds/NNN_*.txt`."""

from __future__ import annotations

from typing import Any

from ledger.engine import settle
from tests.engine.helpers import assert_conserved, refusal, sheet


def settled(variant: str, hands: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    result = settle(sheet(variant, hands, **extra))
    assert_conserved(result, sum(extra.get("pools", [])))
    return result


def last(variant: str, hands: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    return settled(variant, hands, **extra)["hands"][-1]


def moves(hand: dict[str, Any]) -> set[tuple[Any, Any, int, str]]:
    return {(t["from"], t["to"], t["counters"], t["reason"]) for t in hand["transfers"]}


# --- a revoke in every variant ---------------------------------------------------------------------


def test_american_revoke_by_the_bidder_is_priced_as_at_boston() -> None:
    """000:115 "the same as at Boston", Boston's law 001:71 "double the pool, and pay both adversaries".

    Deal 1, dealer 0, ante 5: the pools [5]. Seven by seat 1, 6 tricks taken, seat 1 revoked: s = 1, A-T4
    seven 1 short = 20 to each of 0, 2 and 3; he pays 5 into the pool, which then holds 10. No pool won."""
    hand = {"bid": "seven", "bidder": 1, "trump": "hearts", "tricks": [2, 6, 2, 2], "revoke": 1}
    got = last("american", [hand])
    assert got["deltas"] == [-5 + 20, -60 - 5, 20, 20]
    assert (got["pool_delta"], got["pools"]) == (10, [10])
    assert (1, "pool", 5, "penalty") in moves(got) and (1, 0, 20, "penalty") in moves(got)


def test_american_revoke_by_an_opponent_pays_the_bidder_a_one_trick_failure_classic() -> None:
    """An opponent (seat 2) revokes against a seven made with 8 tricks: s = 0, so max(1, s) = 1 and the
    classic A-T3 seven 1 short = 19, to the bidder alone (the adversary of seat 2's side); the pools of 55,
    fed by the ante to 60, get 60 more: [100, 20] with the limit of 100 (fed like an ante)."""
    hand = {"bid": "seven", "bidder": 1, "trump": "spades", "tricks": [2, 8, 1, 2], "revoke": 2}
    got = last("american", [hand], rules={"table": "classic"}, pools=[55])
    assert got["deltas"] == [-5, 19, -19 - 60, 0]
    assert got["pools"] == [100, 20]


def test_american_revoke_on_a_misere_pays_its_amount() -> None:
    """A misère's revoke: its A-T5 amount, little misère 20 to each adversary, and the pools doubled."""
    hand = {"bid": "little_misere", "bidder": 3, "tricks": [4, 4, 4, 0], "revoke": 3}
    got = last("american", [hand])
    assert got["deltas"] == [-5 + 20, 20, 20, -60 - 5]


def test_fontainebleau_revoke_solo_and_pair() -> None:
    """004:5 and 000:115 "the same as at Boston". A six in ♥ (V = 40) by seat 0, who took 4 and revoked:
    s = 2, 40 + 5 × 2 = 50 to each adversary, and the pool of 5 (the ante) doubled by him."""
    hand = {"bid": "six", "bidder": 0, "trump": "hearts", "tricks": [4, 3, 3, 3], "revoke": 0}
    got = last("fontainebleau", [hand])
    assert got["deltas"] == [-5 - 150 - 5, 50, 50, 50]
    assert got["pools"] == [10]
    # A pair: seven in ♦ by 0 with partner 1 needs 10; ten ♦ is V = 130. They took 11, opponent 3 revoked:
    # max(1, 0) = 1, 135 to each of 0 and 1 from seat 3 alone; the pool of 5 doubled by seat 3.
    pair = {"bid": "seven", "bidder": 0, "partner": 1, "trump": "diamonds", "tricks": [6, 5, 1, 0], "revoke": 3}
    got = last("fontainebleau", [pair])
    assert got["deltas"] == [-5 + 135, 135, 0, -270 - 5]


def test_fontainebleau_piccolissimo_revoke_is_as_its_misere() -> None:
    """000:115 "In piccolissimo, the penalties are the same as in misère": its amount, 100 each."""
    hand = {"bid": "piccolissimo", "bidder": 2, "tricks": [3, 3, 1, 3], "revoke": 2}
    got = last("fontainebleau", [hand])
    assert got["deltas"] == [-5 + 100, 100, -300 - 5, 100]


def test_fontainebleau_revoke_honours_stand() -> None:
    """Honours still count (§0.11 "Ante and honours stand"): four honours, 20 from each adversary."""
    hand = {"bid": "boston", "bidder": 1, "trump": "clubs", "tricks": [3, 6, 2, 2], "honours": 4, "revoke": 1}
    got = last("fontainebleau", [hand], rules={"honours": True})
    # V = 10, made (s = 0): 10 + 5 to each adversary; 20 from each for the honours; the pool of 5 doubled.
    assert got["deltas"] == [-5 + 15 - 20, -45 - 5 + 60, 15 - 20, 15 - 20]


def test_russian_revoke_by_an_opponent_pays_the_contract_made_at_its_quota() -> None:
    """002:194 prices only the buyer's side; §0.11: paid as made with exactly its quota, the revoker alone
    paying what his side would have paid, the basket untouched, the бостон as usual.

    Deal 1 (старшая ♠), basket formed to 40. Supported simple 3 + 2 (as D1), seat 0 revoked: R-T1 старшая
    at 8 = 4, which seats 0 and 1 would have paid by pairing; seat 0 pays 4 to each partner. Бостон seat 1."""
    hand = {"bid": "simple", "bidder": 3, "partner": 2, "trump": "spades", "turned": "spades", "jack": 1}
    got = last("russian", [{**hand, "tricks": [2, 2, 3, 6], "revoke": 0}])
    assert got["deltas"] == [-10 - 8 - 2, -10 + 6, -10 + 4 - 2, -10 + 4 - 2]
    assert got["pools"] == [40]
    # A solo in ♠ (старшая) by seat 2, seat 1 revoked: R-T3 старшая at 8 = 32 from each of three, 96 from him.
    solo = {"bid": "solo", "bidder": 2, "trump": "spades", "turned": "spades", "jack": 0, "tricks": [4, 4, 4, 1]}
    got = last("russian", [{**solo, "revoke": 1}])
    assert got["deltas"] == [-10 + 6, -10 - 96 - 2, -10 + 96 - 2, -10 - 2]
    assert got["pools"] == [40]


def test_a_revoke_on_an_all_pass_deal_is_still_refused() -> None:
    error = refusal(sheet("american", [{"bid": "pass", "tricks": [4, 3, 3, 3], "revoke": 1}]))
    assert list(error["fields"]) == ["revoke"]


# --- a misdeal that passes the deal --------------------------------------------------------------------

MISDEAL = {"bid": "misdeal"}
FRENCH_PASS = {"bid": "pass", "turned": "spades"}


def test_french_misdeal_loses_the_deal_and_is_not_a_deal_of_the_game() -> None:
    """001:13 "A misdeal loses the deal": the deal passes to the right (dealer 0, then 3), nothing is paid
    (`misdeal_penalty` 0), and the next hand is deal 1 of the game: its turned suit is belle, it antes."""
    simple = {"bid": "simple", "bidder": 1, "trump": "hearts", "turned": "hearts", "jack": 2, "tricks": [2, 6, 3, 2]}
    hands = settled("french", [MISDEAL, simple, {**simple, "turned": "spades"}])["hands"]
    assert [(h["number"], h["dealer"]) for h in hands] == [(1, 0), (2, 3), (3, 2)]
    assert (hands[0]["transfers"], hands[0]["deltas"], hands[0]["pools"]) == ([], [0, 0, 0, 0], [0])
    assert (3, "pool", 10, "ante") in moves(hands[1])  # deal 1 of the game antes as usual
    # Hand 3 turns ♠ and plays ♥: belle is hand 2's ♥, not the misdeal's (it has none).
    assert hands[2]["deltas"][1] > 0


def test_french_misdeals_count_neither_towards_the_doubles_nor_the_game() -> None:
    """Deal 33 is the first double: after a misdeal, hand 33 is deal 32 (ante 10), hand 34 deal 33 (20)."""
    hands = settled("french", [MISDEAL, *[FRENCH_PASS] * 33])["hands"]
    assert [h["double"] for h in hands[31:34]] == [False, False, True]
    assert [h["pool_delta"] for h in hands[31:34]] == [10, 10, 20]


def test_american_misdeal_penalty_is_one_red_counter_and_the_game_is_still_twelve_deals() -> None:
    """§1.8, Foster's red counter (10 white) "same as at Boston": dealer 0 pays 10 into the pools, no ante.
    Twelve deals follow (thirteen hands), and a thirteenth deal is past the game."""
    passes = [{"bid": "pass", "tricks": [4, 3, 3, 3]}] * 12
    result = settled("american", [MISDEAL, *passes])
    first = result["hands"][0]
    assert (first["deltas"], first["pools"]) == ([-10, 0, 0, 0], [10])
    assert moves(first) == {(0, "pool", 10, "penalty")}
    assert result["hands"][1]["dealer"] == 1  # the deal passed to the left
    error = refusal(sheet("american", [MISDEAL, *passes, passes[0]]))
    assert (error["hand"], list(error["fields"])) == (14, ["hands"])


def test_fontainebleau_misdeal_penalty_is_a_house_rule() -> None:
    got = last("fontainebleau", [MISDEAL], rules={"misdeal_penalty": 3}, pools=[20])
    assert (got["deltas"], got["pools"]) == ([-3, 0, 0, 0], [23])


def test_russian_misdeal_forms_no_basket_and_passes_the_deal() -> None:
    """002:33 «право сдачи переходит к следующему играющему»: no basket formed on the misdeal; the next
    hand is deal 1 of the partie (its turned suit is старшая) and forms the basket."""
    simple = {"bid": "simple", "bidder": 1, "trump": "spades", "turned": "spades", "jack": 2, "tricks": [3, 6, 2, 2]}
    hands = settled("russian", [MISDEAL, simple])["hands"]
    assert (hands[0]["transfers"], hands[0]["pools"]) == ([], [0])
    assert hands[1]["dealer"] == 3 and hands[1]["pool_delta"] == 40 - 40  # formed, then taken by the buyer


def test_russian_misdealer_forfeits_his_share_of_a_division() -> None:
    """002:33 «строгие ревнители правил могут настоять на том, чтобы виновного лишали его доли в кассе».

    Seat 0 misdeals. Deal 1 (dealer 3), basket formed to 40. Unsupported simple by seat 1 in старшая ♠, 3
    tricks: R-T6 старшая 3 = 12 to each of 0, 2, 3. The three would divide 40; seat 0 forfeits, so 2 and
    3 take 20 each. Бостон: seat 2."""
    simple = {"bid": "simple", "bidder": 1, "trump": "spades", "turned": "spades", "jack": 2, "tricks": [4, 3, 3, 3]}
    got = last("russian", [MISDEAL, simple], rules={"misdeal_forfeits_share": True})
    assert got["deltas"] == [-10 + 12 - 2, -10 - 36 - 2, -10 + 12 + 20 + 6, -10 + 12 + 20 - 2]
    assert got["pools"] == [0]
    # At the close the basket (40 doubled by an all pass: 80) is divided by the three others: 26 each, 2 stay.
    result = settled(
        "russian",
        [MISDEAL, {"bid": "pass", "turned": "hearts"}],
        rules={"misdeal_forfeits_share": True},
        close={"pools": "divide"},
    )
    assert (result["close"]["division"], result["close"]["carried"]) == ([0, 26, 26, 26], [2])
    without = settled("russian", [MISDEAL, {"bid": "pass", "turned": "hearts"}], close={"pools": "divide"})
    assert without["close"]["division"] == [20, 20, 20, 20]


def test_a_misdeal_takes_no_field_but_its_number_and_adjustments() -> None:
    error = refusal(sheet("french", [{"bid": "misdeal", "turned": "spades"}]))
    assert error["fields"] == {"turned": ["a misdeal does not use the turned card: leave it empty"]}
    ruling = [{"from": 1, "to": "pool", "counters": 2, "note": "exposed a card"}]
    got = last("french", [{"bid": "misdeal", "number": 1, "adjustments": ruling}])
    assert (got["deltas"], got["pools"]) == ([0, -2, 0, 0], [2])


# --- paying instead of playing -----------------------------------------------------------------------------


def test_fontainebleau_bidder_pays_instead_of_playing() -> None:
    """000:111 "it is usual to allow him to pay instead of playing": an eight in ♠ (V 70) by seat 2, no
    card played, `pay_instead_short` 1 (the least loss): 70 + 5 to each adversary and 75 into the pool."""
    hand = {"bid": "eight", "bidder": 2, "trump": "spades", "conceded": "bidder"}
    got = last("fontainebleau", [hand])
    assert got["deltas"] == [-5 + 75, 75, -225 - 75, 75]
    assert got["pools"] == [80]


def test_american_bidder_pays_instead_of_playing_by_the_house_rule() -> None:
    """§0.11 "American the same, by house rule": a nine with `pay_instead_short` 2, A-T4 nine 2 short = 45
    to each adversary, and the pools (the ante's 5) doubled by him. `tricks` is not used."""
    hand = {"bid": "nine", "bidder": 0, "trump": "clubs", "conceded": "bidder"}
    got = last("american", [hand], rules={"pay_instead_short": 2})
    assert got["deltas"] == [-5 - 135 - 5, 45, 45, 45]
    assert got["pools"] == [10]
    # Short by more than the contract holds: a boston can fail by 5 at most (A-T4 five 5 short = 50).
    got = last("american", [{**hand, "bid": "boston"}], rules={"pay_instead_short": 13})
    assert got["deltas"][1:] == [50, 50, 50]


def test_paying_instead_is_refused_where_the_law_does_not_allow_it() -> None:
    error = refusal(sheet("american", [], rules={"pay_instead_short": 14}))
    said = "Paying instead of playing: enter a whole number from 1 to 13"
    assert error["fields"] == {"rules.pay_instead_short": [said]}
    misere = {"bid": "grand_misere", "bidder": 1, "conceded": "bidder", "tricks": [0, 0, 0, 0]}
    assert list(refusal(sheet("american", [misere]))["fields"]) == ["conceded"]
    french = {"bid": "independence_six", "bidder": 0, "trump": "clubs", "turned": "clubs", "jack": 1}
    assert list(refusal(sheet("french", [{**french, "conceded": "bidder"}]))["fields"]) == ["conceded", "tricks"]


# --- the Russian conditions agreed before play ---------------------------------------------------------


def test_remiz_is_paid_into_the_basket_before_an_all_pass_doubles_it() -> None:
    """002:108 «платить сдатчику в кассу две фишки, если у него на открытии козыря обнаружится туз».

    Deal 1, dealer 0: the basket is formed (40), then remiz 2 (42), then all pass doubles it: 10 from
    each and 2 more from the dealer: 84, not the 82 of an adjustment paid after the doubling."""
    got = last("russian", [{"bid": "pass", "turned": "spades", "ace_turned": True}], rules={"remiz": 2})
    assert got["pools"] == [84]
    assert got["deltas"] == [-10 - 2 - 12, -20, -20, -20]
    assert (0, "pool", 2, "penalty") in moves(got)
    error = refusal(sheet("russian", [{"bid": "pass", "turned": "spades", "ace_turned": True}]))
    assert error["fields"] == {
        "ace_turned": ["the ace turned counts only with the house rule “Remiz (ace turned)”: leave it empty"]
    }


def test_labet_switched_off_doubles_nothing() -> None:
    """002:110 «Бостон с лабетом»: an agreed condition. Off, a solo failed in старшая ♣ (7 tricks: R-T4
    40 to each) leaves the basket as it was (40); the бостон is seat 0's."""
    solo = {"bid": "solo", "bidder": 2, "trump": "clubs", "turned": "clubs", "jack": 0, "tricks": [2, 2, 7, 2]}
    got = last("russian", [solo], rules={"labet": False})
    assert got["deltas"] == [-10 + 40 + 6, -10 + 40 - 2, -10 - 120 - 2, -10 + 40 - 2]
    assert got["pools"] == [40]
    assert last("russian", [solo])["pools"] == [80]  # on by default: the labet doubles it


def test_solo_switched_off_is_refused() -> None:
    """002:112 «Индепанданс, или соло — при таком условии»: without the condition there is no solo."""
    solo = {"bid": "solo", "bidder": 2, "trump": "clubs", "turned": "clubs", "jack": 0, "tricks": [2, 2, 7, 2]}
    error = refusal(sheet("russian", [solo], rules={"solo": False}))
    assert error["code"] == "option_required"
    assert error["fields"] == {
        "rules.solo": ["a solo (индепанданс) is not played under these house rules: “Solo (индепанданс)” is off"]
    }


def test_open_misere_made() -> None:
    """002:114 «Петит-мизер уверт»: open, one card aside, no trick of twelve. 30 per opponent (its option),
    the basket taken; a misère made pays no бостон."""
    hand = {"bid": "open_misere", "bidder": 1, "turned": "hearts", "jack": 2, "tricks": [4, 0, 4, 4]}
    got = last("russian", [hand], rules={"open_misere": 30})
    assert got["deltas"] == [-40, -10 + 90 + 40, -40, -40]
    assert got["pools"] == [0]


def test_grand_open_misere_failed_pays_per_trick_taken() -> None:
    """002:118 «Гран-мизер уверт … Каждая взятка наказывается ремизом»: 20 per opponent × 2 tricks taken,
    a labet of 40, and (he does not hold the бостон) 2 to each of the three."""
    hand = {"bid": "grand_open_misere", "bidder": 3, "turned": "hearts", "jack": 1, "tricks": [4, 4, 3, 2]}
    got = last("russian", [hand], rules={"grand_open_misere": 20})
    assert got["deltas"] == [-10 + 40 + 2, -10 + 40 + 2, -10 + 40 + 2, -10 - 120 - 40 - 6]
    assert got["pools"] == [80]


def test_souverain_and_grand_souverain() -> None:
    """002:120 «Суверен: игрок обязан взять 12 взяток», 002:122 «Гран-суверен … все 13 взяток при закрытых
    картах». A souverain in старшая ♠ (rate 2), 12 tricks: 50 × 2 from each, the basket, бостон seat 0."""
    hand = {"bid": "souverain", "bidder": 0, "trump": "spades", "turned": "spades", "jack": 0, "tricks": [12, 1, 0, 0]}
    got = last("russian", [hand], rules={"souverain": {"made": 50, "failed": 40}})
    assert got["deltas"] == [-10 + 300 + 40 + 6, -112, -112, -112]
    # A grand souverain in ♥, a third suit (младшая rate, 1), 12 tricks: failed, 60 to each and a labet.
    grand = {**hand, "bid": "grand_souverain", "bidder": 2, "trump": "hearts", "jack": 1, "tricks": [0, 1, 12, 0]}
    got = last("russian", [grand], rules={"grand_souverain": {"made": 80, "failed": 60}})
    assert got["deltas"] == [-10 + 60 - 2, -10 + 60 + 6, -10 - 180 - 40 - 2, -10 + 60 - 2]
    assert got["pools"] == [80]
    error = refusal(sheet("russian", [hand]))
    assert (error["code"], list(error["fields"])) == ("option_required", ["rules.souverain"])


# --- the refusal order (§0.10) holds for the new events ------------------------------------------------


def test_the_refusal_order_holds_for_the_table_law() -> None:
    """Game limit first (a misdeal past the game, whatever its fields), then every broken field of the
    hand, then the option it needs (a switched-off solo), then the adjustments against the pool."""
    passes = [{"bid": "pass", "tricks": [4, 3, 3, 3]}] * 12
    error = refusal(sheet("american", [*passes, {"bid": "misdeal", "bidder": 9}]))
    assert (error["code"], error["hand"], list(error["fields"])) == ("invalid_hand", 13, ["hands"])
    solo = {"bid": "solo", "bidder": 2, "trump": "clubs", "turned": "clubs", "jack": 0, "tricks": [2, 2, 7, 2]}
    error = refusal(sheet("russian", [{**solo, "ace_turned": True}], rules={"solo": False}))
    assert (error["code"], list(error["fields"])) == ("invalid_hand", ["ace_turned"])
    taking = [{"from": "pool", "to": 1, "counters": 1, "note": "ruling"}]
    error = refusal(sheet("russian", [{**solo, "adjustments": taking}], rules={"solo": False}))
    assert (error["code"], list(error["fields"])) == ("option_required", ["rules.solo"])
    error = refusal(sheet("french", [{"bid": "misdeal", "adjustments": taking}]))
    assert (error["code"], list(error["fields"])) == ("invalid_hand", ["adjustments"])
