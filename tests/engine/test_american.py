"""American Boston (rules.md §1): the worked examples, the pools, misère partout, the last trick."""

from __future__ import annotations

import pytest

from ledger.engine import settle
from ledger.engine.pools import AmericanPools
from tests.engine.helpers import one_deal, sheet


@pytest.mark.parametrize(
    ("rules", "dealer", "pools", "hand", "deltas", "after"),
    [
        pytest.param(
            {},
            1,
            [55],
            {"bid": "six", "bidder": 3, "trump": "diamonds", "tricks": [2, 2, 1, 8]},
            [-15, -20, -15, 105],
            [],
            id="A1",
        ),
        pytest.param(
            {"table": "classic"},
            3,
            [75],
            {"bid": "seven", "bidder": 1, "trump": "spades", "tricks": [0, 1, 0, 0], "conceded": True},
            [-18, 134, -18, -23],
            [],
            id="A2",
        ),
        pytest.param(
            {"table": "classic"},
            3,
            [75],
            {"bid": "seven", "bidder": 1, "trump": "spades", "tricks": [1, 9, 2, 1]},
            [-21, 143, -21, -26],
            [],
            id="A2-played-out",
        ),
        pytest.param(
            {},
            1,
            [65],
            {"bid": "grand_spread", "bidder": 3, "tricks": [1, 1, 1, 1]},
            [160, 155, 160, -550],
            [100, 40],
            id="A3",
        ),
        pytest.param({}, 0, [70], {"bid": "pass", "tricks": [5, 5, 1, 2]}, [-40, -35, 40, 30], [75], id="A4"),
    ],
)
def test_worked_examples(rules, dealer, pools, hand, deltas, after) -> None:
    settled = one_deal("american", hand, rules=rules, first_dealer=dealer, pools=pools)
    assert settled["deltas"] == deltas
    assert settled["pools"] == after


def test_a4_misere_partout_pays_half_shares() -> None:
    settled = one_deal("american", {"bid": "pass", "tricks": [5, 5, 1, 2]}, pools=[70])
    assert {(t["from"], t["to"], t["counters"]) for t in settled["transfers"] if t["reason"] == "contract"} == {
        (0, 2, 20),
        (1, 2, 20),
        (0, 3, 15),
        (1, 3, 15),
    }


def test_misere_partout_three_losers_pay_ten_each() -> None:
    settled = one_deal("american", {"bid": "pass", "tricks": [4, 4, 1, 4]}, rules={"ante": 0})
    assert settled["deltas"] == [-10, -10, 30, -10]


def test_misere_partout_one_loser_pays_the_red_counter_rule() -> None:
    settled = one_deal("american", {"bid": "pass", "tricks": [6, 3, 2, 2]}, rules={"ante": 0})
    assert settled["deltas"] == [-10 * (4 * 6 - 13), 30, 40, 40]


def test_boston_conceded_leaves_the_pool_but_a_pool_bid_conceded_takes_it() -> None:
    boston = one_deal(
        "american",
        {"bid": "boston", "bidder": 0, "trump": "hearts", "tricks": [0, 0, 0, 0], "conceded": True},
        pools=[40],
    )
    assert boston["pools"] == [45] and boston["deltas"] == [30 - 5, -10, -10, -10]  # the bidder dealt
    seven = one_deal(
        "american",
        {"bid": "seven", "bidder": 0, "trump": "hearts", "tricks": [0, 0, 0, 0], "conceded": True},
        pools=[40],
    )
    assert seven["pools"] == [] and seven["deltas"] == [60 - 5 + 45, -20, -20, -20]


def test_a_failed_boston_still_doubles_the_pool() -> None:
    settled = one_deal("american", {"bid": "boston", "bidder": 2, "trump": "clubs", "tricks": [3, 3, 4, 3]}, pools=[20])
    assert settled["pools"] == [50]
    assert {"from": 2, "to": "pool", "counters": 25, "reason": "pool"} in settled["transfers"]


def test_misere_made_and_failed() -> None:
    made = one_deal("american", {"bid": "little_misere", "bidder": 1, "tricks": [4, 0, 4, 4]}, rules={"ante": 0})
    assert made["deltas"] == [-20, 60, -20, -20]
    failed = one_deal("american", {"bid": "grand_misere", "bidder": 1, "tricks": [4, 1, 4, 4]}, rules={"ante": 0})
    assert failed["deltas"] == [40, -120, 40, 40]


