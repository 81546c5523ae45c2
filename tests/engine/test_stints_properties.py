"""Properties of a substitute mid-game (issue 37) over random valid sessions of every variant: a
substitution changes no deal's counters (those before it least of all), each stint's counters are exactly
its own deals' plus the share the variant's custom gives it, counters and money are conserved and the
payments square every stint; and a night of such tables settles the room as the sum of each player's
results at every table."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ledger.engine import settle
from ledger.engine.room import room_settlement, room_totals, table_results
from ledger.engine.samples import random_sheet
from ledger.engine.variants import find_variant, variant_names
from tests.engine.test_properties import STAKES, _rules

NAMES = ["Ann", "Ben", "Cleo", "Dan", "Eve", "Fay", "Gus", "Hal", "Ida", "Jo"]


def with_substitutions(raw: dict[str, Any], rng: random.Random, count: int, names: list[str]) -> dict[str, Any]:
    """The sheet with up to `count` substitutions at random deals and seats, by players not seated then."""
    hands = len(raw["hands"])
    if hands < 2:
        return raw
    seated = list(raw["players"])
    subs: list[dict[str, Any]] = []
    for first in sorted(rng.randint(2, hands + 1) for _ in range(count)):
        seat = rng.randrange(4)
        if any(s["seat"] == seat and s["from"] == first for s in subs):
            continue
        free = [n for n in names if n not in seated]
        player = rng.choice(free)
        seated[seat] = player
        subs.append({"seat": seat, "player": player, "from": first})
    return {**raw, "substitutions": subs}


@pytest.mark.parametrize("variant", variant_names())
@settings(max_examples=30, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    rules_index=st.integers(0, 10),
    stake_index=st.integers(1, 3),
    count=st.integers(1, 4),
    carried=st.lists(st.integers(0, 30), max_size=1),
    carry=st.booleans(),
)
def test_a_substitution_moves_no_counter_and_settles_each_stint_exactly(
    variant: str, seed: int, rules_index: int, stake_index: int, count: int, carried: list[int], carry: bool
) -> None:
    rng = random.Random(seed)
    plain = random_sheet(
        variant,
        rng,
        min(find_variant(variant).declaration.evening, 16),
        rules=_rules(variant, rules_index),
        pools=carried,
        stake=STAKES[stake_index],
        close={"pools": "carry" if carry else "divide"},
    )
    raw = with_substitutions(plain, rng, count, NAMES)
    before, after = settle(plain), settle(raw)
    # No deal's counters move: every hand settles as it did, and so does every seat's close, but where a
    # misdealer forfeits his share (Russian): the forfeit is then his stint's, not his seat's.
    assert after["hands"] == before["hands"]
    forfeits = raw["rules"].get("misdeal_forfeits_share") and any(h.get("bid") == "misdeal" for h in raw["hands"])
    assert forfeits or {k: after["close"][k] for k in ("division", "carried", "final")} == {
        k: before["close"][k] for k in ("division", "carried", "final")
    }
    close = after["close"]
    if "stints" not in close:
        assert "substitutions" not in raw
        return
    hands = after["hands"]
    shares = 0
    for stint in close["stints"]:
        last = len(hands) if stint["to"] is None else stint["to"]
        own = sum(h["deltas"][stint["seat"]] for h in hands[stint["from"] - 1 : last])
        share = stint["final"] - own
        assert share in (0, close["division"][stint["seat"]])  # his deals' exactly, and a share or none
        shares += share
        if stint["from"] == 1 and stint["to"] is not None:  # a leaver: the balance after his last deal
            assert own == hands[last - 1]["balances"][stint["seat"]]
    assert shares == sum(close["division"])  # each seat's share went to exactly one of its stints
    assert sum(s["final"] for s in close["stints"]) == sum(close["final"])
    money = [*close["money"], close["pool_money"]]
    assert sum(money) == 0 and [s["money"] for s in close["stints"]] == close["money"]
    for p in close["payments"]:
        money[-1 if p["from"] == "pool" else p["from"]] += p["cents"]
        money[-1 if p["to"] == "pool" else p["to"]] -= p["cents"]
    assert money == [0] * len(money)


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    tables=st.integers(1, 3),
)
def test_a_night_of_tables_with_substitutes_settles_the_room_as_the_sum_of_its_tables(seed: int, tables: int) -> None:
    rng = random.Random(seed)
    results = []
    per_player: dict[str, int] = {}
    for _ in range(tables):
        variant = rng.choice(variant_names())
        raw = random_sheet(variant, rng, rng.randint(2, 10), stake=STAKES[1], close={"pools": "divide"})
        four = rng.sample(NAMES, 4)  # a member may sit at two tables of the night
        raw["players"] = four
        raw = with_substitutions(raw, rng, rng.randint(0, 2), NAMES)
        close = settle(raw)["close"]
        parties = [s["player"] for s in close["stints"]] if "stints" in close else list(four)
        result = table_results(parties, close)
        assert sum(result.values()) == 0
        results.append(result)
        for player, cents in zip(parties, close["money"], strict=True):
            per_player[player] = per_player.get(player, 0) + cents
    totals = room_totals(results)
    assert {p: a for p, a in totals.items() if p != "pool"} == per_player
    balance = dict(totals)
    for payer, payee, cents in room_settlement(results):
        balance[payer] += cents
        balance[payee] -= cents
    assert set(balance.values()) <= {0}
