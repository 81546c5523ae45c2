"""Statistics speed: a player's statistics and a yearly leaderboard on a club of 1,000,000 hands,
on SQLite and on PostgreSQL, with the ratio to a naive aggregate over the hands measured in the same run.

    .venv/bin/python bench/stats.py [--hands 1000000] [--db sqlite] [--db postgres] [--runs 21]

For each database (default both; PostgreSQL at $BENCH_POSTGRES_URL, default
postgres://postgres@127.0.0.1:5432/clubscore_bench, dropped and created afresh; SQLite in a
temporary file) a child process:

1. generates --distinct random valid sessions of the four variants through the engine
   (`ledger.engine.samples.random_sheet`, settled by `ledger.engine.settle`), closed, most with a stake;
2. bulk-loads one club of --players players whose closed sessions reuse them at random seats, spread
   over 2023-2025 in closing order, until the club holds --hands hands (sessions, seats, hands with the
   engine's settled JSON; `bulk_create`);
3. builds the statistics with `ledger.stats.services.stats_rebuild` (timed), and times one incremental
   `stats_session_refresh` of the newest session (its rows and ratings recomputed);
4. times the median of --runs calls of `ledger.stats.selectors.player_stats` (a player with the median
   number of sessions) and of `leaderboard(period=year, year=2024)` by success, money and rating;
5. times the same figures computed naively from the hands (and, for money and rating, from the
   sessions' `closing`): every hand of the player's (or the year's) sessions read and settled into
   figures by `ledger.stats.figures`, ratings replayed from the club's first session; checks that both
   ways give the same figures, and prints the ratio. Target: each fast figure under 50 ms.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

POSTGRES_URL = os.environ.get("BENCH_POSTGRES_URL", "postgres://postgres@127.0.0.1:5432/clubscore_bench")
YEAR = 2024
FIRST, LAST = dt.datetime(2023, 1, 1, tzinfo=dt.UTC), dt.datetime(2025, 12, 31, 20, 0, tzinfo=dt.UTC)


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def median_ms(fn: Callable[[], Any], runs: int) -> tuple[float, Any]:
    times, result = [], None
    for _ in range(runs):
        started = time.perf_counter()
        result = fn()
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times), result


# --- the child: one database -----------------------------------------------------------------------


def child(args: argparse.Namespace) -> dict[str, Any]:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "clubscore.settings")
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection

    call_command("migrate", verbosity=0)
    if connection.vendor == "sqlite":
        with connection.cursor() as cursor:
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=OFF")
    out: dict[str, Any] = {"database": connection.vendor}
    started = time.perf_counter()
    club, user, hands, sessions = load(args)
    out.update(hands=hands, sessions=sessions, players=args.players, load_s=time.perf_counter() - started)
    if connection.vendor == "sqlite":  # back to the project's own journal mode before measuring
        with connection.cursor() as cursor:
            cursor.execute("PRAGMA journal_mode=DELETE")
            cursor.execute("PRAGMA synchronous=FULL")
    measure(args, club, user, out)
    return out


def load(args: argparse.Namespace) -> tuple[Any, Any, int, int]:
    from django.contrib.auth import get_user_model

    from ledger.engine import settle
    from ledger.engine.samples import playable_rules, random_sheet
    from ledger.models import Club, Hand, Membership, Player, Seat, Session

    rng = random.Random(args.seed)
    variants = ["american", "fontainebleau", "french", "russian"]
    distinct = []
    for i in range(args.distinct):
        variant = variants[i % 4]
        stake = {"currency": "USD", "per_counter": "0.01"} if rng.random() < 0.8 else None
        sheet = random_sheet(variant, rng, 40, rules=playable_rules(variant), stake=stake, close={"pools": "divide"})
        distinct.append((sheet, settle(sheet)))
    log(f"  {len(distinct)} distinct sessions generated")
    club = Club.objects.create(name="Bench Club")
    user = get_user_model().objects.create_user("bench", "bench@example.org", "bench-pass-1234")
    Membership.objects.create(club=club, user=user, role="player")
    players = Player.objects.bulk_create(Player(club=club, name=f"Player {i:03d}") for i in range(args.players))
    mean_deals = statistics.mean(len(s["hands"]) for s, _ in distinct)
    expected_sessions = int(args.hands / mean_deals) + 1
    step = (LAST - FIRST) / expected_sessions
    total_hands = total_sessions = 0
    while total_hands < args.hands:
        batch = []
        while len(batch) < 500 and total_hands < args.hands:
            sheet, settlement = rng.choice(distinct)
            closed_at = FIRST + step * total_sessions + dt.timedelta(seconds=rng.randrange(60))
            batch.append((sheet, settlement, rng.sample(players, 4), closed_at))
            total_hands += len(sheet["hands"])
            total_sessions += 1
        rows = Session.objects.bulk_create(
            Session(
                club=club,
                variant=sheet["variant"],
                rules=sheet["rules"],
                first_dealer=sheet["first_dealer"],
                stake=sheet.get("stake"),
                pools_in=[],
                status="closed",
                close=sheet["close"],
                closing=settlement["close"],
                hands_count=len(sheet["hands"]),
                balances=settlement["balances"],
                pools=settlement["pools"],
                next_deal=None,
                opened_at=closed_at - dt.timedelta(hours=3),
                closed_at=closed_at,
                updated_at=closed_at,
            )
            for sheet, settlement, _seated, closed_at in batch
        )
        Seat.objects.bulk_create(
            [
                Seat(session=row, seat=i, player=p)
                for row, (_s, _st, seated, _at) in zip(rows, batch, strict=True)
                for i, p in enumerate(seated)
            ],
            batch_size=2000,
        )
        Hand.objects.bulk_create(
            [
                Hand(session=row, number=h["number"], raw=raw, settled=h, recorded_at=row.closed_at)
                for row, (sheet, settlement, _seated, _at) in zip(rows, batch, strict=True)
                for raw, h in zip(sheet["hands"], settlement["hands"], strict=True)
            ],
            batch_size=2000,
        )
        if total_sessions % 10000 < 500:
            log(f"  {total_hands} hands loaded")
    log(f"  {total_hands} hands in {total_sessions} sessions loaded")
    return club, user, total_hands, total_sessions


def measure(args: argparse.Namespace, club: Any, user: Any, out: dict[str, Any]) -> None:
    from django.db import connection
    from django.db.models import Count

    from ledger.models import Session
    from ledger.stats import selectors, services
    from ledger.stats.models import PlayerContract, PlayerSession, RatingEntry

    started = time.perf_counter()
    services.stats_rebuild(club_id=club.pk)
    out["rebuild_s"] = time.perf_counter() - started
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
    out["contract_rows"] = PlayerContract.objects.count()
    log(f"  statistics rebuilt in {out['rebuild_s']:.1f} s")

    newest = Session.objects.filter(club=club).order_by("-closed_at", "-id").first()

    def refresh() -> None:  # the newest session's rows and ratings dropped, then recomputed by the handler
        PlayerContract.objects.filter(session=newest).delete()
        PlayerSession.objects.filter(session=newest).delete()
        RatingEntry.objects.filter(session=newest).delete()
        services.stats_session_refresh(session_id=newest.pk)

    out["refresh_ms"], _ = median_ms(refresh, 5)

    counts = list(
        PlayerSession.objects.filter(club=club).values("player_id").annotate(n=Count("id")).order_by("n", "player_id")
    )
    player_id = counts[len(counts) // 2]["player_id"]
    out["player_sessions"] = counts[len(counts) // 2]["n"]

    fast: dict[str, tuple[float, Any]] = {
        "player stats": median_ms(lambda: selectors.player_stats(user=user, player_id=player_id), args.runs),
    }
    for by in ("success", "money", "rating"):
        fast[f"year board by {by}"] = median_ms(
            lambda by=by: selectors.leaderboard(user=user, club_id=club.pk, by=by, period="year", year=YEAR),
            args.runs,
        )
    naive: dict[str, tuple[float, Any]] = {
        "player stats": median_ms(lambda: naive_player_stats(player_id), args.naive_runs),
        "year board by success": median_ms(lambda: naive_success_board(club.pk), args.naive_runs),
        "year board by money": median_ms(lambda: naive_money_board(club.pk), args.naive_runs),
        "year board by rating": median_ms(lambda: naive_rating_board(club.pk), args.naive_runs),
    }
    out["figures"] = {}
    for name, (ms, result) in fast.items():
        naive_ms, naive_result = naive[name]
        if name == "player stats":
            result = {k: v for k, v in result.items() if k not in ("player", "rating")}
        else:
            result = result["rows"]
        out["figures"][name] = {"ms": ms, "naive_ms": naive_ms, "same": result == naive_result}
        log(f"  {name}: {ms:.1f} ms, naive {naive_ms:.0f} ms, same figures: {result == naive_result}")


# --- the naive way: every hand read and settled into figures at each request -----------------------


def _figures_of(sessions: Any, hands: Any) -> Any:
    """(session meta, seat -> player, SeatFigures per seat) for each session, from its hands."""
    from ledger.stats.figures import session_figures

    by_session: dict[int, list[tuple[Any, Any]]] = defaultdict(list)
    for session_id, raw, settled in hands.iterator(chunk_size=4000):
        by_session[session_id].append((raw, settled))
    for meta in sessions:
        yield meta, session_figures(meta["variant"], by_session[meta["pk"]], meta["closing"])


def naive_player_stats(player_id: int) -> dict[str, Any]:
    from ledger.engine.variants import get_variant
    from ledger.models import Hand, Seat, Session
    from ledger.stats.selectors import rate

    seats = dict(Seat.objects.filter(player_id=player_id, session__status="closed").values_list("session_id", "seat"))
    sessions = list(
        Session.objects.filter(seats__player_id=player_id, status="closed")
        .order_by("closed_at", "id")
        .values("pk", "variant", "closing", "closed_at")
    )
    hands = (
        Hand.objects.filter(session__seats__player_id=player_id, session__status="closed")
        .order_by("session_id", "number")
        .values_list("session_id", "raw", "settled")
    )
    money: dict[str, int] = defaultdict(int)
    variants: dict[str, dict[str, Any]] = {}
    finals = []
    for meta, figures in _figures_of(sessions, hands):
        f = figures[seats[meta["pk"]]]
        finals.append(f.counters)
        if f.money is not None:
            money[f.currency] += f.money
        v = variants.setdefault(
            meta["variant"],
            {"sessions": 0, "deals": 0, "counters": 0, "best": None, "worst": None, "pools": [0, 0], "mp": [0, 0]},
        )
        v["sessions"] += 1
        v["deals"] += f.deals
        v["counters"] += f.counters
        if v["best"] is None or f.counters > v["best"][1]:
            v["best"] = (meta["pk"], f.counters)
        if v["worst"] is None or f.counters < v["worst"][1]:
            v["worst"] = (meta["pk"], f.counters)
        v["pools"][0] += f.pools_won
        v["pools"][1] += f.pools_won_counters
        v["mp"][0] += f.misere_partout_played
        v["mp"][1] += f.misere_partout_lost
        contracts = v.setdefault("contracts", {})
        for key, tally in f.contracts.items():
            c = contracts.setdefault(key, [0, 0, 0, 0])
            c[0] += tally.played
            c[1] += tally.made
            c[2] += tally.overtricks
            c[3] += tally.shortfall
    streak_kind, length = None, 0
    for final in reversed(finals):
        kind = "win" if final > 0 else "loss" if final < 0 else None
        if kind is None or (streak_kind is not None and kind != streak_kind):
            break
        streak_kind, length = kind, length + 1
    out_variants = {}
    for name in ("american", "fontainebleau", "french", "russian"):
        if name not in variants:
            continue
        v = variants[name]
        order = {bid: i for i, bid in enumerate(get_variant(name).bids)}
        rows = sorted(v.get("contracts", {}).items(), key=lambda kv: (order[kv[0][0]], kv[0][1] != "bidder"))
        out_variants[name] = {
            "sessions": v["sessions"],
            "deals": v["deals"],
            "counters": v["counters"],
            "best_session": {"id": v["best"][0], "counters": v["best"][1]},
            "worst_session": {"id": v["worst"][0], "counters": v["worst"][1]},
            "pools_won": {"count": v["pools"][0], "counters": v["pools"][1]},
            "misere_partout": {"played": v["mp"][0], "lost": v["mp"][1]}
            if name in ("american", "fontainebleau")
            else None,
            "contracts": [
                {
                    "bid": bid,
                    "role": role,
                    "played": c[0],
                    "made": c[1],
                    "rate": rate(c[1], c[0]),
                    "overtricks": c[2],
                    "shortfall": c[3],
                }
                for (bid, role), c in rows
            ],
        }
    return {
        "sessions": sum(v["sessions"] for v in variants.values()),
        "deals": sum(v["deals"] for v in variants.values()),
        "money": dict(sorted(money.items())),
        "variants": out_variants,
        "streak": {"kind": streak_kind, "length": length},
    }


def _year_sessions(club_id: int) -> Any:
    from ledger.models import Session

    start = dt.datetime(YEAR, 1, 1, tzinfo=dt.UTC)
    end = dt.datetime(YEAR + 1, 1, 1, tzinfo=dt.UTC)
    return Session.objects.filter(club_id=club_id, status="closed", closed_at__gte=start, closed_at__lt=end)


def _seat_players(sessions: Any) -> dict[int, dict[int, int]]:
    from ledger.models import Seat

    seats: dict[int, dict[int, int]] = defaultdict(dict)
    for session_id, seat, player_id in Seat.objects.filter(session__in=sessions).values_list(
        "session_id", "seat", "player_id"
    ):
        seats[session_id][seat] = player_id
    return seats


def _board(values: dict[int, tuple[Any, int]]) -> list[dict[str, Any]]:
    from ledger.models import Player
    from ledger.stats.selectors import _ranked

    names = dict(Player.objects.filter(pk__in=list(values)).values_list("pk", "name"))
    return _ranked([{"value": v, "sessions": n, "player": {"id": p, "name": names[p]}} for p, (v, n) in values.items()])


def naive_success_board(club_id: int) -> list[dict[str, Any]]:
    from ledger.models import Hand
    from ledger.stats.selectors import SUCCESS_MIN_CONTRACTS, rate

    sessions = _year_sessions(club_id)
    seats = _seat_players(sessions)
    hands = (
        Hand.objects.filter(session__in=sessions)
        .order_by("session_id", "number")
        .values_list("session_id", "raw", "settled")
    )
    totals: dict[int, list[int]] = defaultdict(lambda: [0, 0, 0])
    for meta, figures in _figures_of(sessions.values("pk", "variant", "closing"), hands):
        for f in figures:
            t = totals[seats[meta["pk"]][f.seat]]
            t[0] += f.bidder_played
            t[1] += f.bidder_made
            t[2] += 1
    rows = _board(
        {p: (rate(made, played), n) for p, (played, made, n) in totals.items() if played >= SUCCESS_MIN_CONTRACTS}
    )
    for row in rows:
        played, made, _n = totals[row["player"]["id"]]
        row.update(played=played, made=made)
    return [{k: row[k] for k in ("rank", "value", "sessions", "played", "made", "player")} for row in rows]


def naive_money_board(club_id: int) -> list[dict[str, Any]]:
    sessions = _year_sessions(club_id)
    seats = _seat_players(sessions)
    totals: dict[int, list[int]] = defaultdict(lambda: [0, 0])
    for pk, closing in sessions.values_list("pk", "closing"):
        if "money" not in closing or closing["currency"] != "USD":
            continue
        for seat, amount in enumerate(closing["money"]):
            t = totals[seats[pk][seat]]
            t[0] += amount
            t[1] += 1
    return _board({p: (v, n) for p, (v, n) in totals.items()})


def naive_rating_board(club_id: int) -> list[dict[str, Any]]:
    from django.conf import settings

    from ledger.models import Session
    from ledger.stats import ratings

    everything = Session.objects.filter(club_id=club_id, status="closed").order_by("closed_at", "id")
    seats = _seat_players(everything)
    current: dict[int, ratings.Skill] = {}
    played: dict[int, int] = defaultdict(int)
    for pk, closing in everything.values_list("pk", "closing"):
        seated = [seats[pk][s] for s in range(4)]
        before = [current.get(p, ratings.initial()) for p in seated]
        for p, skill in zip(seated, ratings.rate(before, closing["final"]), strict=True):
            current[p] = skill
            played[p] += 1
    in_year: dict[int, int] = defaultdict(int)
    year = _year_sessions(club_id)
    for player_ids in _seat_players(year).values():
        for p in player_ids.values():
            in_year[p] += 1
    rows = _board({p: (current[p].ordinal, n) for p, n in in_year.items() if played[p] >= settings.RATING_MIN_SESSIONS})
    for row in rows:
        skill = current[row["player"]["id"]]
        row.update(mu=skill.mu, sigma=skill.sigma)
    return [{k: row[k] for k in ("rank", "value", "sessions", "mu", "sigma", "player")} for row in rows]


# --- the parent: one child per database, then the table --------------------------------------------


def fresh_database(kind: str) -> str:
    if kind == "sqlite":
        path = Path(tempfile.gettempdir()) / "clubscore_bench.sqlite3"
        for suffix in ("", "-wal", "-shm"):
            Path(f"{path}{suffix}").unlink(missing_ok=True)
        return f"sqlite:///{path}"
    import psycopg

    name = POSTGRES_URL.rsplit("/", 1)[1]
    with psycopg.connect(POSTGRES_URL.rsplit("/", 1)[0] + "/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
        conn.execute(f'CREATE DATABASE "{name}"')
    return POSTGRES_URL


def report(results: list[dict[str, Any]]) -> None:
    print()
    for r in results:
        print(
            f"{r['database']}: {r['hands']:,} hands in {r['sessions']:,} sessions, {r['players']} players "
            f"({r['player_sessions']:,} sessions for the measured player); loaded in {r['load_s']:.0f} s, "
            f"statistics rebuilt in {r['rebuild_s']:.1f} s ({r['contract_rows']:,} contract rows), "
            f"one incremental refresh {r['refresh_ms']:.1f} ms"
        )
    print()
    print(f"{'figure':<24} {'database':<11} {'median ms':>10} {'naive ms':>10} {'ratio':>8}  same  <50 ms")
    for r in results:
        for name, f in r["figures"].items():
            ratio = f["naive_ms"] / f["ms"] if f["ms"] else float("inf")
            print(
                f"{name:<24} {r['database']:<11} {f['ms']:>10.1f} {f['naive_ms']:>10.0f} {ratio:>7.0f}x"
                f"  {'yes' if f['same'] else 'NO':<4}  {'yes' if f['ms'] < 50 else 'NO'}"
            )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=1_000_000)
    parser.add_argument("--distinct", type=int, default=2000, help="distinct generated sessions")
    parser.add_argument("--players", type=int, default=60)
    parser.add_argument("--runs", type=int, default=21, help="runs of each fast figure (median)")
    parser.add_argument("--naive-runs", type=int, default=3, help="runs of each naive figure (median)")
    parser.add_argument("--db", action="append", choices=["sqlite", "postgres"], help="default: both")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(child(args)))
        return 0
    results = []
    for kind in args.db or ["sqlite", "postgres"]:
        log(f"{kind}:")
        env = dict(os.environ, DATABASE_URL=fresh_database(kind))
        env.pop("REDIS_URL", None)
        command = [sys.executable, __file__, "--child", *sys.argv[1:]]
        done = subprocess.run(command, env=env, stdout=subprocess.PIPE, text=True, check=True)
        results.append(json.loads(done.stdout.strip().splitlines()[-1]))
    report(results)
    return 0 if all(f["same"] for r in results for f in r["figures"].values()) else 1


if __name__ == "__main__":
    raise SystemExit(main())