def test_over_tricks_only_in_the_classic_table() -> None:
    hand = {"bid": "eight", "bidder": 0, "trump": "spades", "tricks": [11, 1, 1, 0]}
    assert one_deal("american", hand, rules={"ante": 0})["deltas"] == [75, -25, -25, -25]
    assert one_deal("american", hand, rules={"ante": 0, "table": "classic"})["deltas"] == [84, -28, -28, -28]


def test_classic_failure_put_in_for() -> None:
    hand = {"bid": "ten", "bidder": 3, "trump": "hearts", "tricks": [2, 2, 2, 7]}
    assert one_deal("american", hand, rules={"ante": 0, "table": "classic"})["deltas"] == [70, 70, 70, -210]


class TestPools:
    def test_feed_fills_the_newest_pool_up_to_the_limit(self) -> None:
        pools = AmericanPools((95,), 100)
        pools.feed(30)
        assert pools.as_list() == [100, 25]
        pools.feed(200)
        assert pools.as_list() == [100, 100, 100, 25]

    def test_take_prefers_the_oldest_full_pool(self) -> None:
        pools = AmericanPools((40, 100, 100), 100)
        assert pools.take() == 100
        assert pools.as_list() == [40, 100]
        none_full = AmericanPools((40, 30), 100)
        assert none_full.take() == 40

    def test_double_with_several_pools_adds_the_oldest_amount_as_a_new_pool(self) -> None:
        pools = AmericanPools((60, 100), 100)
        assert pools.double() == 60
        assert pools.as_list() == [60, 100, 60]

    def test_double_one_pool_splits_past_the_limit(self) -> None:
        pools = AmericanPools((70,), 100)
        assert pools.double() == 70
        assert pools.as_list() == [100, 40]
        small = AmericanPools((30,), 100)
        small.double()
        assert small.as_list() == [60]

    def test_no_limit_never_splits(self) -> None:
        pools = AmericanPools((170,), None)
        pools.feed(500)
        pools.double()
        assert pools.as_list() == [1340]

    def test_withdraw_takes_the_newest_first(self) -> None:
        pools = AmericanPools((100, 30), 100)
        pools.withdraw(50)
        assert pools.as_list() == [80]

    def test_carried_zero_pools_are_dropped(self) -> None:
        assert AmericanPools((0, 15, 0), 100).as_list() == [15]


def test_last_trick_hand_takes_every_pool_in_one_transfer() -> None:
    hands = [{"bid": "pass", "tricks": [4, 3, 3, 3]}] * 12 + [{"bid": "last_trick", "last_trick": 2}]
    result = settle(sheet("american", hands, rules={"last_trick_hand": True}, pools=[100, 20]))
    last = result["hands"][12]
    assert last["transfers"][-1] == {"from": "pool", "to": 2, "counters": 100 + 20 + 13 * 5, "reason": "pool"}
    assert last["pools"] == []


def test_adjustments_come_last_in_the_order_listed_and_are_summed() -> None:
    hand = {
        "bid": "six",
        "bidder": 0,
        "trump": "clubs",
        "tricks": [7, 2, 2, 2],
        "adjustments": [
            {"from": 1, "to": "pool", "counters": 10, "note": "misdeal"},
            {"from": 2, "to": 3, "counters": 4, "note": "ruling"},
            {"from": 1, "to": "pool", "counters": 10, "note": "misdeal again"},
        ],
    }
    settled = one_deal("american", hand)
    assert settled["transfers"][-2:] == [
        {"from": 1, "to": "pool", "counters": 20, "reason": "adjustment"},
        {"from": 2, "to": 3, "counters": 4, "reason": "adjustment"},
    ]
    assert settled["pools"] == [20]


def test_transfers_follow_the_order_of_section_0_9() -> None:
    settled = one_deal(
        "american", {"bid": "seven", "bidder": 2, "trump": "hearts", "tricks": [2, 1, 8, 2]}, first_dealer=3, pools=[10]
    )
    assert [(t["from"], t["to"], t["reason"]) for t in settled["transfers"]] == [
        (3, "pool", "ante"),
        (0, 2, "contract"),
        (1, 2, "contract"),
        (3, 2, "contract"),
        ("pool", 2, "pool"),
    ]
