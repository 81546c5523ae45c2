"""The engine's cut-in (issue 37): the break of each variant's game, who cuts out (the longest seated, a
tie by lot; or by lot), who cuts in (the head of the waiting line), the next game's seats by lot, and
the lot's seed derived from the night's draw seed, so a cut-in replays."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ledger.engine.room import CutMethod, at_break, cut_in, cut_seed, game_break


def test_the_break_is_the_twelfth_deal_or_the_partie() -> None:
    breaks = {"american": 12, "fontainebleau": 12, "french": 40, "russian": 40}
    assert {v: game_break(v) for v in breaks} == breaks
    assert not at_break("american", 11) and at_break("american", 12) and at_break("fontainebleau", None)
    assert not at_break("russian", 39) and at_break("russian", 40) and at_break("french", 44)


def test_the_longest_seated_cuts_out() -> None:
    cut = cut_in(["a", "b", "c", "d"], ["e", "f"], {"a": 1, "b": 3, "c": 2, "d": 1}, random.Random(1))
    assert cut.out == ("b",) and cut.into == ("e",)
    two = cut_in(["a", "b", "c", "d"], ["e", "f"], {"a": 1, "b": 3, "c": 2, "d": 1}, random.Random(1), count=2)
    assert two.out == ("b", "c") and two.into == ("e", "f")
    assert sorted(two.table.seats) == ["a", "d", "e", "f"]


def test_a_tie_and_the_lot_are_the_seeds_and_replay() -> None:
    seed = cut_seed(158, 1, 1)
    assert seed == cut_seed(158, 1, 1) != cut_seed(158, 1, 2) and 0 <= seed < 2**53
    first = cut_in([1, 2, 3, 4], [5], {}, random.Random(seed))
    assert first == cut_in([1, 2, 3, 4], [5], {}, random.Random(seed))
    outs = {cut_in([1, 2, 3, 4], [5], {}, random.Random(s), method="lot").out for s in range(40)}
    assert outs == {(1,), (2,), (3,), (4,)}  # each can be cut out by the lot


def test_refusals() -> None:
    with pytest.raises(ValueError):
        cut_in([1, 2, 3, 4], [], {}, random.Random(0))
    with pytest.raises(ValueError):
        cut_in([1, 2, 3, 4], [5], {}, random.Random(0), count=2)
    with pytest.raises(ValueError):
        cut_in([1, 2, 3, 4], [4], {}, random.Random(0))
    with pytest.raises(ValueError):
        cut_in([1, 2, 3, 4], [5], {}, random.Random(0), method="age")  # type: ignore[arg-type]


@given(
    st.integers(min_value=1, max_value=4),
    st.lists(st.integers(min_value=1, max_value=5), min_size=4, max_size=4),
    st.integers(min_value=0, max_value=2**53 - 1),
    st.sampled_from(["longest", "lot"]),
)
def test_a_cut_in_seats_the_staying_and_the_waiting(count: int, games: list[int], seed: int, method: CutMethod) -> None:
    seated, waiting = [1, 2, 3, 4], [5, 6, 7, 8]
    cut = cut_in(
        seated, waiting, dict(zip(seated, games, strict=True)), random.Random(seed), method=method, count=count
    )
    assert len(cut.out) == count and set(cut.out) <= set(seated) and cut.into == tuple(waiting[:count])
    assert set(cut.table.seats) == (set(seated) - set(cut.out)) | set(cut.into) and 0 <= cut.table.first_dealer < 4
    if method == "longest":
        stay = [g for p, g in zip(seated, games, strict=True) if p not in cut.out]
        assert min(g for p, g in zip(seated, games, strict=True) if p in cut.out) >= max(stay, default=0)
