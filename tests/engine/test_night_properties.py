"""Issue 37's properties over whole random nights with both cut-ins and substitutes: the arrivals drawn
into tables (`draw_tables`), each table playing one to three games; at each game's break the waiting
cut in (`cut_in`, the longest seated or by lot) and the pools are carried into the next game; during any
game a player may leave and a guest or a waiting player take his seat from a random deal
(`with_substitutions`). Then the night's settlement conserves money, its totals are the sum of each
player's results at every table (each stint his own), its transfers square everyone (the fewest, checked
exhaustively while there are at most nine parties), and no substitution moved a counter of a deal
before it."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from ledger.engine import settle
from ledger.engine.room import CutMethod, cut_in, draw_tables, game_break, room_settlement, table_results
from ledger.engine.samples import random_sheet
from ledger.engine.variants import variant_names
from tests.engine.test_properties import STAKES
from tests.engine.test_room import _check
from tests.engine.test_stints_properties import with_substitutions
from tests.exhaustive import most_zero_groups

MEMBERS = [f"M{i}" for i in range(1, 14)]


def settle_game(
    variant: str, rng: random.Random, seats: list[str], candidates: list[str], *, last: bool, **sheet: Any
) -> tuple[dict[str, Any], dict[str, Any]]:
    """One game at `seats`: to its break when a cut-in follows, else a few deals; substitutes drawn from
    `candidates`. Returns the sheet and its settlement, after checking the deals before each substitution
    settle as they did when they were recorded (the sheet then had neither those later deals nor it)."""
    deals = rng.randint(2, 12) if last else game_break(variant)
    plain = random_sheet(variant, rng, deals, close={"pools": "divide" if last else "carry"}, **sheet)
    plain["players"] = list(seats)
    raw = with_substitutions(plain, rng, rng.randint(0, 2), candidates)
    settled = settle(raw)
    for sub in raw.get("substitutions", []):
        before = sub["from"] - 1
        recorded = settle({**plain, "hands": plain["hands"][:before]})
        assert settled["hands"][:before] == recorded["hands"]  # no counter of an earlier deal moved
    return raw, settled


def play_night(seed: int, arrivals: int, variant: str, stake_index: int) -> tuple[int, int]:
    """Plays the night and checks its room; returns how many cut-ins and substitutions it had."""
    rng = random.Random(seed)
    draw = draw_tables(MEMBERS[:arrivals], rng)
    waiting = list(draw.waiting)
    guests = [f"Guest {i}" for i in range(24)]
    results: list[dict[str, int]] = []
    per_player: dict[str, int] = {}
    cut_ins = substitutions = 0
    for table in draw.tables:
        seats, pools = list(table.seats), list[int]()
        in_a_row = dict.fromkeys(seats, 1)
        games = rng.randint(1, 3)
        for game in range(1, games + 1):
            last = game == games
            raw, settled = settle_game(
                variant, rng, seats, waiting + guests, last=last, pools=pools, stake=STAKES[stake_index]
            )
            close = settled["close"]
            subs = raw.get("substitutions", [])
            substitutions += len(subs)
            parties = [s["player"] for s in close["stints"]] if "stints" in close else list(seats)
            result = table_results(parties, close)
            assert sum(result.values()) == 0  # each game's money adds up, the pool's included
            results.append(result)
            for player, cents in zip(parties, close["money"], strict=True):
                per_player[player] = per_player.get(player, 0) + cents
            for sub in subs:  # the substitute sits now; the leaver rose and left (he does not wait)
                seats[sub["seat"]] = sub["player"]
                in_a_row[sub["player"]] = 1
                for pool in (waiting, guests):
                    if sub["player"] in pool:
                        pool.remove(sub["player"])
            if last:
                break
            pools = list(close["carried"])  # the cut-in closes with the pools carried into the next game
            if waiting:
                count = rng.randint(1, min(4, len(waiting)))
                method: CutMethod = rng.choice(["longest", "lot"])
                cut = cut_in(seats, waiting, in_a_row, rng, method=method, count=count)
                assert cut.into == tuple(waiting[:count]) and set(cut.out) <= set(seats)
                waiting = waiting[count:] + list(cut.out)  # who cut out queues at the end of the line
                seats = list(cut.table.seats)  # the next game's seats by lot (its dealer is the sheet's)
                in_a_row = {p: in_a_row.get(p, 0) + 1 if p not in cut.into else 1 for p in seats}
                cut_ins += 1
            else:
                in_a_row = {p: n + 1 for p, n in in_a_row.items() if p in seats}
    totals = _check(results, room_settlement(results))  # the room's totals, its transfers square them
    assert sum(totals.values()) == 0  # money is conserved across the room
    assert {p: a for p, a in totals.items() if p != "pool"} == per_player
    owing = tuple(a for a in totals.values() if a)
    if len(owing) <= 9:
        assert len(room_settlement(results)) == len(owing) - most_zero_groups(owing)
    return cut_ins, substitutions


@settings(max_examples=30, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    arrivals=st.integers(5, 13),
    variant=st.sampled_from(variant_names()),
    stake_index=st.integers(1, 3),
)
def test_a_night_with_cut_ins_and_substitutes_settles_the_room_as_the_sum_of_its_tables(
    seed: int, arrivals: int, variant: str, stake_index: int
) -> None:
    play_night(seed, arrivals, variant, stake_index)


def test_the_random_nights_do_have_both_cut_ins_and_substitutes() -> None:
    """The generator is not vacuous: among a few nights of nine, most have both."""
    both = sum(all(play_night(seed, 9, "american", 1)) for seed in range(10))
    assert both >= 3, both
