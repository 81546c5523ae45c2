"""What the scorer may offer: only what the engine would take under the session's own rules."""

from __future__ import annotations

from typing import Any

import pytest

from ledger.engine import EngineError, settle
from ledger.engine.variants import get_variant, variant_names
from ledger.selectors import deal_legal
from ledger.web.legal import bids_allowed
from tests.ledger_fixtures import open_session


def sheet(variant: str, rules: dict, hands: list[dict]) -> dict:
    return {
        "format": "clubscore-sheet/1",
        "variant": variant,
        "players": ["A", "B", "C", "D"],
        "first_dealer": 0,
        "rules": rules,
        "hands": hands,
    }


def bid_rules(variant: str, rules: dict, number: int = 1, first: dict | None = None) -> dict[str, dict]:
    """Each bid's entry of `deal_legal` (the one reader of what a deal may be), by its code."""
    return {b["code"]: b for b in deal_legal(variant=variant, rules=rules, number=number, first=first)["bids"]}


def test_the_last_trick_hand_only_on_deal_13_and_only_with_the_option() -> None:
    assert "last_trick" not in bids_allowed("american", {}, 1)
    assert "last_trick" not in bids_allowed("american", {"last_trick_hand": True}, 12)
    assert bids_allowed("american", {"last_trick_hand": True}, 13) == ["last_trick", "misdeal"]


def test_a_bid_needing_an_option_is_offered_only_with_it() -> None:
    assert "neuf" not in bids_allowed("french", {}, 1)
    neuf = {
        "base": dict.fromkeys(("spades", "clubs", "diamonds", "hearts"), 10),
        "extra": dict.fromkeys(("spades", "clubs", "diamonds", "hearts"), 1),
    }
    assert "neuf" in bids_allowed("french", {"neuf": neuf}, 1)
    assert bids_allowed("russian", {}, 2) == ["simple", "solo", "pass", "misdeal"]
    assert bids_allowed("russian", {"misere": 20}, 2) == ["simple", "solo", "misere", "pass", "misdeal"]


def test_honours_are_offered_only_with_the_house_rule() -> None:
    assert bid_rules("fontainebleau", {})["seven"]["fields"]["honours"] == "forbidden"
    assert bid_rules("fontainebleau", {"honours": True})["seven"]["fields"]["honours"] == "optional"


@pytest.mark.parametrize("variant", ["french", "russian"])
def test_a_simple_is_played_in_belle_or_the_turned_suit(variant: str) -> None:
    first = {"bid": "pass", "turned": "hearts"}
    simple = bid_rules(variant, {}, 2, first)["simple"]
    assert (simple["trumps"], simple["trumps_turned"]) == (["hearts"], True)  # belle, or the deal's turned suit
    base = {"bid": "simple", "bidder": 0, "turned": "clubs", "jack": 1, "tricks": [6, 3, 2, 2]}
    for trump in ("hearts", "clubs"):  # belle, and this deal's turned suit: taken
        settle(sheet(variant, {}, [first, {**base, "trump": trump}]))
    try:  # a third suit: refused, so the form never offers it
        settle(sheet(variant, {}, [first, {**base, "trump": "spades"}]))
    except EngineError as exc:
        assert "trump" in exc.fields
    else:
        raise AssertionError("a simple in a third suit was taken")


def test_every_offered_bid_has_its_engine_fields_and_trick_total() -> None:
    for variant in variant_names():
        engine = get_variant(variant)
        switches: dict[str, dict[str, Any]] = {"fontainebleau": {"honours": True}, "russian": {"remiz": 2}}
        switched_on = switches.get(variant, {})
        for bid, rules in bid_rules(variant, switched_on).items():
            assert {f for f, mode in rules["fields"].items() if mode != "forbidden"} == set(engine.fields[bid])
            assert rules["tricks"]["total"] in (12, 13)
    assert bid_rules("american", {})["little_misere"]["tricks"] == {"total": 12, "exact": False}
    assert bid_rules("american", {})["seven"]["tricks"] == {"total": 13, "exact": True}


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", "Not in this session: nine (девять взяток), misère (мизер), whose house rule was left unset"),
        ("ru", "Не в этой партии: девять взяток, мизер — их домашнее правило не задали"),
    ],
)
def test_the_scorer_names_the_bids_its_house_rules_leave_out(
    client_for: Any, admin: Any, club: Any, players: Any, scorer: Any, language: str, words: str
) -> None:
    """A Russian session opened with the default rules has no misère and no nine (rules.md §4.1: their
    amounts have no default): the scorer says so under the bids instead of leaving them out unsaid."""
    russian = open_session(admin, club, players, variant="russian")
    page = client_for(scorer).get(f"/sessions/{russian.pk}/score/", HTTP_ACCEPT_LANGUAGE=language)
    assert words in " ".join(page.content.decode().split())
    american = open_session(admin, club, players)
    assert 'id="bids-left-out"' not in client_for(scorer).get(f"/sessions/{american.pk}/score/").content.decode()
