"""Issue 42's table, row by row, through the API: each event at the table is recorded as it happened
(`POST .../hands/`), settles with no adjustment, and pays what `rules.md` §0.11 says, worked by hand here.
Seed lines are `NNN:line` of `../shared/seeds/NNN_*.txt`."""

from __future__ import annotations

from typing import Any

import pytest

from tests.ledger_fixtures import open_session

pytestmark = pytest.mark.django_db


def record(api: Any, session: Any, hands: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each hand recorded through the API (201), the settled hands as it answered them."""
    out = []
    for hand in hands:
        response = api.record(session.pk, hand)
        assert response.status_code == 201, response.content[:500]
        out.append(response.json())
    return out


def settlement(api: Any, session: Any) -> dict[str, Any]:
    response = api.json("GET", f"/api/v1/sessions/{session.pk}/settlement/")
    assert response.status_code == 200
    body = response.json()
    assert all(t["reason"] != "adjustment" for hand in body["hands"] for t in hand["transfers"])
    return body


def close(api: Any, session: Any) -> dict[str, Any]:
    version = api.json("GET", f"/api/v1/sessions/{session.pk}/").json()["version"]
    response = api.json("POST", f"/api/v1/sessions/{session.pk}/close/", {}, **{"If-Match": f'"{version}"'})
    assert response.status_code == 200, response.content[:500]
    return response.json()


def test_a_revoke_in_american_boston(api: Any, admin: Any, club: Any, players: Any) -> None:
    """000:115 "the same as at Boston": seven by seat 1, 6 tricks, he revoked: A-T4 seven 1 short, 20 to
    each adversary, and the pools (the ante's 5) doubled by him."""
    session = open_session(admin, club, players, variant="american")
    hand = {"bid": "seven", "bidder": 1, "trump": "hearts", "tricks": [2, 6, 2, 2], "revoke": 1}
    (got,) = record(api, session, [hand])
    assert (got["deltas"], got["pools"]) == ([15, -65, 20, 20], [10])
    assert settlement(api, session)["balances"] == [15, -65, 20, 20]


def test_a_revoke_in_fontainebleau(api: Any, admin: Any, club: Any, players: Any) -> None:
    """004:5: six ♥ (V 40) by seat 0, 4 tricks, he revoked: 40 + 5 × 2 = 50 to each, the pool of 5 doubled."""
    session = open_session(admin, club, players, variant="fontainebleau")
    (got,) = record(api, session, [{"bid": "six", "bidder": 0, "trump": "hearts", "tricks": [4, 3, 3, 3], "revoke": 0}])
    assert (got["deltas"], got["pools"]) == ([-160, 50, 50, 50], [10])
    settlement(api, session)


def test_a_revoke_by_a_russian_opponent(api: Any, admin: Any, club: Any, players: Any) -> None:
    """002:194 prices the buyer's side only; §0.11: a solo in старшая ♠ by seat 2, seat 1 revoked: R-T3
    старшая 8 = 32 that each of three would pay, 96 from seat 1 alone; the basket (40) untouched."""
    session = open_session(admin, club, players, variant="russian")
    solo = {"bid": "solo", "bidder": 2, "trump": "spades", "turned": "spades", "jack": 0, "tricks": [4, 4, 4, 1]}
    (got,) = record(api, session, [{**solo, "revoke": 1}])
    assert (got["deltas"], got["pools"]) == ([-4, -108, 84, -12], [40])
    settlement(api, session)


def test_a_fontainebleau_bidder_pays_instead_of_playing(api: Any, admin: Any, club: Any, players: Any) -> None:
    """000:111 "it is usual to allow him to pay instead of playing": eight ♠ (V 70) by seat 2, no card
    played: 70 + 5 to each adversary and 75 into the pool (`pay_instead_short` 1)."""
    session = open_session(admin, club, players, variant="fontainebleau")
    (got,) = record(api, session, [{"bid": "eight", "bidder": 2, "trump": "spades", "conceded": "bidder"}])
    assert (got["deltas"], got["pools"]) == ([70, 75, -300, 75], [80])
    assert got["conceded"] == "bidder"
    settlement(api, session)


def test_a_french_misdeal_loses_the_deal(api: Any, admin: Any, club: Any, players: Any) -> None:
    """001:13 "A misdeal loses the deal": nothing paid, no ante, not among the 40; the next dealer deals 1."""
    session = open_session(admin, club, players, variant="french")
    misdeal, first = record(api, session, [{"bid": "misdeal"}, {"bid": "pass", "turned": "hearts"}])
    assert (misdeal["transfers"], misdeal["pools"], misdeal["dealer"]) == ([], [0], 0)
    assert (first["dealer"], first["pool_delta"]) == (3, 10)  # the deal passed to the right; it antes
    state = api.json("GET", f"/api/v1/sessions/{session.pk}/").json()
    assert state["next"] == {"number": 3, "dealer": 2, "double": False}
    assert state["next_legal"]["deal"] == 2  # hand 3 is the game's deal 2
    simple = next(b for b in state["next_legal"]["bids"] if b["code"] == "simple")
    assert simple["trumps"] == ["hearts"]  # belle is hand 2's turned suit: it was deal 1 of the game
    settlement(api, session)


def test_a_russian_misdeal_forfeits_the_culprits_share(api: Any, admin: Any, club: Any, players: Any) -> None:
    """002:33 «строгие ревнители правил»: seat 0 misdeals; the basket formed on deal 1 (40) is doubled by an
    all pass (80); at the close the three others divide it, 26 each, 2 carried."""
    session = open_session(admin, club, players, variant="russian", rules={"misdeal_forfeits_share": True})
    misdeal, passed = record(api, session, [{"bid": "misdeal"}, {"bid": "pass", "turned": "hearts"}])
    assert (misdeal["transfers"], passed["pools"]) == ([], [80])
    closed = close(api, session)
    assert (closed["close"]["division"], closed["close"]["carried"]) == ([0, 26, 26, 26], [2])


def test_remiz_when_the_dealer_turns_an_ace(api: Any, admin: Any, club: Any, players: Any) -> None:
    """002:108 «с ремизом»: 2 chips into the basket after it is formed (40 + 2), before the all pass doubles
    it: 84, not the 82 an adjustment after the doubling gave."""
    session = open_session(admin, club, players, variant="russian", rules={"remiz": 2})
    (got,) = record(api, session, [{"bid": "pass", "turned": "spades", "ace_turned": True}])
    assert (got["pools"], got["deltas"]) == ([84], [-24, -20, -20, -20])
    assert got["ace_turned"] is True
    settlement(api, session)


def test_russian_optional_bids_agreed_before_play(api: Any, admin: Any, club: Any, players: Any) -> None:
    """002:114-122: an open petit misère (30 a head, made) and a souverain in старшая ♠ (50 × 2 a head, made)."""
    rules = {"open_misere": 30, "souverain": {"made": 50, "failed": 40}}
    session = open_session(admin, club, players, variant="russian", rules=rules)
    legal = api.json("GET", f"/api/v1/sessions/{session.pk}/").json()["next_legal"]["bids"]
    assert [b["code"] for b in legal] == ["simple", "solo", "open_misere", "souverain", "pass", "misdeal"]
    souverain = {"bid": "souverain", "bidder": 0, "trump": "spades", "turned": "spades", "jack": 0}
    misere = {"bid": "open_misere", "bidder": 1, "turned": "hearts", "jack": 2, "tricks": [4, 0, 4, 4]}
    first, second = record(api, session, [{**souverain, "tricks": [12, 1, 0, 0]}, misere])
    assert first["deltas"] == [-10 + 300 + 40 + 6, -112, -112, -112]
    assert second["deltas"] == [-10 - 30, -10 + 90 + 40, -10 - 30, -10 - 30]  # the basket formed again, taken
    settlement(api, session)


def test_labet_and_solo_are_conditions_a_club_may_switch_off(api: Any, admin: Any, club: Any, players: Any) -> None:
    """002:110-113: without the labet a failure doubles nothing; without the solo it is not offered."""
    session = open_session(admin, club, players, variant="russian", rules={"labet": False, "solo": False})
    legal = api.json("GET", f"/api/v1/sessions/{session.pk}/").json()["next_legal"]["bids"]
    assert "solo" not in [b["code"] for b in legal]
    simple = {"bid": "simple", "bidder": 1, "trump": "spades", "turned": "spades", "jack": 2, "partner": 3}
    (got,) = record(api, session, [{**simple, "tricks": [3, 4, 3, 3]}])  # the buyer 4 of 5: short alone
    assert got["pools"] == [40]  # R-T2 старшая at 7 = 8 to each opponent, and no labet
    assert got["deltas"] == [-10 + 8 - 2, -10 - 16 - 2, -10 + 8 + 6, -10 - 2]
    solo = {"bid": "solo", "bidder": 2, "trump": "clubs", "turned": "clubs", "jack": 0, "tricks": [2, 2, 7, 2]}
    response = api.record(session.pk, solo)
    assert response.status_code == 400 and response.json()["error"]["code"] == "option_required"


def test_claims_lapse_once_the_next_deal_is_recorded(api: Any, admin: Any, club: Any, players: Any) -> None:
    """002:189 «Лишь только карты сняты … лишаются своих прав»: with `claims_lapse`, deal 1 can be amended
    until deal 2 is recorded, then never (409 `claim_lapsed`, saying why and what the treasurer can do
    instead: an adjustment into the basket). The last deal still can; without the rule, any deal can."""
    solo = {"bid": "solo", "bidder": 2, "trump": "spades", "turned": "spades", "jack": 0, "tricks": [4, 4, 4, 1]}
    for rules, lapsed in (({"claims_lapse": True}, True), ({}, False)):
        session = open_session(admin, club, players, variant="russian", rules=rules)
        record(api, session, [solo])
        amended = {**solo, "jack": 1}
        version = api.json("GET", f"/api/v1/sessions/{session.pk}/").json()["version"]
        response = api.json("PUT", f"/api/v1/sessions/{session.pk}/hands/1/", amended, **{"If-Match": f'"{version}"'})
        assert response.status_code == 200  # deal 1 is the last: the claim is still open
        record(api, session, [{"bid": "pass", "turned": "hearts"}])
        version += 2
        response = api.json("PUT", f"/api/v1/sessions/{session.pk}/hands/1/", solo, **{"If-Match": f'"{version}"'})
        if not lapsed:
            assert response.status_code == 200
            continue
        assert response.status_code == 409
        error = response.json()["error"]
        assert error["code"] == "claim_lapsed"
        assert "deal 1 can no longer be amended" in error["message"]
        assert "adjustment into the basket" in error["message"]
        french = api.json(
            "PUT",
            f"/api/v1/sessions/{session.pk}/hands/1/",
            solo,
            **{"If-Match": f'"{version}"', "Accept-Language": "fr"},
        )
        assert french.status_code == 409 and "ajustement" in french.json()["error"]["message"]
        # The treasurer's correction: an adjustment into the basket on the next deal, which the rule allows.
        ruling = [{"from": 1, "to": "pool", "counters": 4, "note": "deal 1: the бостон was seat 1's"}]
        response = api.json(
            "PUT",
            f"/api/v1/sessions/{session.pk}/hands/2/",
            {"bid": "pass", "turned": "hearts", "adjustments": ruling},
            **{"If-Match": f'"{version}"'},
        )
        assert response.status_code == 200
