"""A player's statistics from the example sessions: worked out by hand from the settlements
(tests/data/examples/*.settlement.json), and recomputed here from the settlement files, against what
`GET /api/v1/players/{id}/stats/` answers after the sessions are imported and the handler has run."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

import pytest
from openskill.models import PlackettLuce

from ledger.models import Player, Session
from tests.conftest import EXAMPLES, example_names, load_json
from tests.ledger_fixtures import example_sheet
from tests.stats.helpers import import_closed

pytestmark = pytest.mark.django_db

# In this order, so the closing order is this one.
WORKED = [
    "american-evening-defaults",
    "american-adjustments",
    "fontainebleau-conceded-pair",
    "fontainebleau-evening-defaults",
    "french-revokes",
    "russian-revokes",
]


@pytest.fixture
def worked(admin: Any, club: Any) -> dict[str, Session]:
    return {name: import_closed(admin, club, example_sheet(name)) for name in WORKED}


def stats(api: Any, name: str, **params: str) -> dict[str, Any]:
    player = Player.objects.get(name=name)
    response = api.get(f"/api/v1/players/{player.pk}/stats/", params)
    assert response.status_code == 200, response.content
    return response.json()


# Table law (issue 42): none of these players revoked, misdealt or paid instead of playing.
NO_TABLE_LAW = {event: {"count": 0, "rate": 0.0} for event in ("revokes", "misdeals", "concessions")}


def contract(bid: str, role: str, played: int, made: int, over: int = 0, short: int = 0) -> dict[str, Any]:
    return {
        "bid": bid,
        "role": role,
        "played": played,
        "made": made,
        "rate": round(made / played, 4),
        "overtricks": over,
        "shortfall": short,
    }


def test_abigail_by_hand(api: Any, worked: dict[str, Session]) -> None:
    # Seat 0 of american-evening-defaults (final -103) and american-adjustments (final -139).
    # evening: deal 3 pass (seat 2 paid), deal 4 seven made with 7 (pool 10), deal 12 six with 4 (2 short).
    # adjustments: deal 2 pass (she paid 10 to each), deal 4 boston with 4 (1 short).
    evening, adjustments = worked["american-evening-defaults"], worked["american-adjustments"]
    body = stats(api, "Abigail")
    assert body["player"]["name"] == "Abigail"
    assert (body["sessions"], body["deals"], body["money"]) == (2, 16, {"USD": -242})
    assert body["variants"] == {
        "american": {
            "sessions": 2,
            "deals": 16,
            "counters": -242,
            "best_session": {"id": evening.pk, "counters": -103},
            "worst_session": {"id": adjustments.pk, "counters": -139},
            "pools_won": {"count": 1, "counters": 10},
            "misere_partout": {"played": 2, "lost": 1},
            "table_law": NO_TABLE_LAW,
            "contracts": [
                contract("boston", "bidder", 1, 0, short=1),
                contract("six", "bidder", 1, 0, short=2),
                contract("seven", "bidder", 1, 1),
            ],
        }
    }
    assert body["streak"] == {"kind": "loss", "length": 2}
    assert body["rating"]["sessions"] == 2
    assert body["rating"]["ranked"] is False  # RATING_MIN_SESSIONS is 5


def test_benjamin_conceded_contracts_are_made_without_overtricks(api: Any, worked: dict[str, Session]) -> None:
    # evening: deal 7 seven with 8 (1 over, pool 5), deal 8 six conceded with 1 trick, deal 10 seven
    # conceded with none (pool 25). adjustments: deal 1 seven with 7 (pool 5).
    body = stats(api, "Benjamin")
    american = body["variants"]["american"]
    assert american["contracts"] == [contract("six", "bidder", 1, 1), contract("seven", "bidder", 3, 3, over=1)]
    assert american["pools_won"] == {"count": 3, "counters": 35}
    assert american["misere_partout"] == {"played": 2, "lost": 0}


def test_bastien_by_hand(api: Any, worked: dict[str, Session]) -> None:
    # Seat 1. conceded-pair: deal 1 six + partner 3 conceded (pool 2), deal 3 partner of seven: 11 of 10
    # (pool 2). evening: deal 3 six + partner 2 with 10 of 9 (pool 2), deal 4 partner of seven: 9 of 10,
    # deal 7 pass: he took a share (1 trick, the fewest), deal 11 boston alone with 4.
    pair, evening = worked["fontainebleau-conceded-pair"], worked["fontainebleau-evening-defaults"]
    body = stats(api, "Bastien")
    assert (body["sessions"], body["deals"], body["money"]) == (2, 16, {"EUR": 670 - 3430})
    assert body["variants"] == {
        "fontainebleau": {
            "sessions": 2,
            "deals": 16,
            "counters": 134 - 686,
            "best_session": {"id": pair.pk, "counters": 134},
            "worst_session": {"id": evening.pk, "counters": -686},
            "pools_won": {"count": 3, "counters": 6},
            "misere_partout": {"played": 1, "lost": 0},
            "table_law": NO_TABLE_LAW,
            "contracts": [
                contract("boston", "bidder", 1, 0, short=1),
                contract("six", "bidder", 2, 2, over=1),
                contract("seven", "partner", 2, 1, over=1, short=1),
            ],
        }
    }
    assert body["streak"] == {"kind": "loss", "length": 1}


def test_amelie_lost_the_misere_partout_and_made_piccolissimo(api: Any, worked: dict[str, Session]) -> None:
    # Seat 0. evening deal 7 pass: tricks [3, 1, 1, 8], seats 1 and 2 divided the pool, she did not.
    # Deal 9 eight with 9 (pool 5), deal 10 piccolissimo with exactly 1 (pool 5); deal 12's division
    # is not a pool won. conceded-pair deal 3: seven + partner 1 with 11 of 10 (pool 2).
    body = stats(api, "Amélie")
    fontainebleau = body["variants"]["fontainebleau"]
    assert fontainebleau["misere_partout"] == {"played": 1, "lost": 1}
    assert fontainebleau["pools_won"] == {"count": 3, "counters": 12}
    assert fontainebleau["contracts"] == [
        contract("seven", "bidder", 2, 1, over=1, short=1),
        contract("piccolissimo", "bidder", 1, 1),
        contract("eight", "bidder", 1, 1, over=1),
    ]
    assert body["money"] == {"EUR": -440 - 485}
    assert body["streak"] == {"kind": "loss", "length": 2}


def test_french_revokes_by_hand(api: Any, worked: dict[str, Session]) -> None:
    # Deal 1: Baptiste's simple with Dorian, 9 tricks, but Baptiste revoked: not made for both, 0 short.
    # Deal 2: Céleste's independence six with 4; the revoke was an opponent's (seat 0): 2 short.
    # Deal 3: Dorian's grand misère, his own revoke: not made. Deal 4: Adèle's forced solo with 5, the
    # revoke an opponent's: made. Deal 5: Céleste's simple with Adèle, 9 tricks: made, 1 over, pool 155 each.
    session = worked["french-revokes"]
    expected = {
        "Adèle": [contract("simple", "bidder", 1, 1), contract("simple", "partner", 1, 1, over=1)],
        "Baptiste": [contract("simple", "bidder", 1, 0)],
        "Céleste": [contract("simple", "bidder", 1, 1, over=1), contract("independence_six", "bidder", 1, 0, short=2)],
        "Dorian": [contract("simple", "partner", 1, 0), contract("grand_misere", "bidder", 1, 0)],
    }
    finals = {"Adèle": 241, "Baptiste": 16, "Céleste": 131, "Dorian": -388}
    for name, contracts in expected.items():
        body = stats(api, name)
        french = body["variants"]["french"]
        assert french["contracts"] == contracts, name
        assert french["misere_partout"] is None
        assert french["best_session"] == french["worst_session"] == {"id": session.pk, "counters": finals[name]}
        assert body["money"] == {"EUR": finals[name] * 5}
    assert stats(api, "Céleste")["variants"]["french"]["pools_won"] == {"count": 1, "counters": 155}
    assert stats(api, "Céleste")["streak"] == {"kind": "win", "length": 1}
    assert stats(api, "Dorian")["streak"] == {"kind": "loss", "length": 1}


def test_russian_revokes_by_hand(api: Any, worked: dict[str, Session]) -> None:
    # Deal 1: Вера's solo with 10, her own revoke voids it: not made, 0 short. Deal 2: Борис's simple with
    # Глеб, 7 tricks, Глеб revoked: 1 short. Deal 3: Анна's misère with 0 tricks, her own revoke: not made.
    # Deal 4: Глеб's misère with 1 trick: not made. Deal 5: Анна's simple alone with 6: 1 over, basket 160.
    expected = {
        "Анна": [contract("simple", "bidder", 1, 1, over=1), contract("misere", "bidder", 1, 0)],
        "Борис": [contract("simple", "bidder", 1, 0, short=1)],
        "Вера": [contract("solo", "bidder", 1, 0)],
        "Глеб": [contract("simple", "partner", 1, 0, short=1), contract("misere", "bidder", 1, 0)],
    }
    for name, contracts in expected.items():
        assert stats(api, name)["variants"]["russian"]["contracts"] == contracts, name
    anna = stats(api, "Анна")
    assert anna["variants"]["russian"]["pools_won"] == {"count": 1, "counters": 160}
    assert anna["money"] == {"RUB": 9500}


def test_filters_narrow_the_figures(api: Any, worked: dict[str, Session]) -> None:
    everything = stats(api, "Abigail")
    assert stats(api, "Abigail", variant="american") == everything
    assert stats(api, "Abigail", variant="french")["variants"] == {}
    day = worked["american-adjustments"].closed_at.date().isoformat()
    assert stats(api, "Abigail", date_from=day, date_to=day) == everything
    before = stats(api, "Abigail", date_to="2000-01-01")
    assert (before["sessions"], before["deals"], before["money"], before["variants"]) == (0, 0, {}, {})
    assert before["streak"] == {"kind": None, "length": 0}
    assert before["rating"] == everything["rating"]  # the rating is the current one


# --- every example, recomputed here from the settlement files ---------------------------------------


def _reference(names: list[str], sessions: dict[str, Session]) -> dict[str, dict[str, Any]]:
    """Per player name: what the settlement files say, summed in closing order (independently of ledger.stats)."""
    out: dict[str, dict[str, Any]] = defaultdict(
        lambda: {"sessions": 0, "deals": 0, "money": defaultdict(int), "variants": {}, "finals": []}
    )
    for name in names:
        sheet = load_json(EXAMPLES / f"{name}.sheet.json")
        settlement = load_json(EXAMPLES / f"{name}.settlement.json")
        close = settlement["close"]
        for seat, player in enumerate(sheet["players"]):
            ref = out[player]
            ref["sessions"] += 1
            ref["deals"] += len(settlement["hands"])
            if "money" in close:
                ref["money"][close["currency"]] += close["money"][seat]
            v = ref["variants"].setdefault(
                sheet["variant"], {"sessions": 0, "deals": 0, "counters": 0, "pools": [0, 0], "finals": []}
            )
            v["sessions"] += 1
            v["deals"] += len(settlement["hands"])
            v["counters"] += close["final"][seat]
            v["finals"].append((close["final"][seat], sessions[name].pk))
            ref["finals"].append(close["final"][seat])
            for hand in settlement["hands"]:
                for t in hand["transfers"]:
                    if t["from"] == "pool" and t["to"] == seat and t["reason"] == "pool":
                        v["pools"][0] += 1
                        v["pools"][1] += t["counters"]
    return out


def _closable(name: str) -> bool:
    return "close" in load_json(EXAMPLES / f"{name}.sheet.json")


def test_every_example_player_matches_the_settlements(admin: Any, club: Any, api: Any) -> None:
    names = [name for name in example_names() if _closable(name)]
    sessions = {name: import_closed(admin, club, example_sheet(name)) for name in names}
    reference = _reference(names, sessions)
    assert len(reference) == 16
    for player, ref in reference.items():
        body = stats(api, player)
        assert (body["sessions"], body["deals"], body["money"]) == (ref["sessions"], ref["deals"], dict(ref["money"]))
        for variant, v in ref["variants"].items():
            got = body["variants"][variant]
            assert (got["sessions"], got["deals"], got["counters"]) == (v["sessions"], v["deals"], v["counters"])
            assert [got["pools_won"]["count"], got["pools_won"]["counters"]] == v["pools"]
            best = max(v["finals"], key=lambda f: (f[0], -f[1]))  # the earliest closed wins a tie
            worst = min(v["finals"], key=lambda f: (f[0], f[1]))
            assert got["best_session"] == {"id": best[1], "counters": best[0]}
            assert got["worst_session"] == {"id": worst[1], "counters": worst[0]}
            for c in got["contracts"]:
                assert c["rate"] == round(c["made"] / c["played"], 4)
        run: list[str] = []
        for final in reversed(ref["finals"]):
            kind = "win" if final > 0 else "loss" if final < 0 else None
            if kind is None or (run and run[-1] != kind):
                break
            run.append(kind)
        assert body["streak"] == {"kind": run[0] if run else None, "length": len(run)}


def test_ratings_are_openskill_over_the_closing_order(admin: Any, club: Any, api: Any) -> None:
    names = [name for name in example_names() if _closable(name)]
    sessions = [import_closed(admin, club, example_sheet(name)) for name in names]
    model = PlackettLuce()
    current: dict[int, Any] = {}
    history: dict[int, list[tuple[int, float, float]]] = defaultdict(list)
    for session in sorted(sessions, key=lambda s: (s.closed_at, s.pk)):
        seats = list(session.seats.order_by("seat").values_list("player_id", flat=True))
        final = session.closing["final"]
        ranks: list[float] = [sorted(final, reverse=True).index(f) + 1 for f in final]
        teams = [[current.get(p) or model.rating()] for p in seats]
        for p, team in zip(seats, model.rate(teams, ranks=ranks), strict=True):
            current[p] = team[0]
            history[p].append((session.pk, team[0].mu, team[0].sigma))
    for player_id, expected in history.items():
        response = api.get(f"/api/v1/players/{player_id}/ratings/", {"page_size": 200})
        body = response.json()
        assert body["count"] == len(expected)
        got = [(r["session"], r["mu"], r["sigma"]) for r in body["results"]]
        assert got == expected  # the same model on the same numbers: the very same floats
        for r in body["results"]:
            assert r["ordinal"] == pytest.approx(r["mu"] - 3 * r["sigma"], abs=1e-12)
        rating = api.get(f"/api/v1/players/{player_id}/stats/").json()["rating"]
        assert (rating["mu"], rating["sigma"], rating["sessions"]) == pytest.approx(
            (expected[-1][1], expected[-1][2], len(expected)), rel=1e-12
        )
        assert rating["ranked"] is (len(expected) >= 5)
