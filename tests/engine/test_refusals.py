"""rules.md §0.10 as the issue "One declaration per variant" spells it: every broken field of a hand, the
six refusal points, messages in plain words, and a refused hand that changes nothing."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ledger.engine import EngineError, Replay, parse_sheet, settle
from ledger.engine.messages import Message
from ledger.engine.samples import playable_rules, random_sheet
from ledger.engine.variants import get_variant, variant_names
from ledger.engine.variants.declaration import FORBIDDEN, REQUIRED, TABLE_FIELDS


def sheet(variant: str, hands: list[Any], **extra: Any) -> dict[str, Any]:
    return {
        "format": "clubscore-sheet/1",
        "variant": variant,
        "players": ["Ann", "Ben", "Cleo", "Dan"],
        "first_dealer": 0,
        "hands": hands,
        **extra,
    }


def refusal(raw: dict[str, Any]) -> dict[str, Any]:
    with pytest.raises(EngineError) as caught:
        settle(raw)
    return caught.value.as_json()["error"]


# --- 1. every broken field --------------------------------------------------------------------------


def test_a_last_trick_bid_on_deal_1_with_trick_fields_names_the_bid_too() -> None:
    hand = {"bid": "last_trick", "bidder": 0, "trump": "clubs", "tricks": [6, 3, 2, 2]}
    error = refusal(sheet("american", [hand], rules={"last_trick_hand": True}))
    assert set(error["fields"]) == {"bid", "bidder", "trump", "tricks", "last_trick"}


@pytest.mark.parametrize(
    ("variant", "hands", "field"),
    [
        ("american", [{"bid": "six", "bidder": 1, "partner": 1, "trump": "clubs", "tricks": [2, 6, 2, 3]}], "partner"),
        ("american", [{"bid": "six", "bidder": 1, "trump": "clubs", "tricks": [2, 6, 2, 2]}], "tricks"),
        (
            "french",
            [
                {"bid": "pass", "turned": "hearts"},
                {"bid": "simple", "bidder": 0, "trump": "spades", "turned": "clubs", "jack": 1, "tricks": [6, 3, 2, 2]},
            ],
            "trump",
        ),
        (
            "russian",
            [
                {
                    "bid": "solo",
                    "bidder": 0,
                    "trump": "clubs",
                    "turned": "spades",
                    "jack": 1,
                    "tricks": [8, 3, 1, 2],
                }
            ],
            "tricks",
        ),
        (
            "fontainebleau",
            [{"bid": "six", "bidder": 0, "trump": "none", "honours": 3, "tricks": [7, 2, 2, 2]}],
            "honours",
        ),
    ],
)
def test_a_rule_between_fields_is_named_beside_a_type_error(variant: str, hands: list[Any], field: str) -> None:
    """The checks that tie fields together still run when another field of the hand is malformed."""
    rules = {"honours": True} if variant == "fontainebleau" else {}
    broken = copy.deepcopy(hands)
    broken[-1]["number"] = "oops"
    error = refusal(sheet(variant, broken, rules=rules))
    assert {field, "number"} <= set(error["fields"])


RUSSIAN_SOLO = {"bid": "solo", "trump": "clubs", "turned": "spades", "jack": 1, "tricks": [8, 3, 1, 1]}
RUSSIAN_SIMPLE = {**RUSSIAN_SOLO, "bid": "simple", "trump": "spades"}  # deal 1: in belle, the turned suit


@pytest.mark.parametrize("bidder", ["missing", None, 7, True])
@pytest.mark.parametrize(
    ("variant", "hand", "field", "said"),
    [
        (
            "american",
            {"bid": "six", "trump": "clubs", "tricks": [2, 6, 2, 2]},
            "tricks",
            "the four seats' tricks must add up to 13, not 12",
        ),
        (
            "russian",
            {**RUSSIAN_SOLO, "tricks": [8, 3, 1, 2]},
            "tricks",
            "the four seats' tricks must add up to 13, not 14",
        ),
    ],
)
def test_a_hand_without_its_bidder_still_names_what_can_be_judged_without_him(
    variant: str, hand: dict[str, Any], field: str, said: str, bidder: Any
) -> None:
    """rules.md §0.10: every broken field of the hand, beside a bidder missing or malformed (issue 28)."""
    raw = dict(hand) if bidder == "missing" else {**hand, "bidder": bidder}
    error = refusal(sheet(variant, [raw]))
    assert set(error["fields"]) == {"bidder", field}
    assert error["fields"][field] == [said]


def test_a_revoke_by_the_supporter_is_the_buyers_side_even_without_the_buyer() -> None:
    hand = {**RUSSIAN_SIMPLE, "partner": 3, "revoke": 3}
    assert set(refusal(sheet("russian", [hand]))["fields"]) == {"bidder"}


# A value that is malformed for the field whatever the bid: (field, value).
MALFORMED = {
    "bidder": 7,
    "partner": "north",
    "trump": "stars",
    "turned": "moons",
    "tricks": [1, 2],
    "honours": 2,
    "conceded": "yes",
    "jack": -1,
    "revoke": True,
    "last_trick": 4.0,
}


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(sorted(variant_names())), st.integers(0, 10_000), st.data())
def test_a_hand_with_several_broken_fields_names_all_of_them(variant: str, seed: int, data: Any) -> None:
    raw = random_sheet(variant, random.Random(seed), 3, rules=playable_rules(variant))
    hands = raw["hands"]
    declared = get_variant(variant).declaration.bid[hands[-1]["bid"]]
    options = get_variant(variant).parse_options(raw["rules"])
    usable = [f for f in TABLE_FIELDS if declared.mode(f, options) != FORBIDDEN]
    forbidden = [f for f in TABLE_FIELDS if declared.mode(f, options) == FORBIDDEN and f not in ("honours",)]
    pick = data.draw(st.lists(st.sampled_from(usable), unique=True)) if usable else []
    extra = data.draw(st.lists(st.sampled_from(forbidden), unique=True, max_size=3)) if forbidden else []
    unknown = data.draw(st.booleans())
    hand = dict(hands[-1])
    for name in pick:
        hand[name] = MALFORMED[name]
    for name in extra:
        hand[name] = 1 if name not in ("trump", "turned") else "clubs"
    if unknown:
        hand["score"] = 3
    want = set(pick) | set(extra) | ({"score"} if unknown else set())
    if not want:
        return
    raw["hands"] = [*hands[:-1], hand]
    error = refusal(raw)
    assert error["code"] == "invalid_hand" and error["hand"] == len(hands)
    assert want <= set(error["fields"]), (want, error["fields"])


# --- 2-6 ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("per_counter", ["1٠", "١", "0.0٥", "１"])
def test_per_counter_takes_only_ascii_digits(per_counter: str) -> None:
    error = refusal(sheet("american", [], stake={"currency": "USD", "per_counter": per_counter}))
    assert (error["code"], list(error["fields"])) == ("invalid_sheet", ["stake"])


@pytest.mark.parametrize("players", [["Ann", "", "Cleo", "Dan"], ["Ann", "Ben", "  ", "Dan"], ["\t", "B", "C", "D"]])
def test_a_blank_player_name_is_invalid_sheet(players: list[str]) -> None:
    error = refusal(sheet("american", [], players=players))
    assert (error["code"], list(error["fields"])) == ("invalid_sheet", ["players"])


@pytest.mark.parametrize("rules", [[], "classic", 3, True])
def test_rules_that_are_not_an_object_are_invalid_sheet(rules: Any) -> None:
    error = refusal(sheet("american", [], rules=rules))
    assert (error["code"], list(error["fields"])) == ("invalid_sheet", ["rules"])


def test_a_hand_entry_that_is_not_an_object_is_invalid_hand_in_deal_order() -> None:
    good = {"bid": "pass", "tricks": [4, 3, 3, 3]}
    error = refusal(sheet("american", [good, "pass", {"bid": "x"}]))
    assert (error["code"], error["hand"], list(error["fields"])) == ("invalid_hand", 2, ["hands"])
    earlier = refusal(sheet("american", [{"bid": "x"}, ["pass"]]))
    assert (earlier["hand"], list(earlier["fields"])) == (1, ["bid"])


@pytest.mark.parametrize("tricks", [[0.0, 0, 0, 0], [0, 0, 0, False], [0, 0, 0, 0, 0]])
@pytest.mark.parametrize(
    ("variant", "hand", "rules"),
    [
        ("french", {"bid": "pass", "turned": "hearts"}, {}),
        ("american", None, {"last_trick_hand": True}),
    ],
)
def test_a_forbidden_field_is_accepted_only_as_its_default_of_its_own_type(
    variant: str, hand: dict[str, Any] | None, rules: dict[str, Any], tricks: list[Any]
) -> None:
    if hand is None:  # the American last-trick deal
        hands: list[Any] = [{"bid": "pass", "tricks": [4, 3, 3, 3]}] * 12 + [{"bid": "last_trick", "last_trick": 1}]
    else:
        hands = [hand]
    assert settle(sheet(variant, [*hands[:-1], {**hands[-1], "tricks": [0, 0, 0, 0]}], rules=rules))
    error = refusal(sheet(variant, [*hands[:-1], {**hands[-1], "tricks": tricks}], rules=rules))
    assert (error["code"], list(error["fields"])) == ("invalid_hand", ["tricks"])


# --- messages ------------------------------------------------------------------------------------------


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(sorted(variant_names())), st.integers(0, 10_000), st.sampled_from(sorted(MALFORMED)))
def test_messages_are_plain_words(variant: str, seed: int, name: str) -> None:
    raw = random_sheet(variant, random.Random(seed), 2, rules=playable_rules(variant))
    raw["hands"][-1] = {**raw["hands"][-1], name: MALFORMED[name], "bidder": None}
    try:
        settle(raw)
    except EngineError as exc:
        for messages in exc.fields.values():
            for message in messages:
                assert "`" not in message and "0-3" not in message and "_" not in message.split(":")[0], message
                assert isinstance(message, Message) and message.id and isinstance(message.params, dict)


def test_a_required_field_says_what_to_do() -> None:
    error = refusal(sheet("american", [{"bid": "six", "trump": "clubs", "tricks": [6, 3, 2, 2]}]))
    assert error["fields"] == {"bidder": ["choose who bid"]}
    assert all(get_variant(v).declaration.bid[b].mode("bidder") in (REQUIRED, FORBIDDEN, "optional")
               for v in variant_names() for b in get_variant(v).bids)  # fmt: skip


# --- a refused hand changes nothing ------------------------------------------------------------------


@pytest.mark.parametrize("variant", sorted(variant_names()))
def test_a_refused_hand_changes_nothing(variant: str) -> None:
    raw = random_sheet(variant, random.Random(7), 4, rules=playable_rules(variant))
    run = Replay(parse_sheet(raw))
    for hand in raw["hands"]:
        run.settle_next(hand)
    before = (run.number, list(run.balances), run.pools.as_list(), copy.copy(run.state))
    greedy = dict(raw["hands"][0], adjustments=[{"from": "pool", "to": 1, "counters": 10**9, "note": "ruling"}])
    with pytest.raises(EngineError):
        run.settle_next(greedy)
    assert (run.number, list(run.balances), run.pools.as_list(), copy.copy(run.state)) == before


# --- a house rule is named by its label --------------------------------------------------------------

SIX = {"bid": "six", "bidder": 0, "trump": "clubs", "tricks": [6, 3, 2, 2]}
NEUF = {"bid": "neuf", "bidder": 0, "trump": "clubs", "turned": "clubs", "jack": 0, "tricks": [9, 1, 1, 2]}


@pytest.mark.parametrize(
    ("raw", "field", "said"),
    [
        (  # hand.only_extra_deal
            sheet("american", [{"bid": "last_trick", "last_trick": 0}]),
            "bid",
            "a last trick is only the last deal, played with the house rule “Last-trick hand”",
        ),
        (  # hand.past_game_extra
            sheet("american", [SIX] * 13),
            "hands",
            "the game is 12 deals, and a last one only with the house rule “Last-trick hand”",
        ),
        (  # hand.forbidden.option
            sheet("fontainebleau", [{**SIX, "honours": 3}]),
            "honours",
            "the honours counts only with the house rule “Count honours”: leave it empty",
        ),
        (  # hand.option_required
            sheet("french", [NEUF]),
            "rules.neuf",
            "a neuf needs the house rule “Neuf amounts”: set its amounts when opening the session",
        ),
        (  # option.unknown
            sheet("french", [], rules={"nope": 1}),
            "rules.nope",
            "nope is not a house rule of this variant (its rules: “Neuf amounts”, “Misdeal penalty”)",
        ),
    ],
    ids=["only_extra_deal", "past_game_extra", "forbidden.option", "option_required", "option.unknown"],
)
def test_the_engine_names_a_house_rule_by_its_label(raw: dict[str, Any], field: str, said: str) -> None:
    """The engine's own English (the CLI, `as_json()`) says the rule as a player reads it on the pages,
    quoted, not its code (`last_trick_hand`); the code stays in the field's key (`rules.neuf`)."""
    error = refusal(raw)
    assert error["fields"] == {field: [said]}
    assert said in error["message"]
