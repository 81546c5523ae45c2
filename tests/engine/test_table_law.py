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
