"""Issue 25's bench: the whole table live. 10 tables, each with a scorer recording a deal every 20 s and 4
followers (seat links: the stream `/live/seat/<key>/` and, on each change, the fragment `/s/<key>/rows/`
with If-None-Match), plus one room board (`/live/board/<key>/`, `/b/<key>/tables/`), for 2 minutes
against an ASGI server on PostgreSQL and Redis.

It prints the 50th/95th/99th percentile of the time from each deal's 201 to each follower having it (its
fragment read after the event), the web processes' CPU per second with and without the followers (the
followers' cost), and the hand-recording capacity (4 clients recording as fast as they can for
`--burst` seconds on fresh sessions) without followers and with the followers connected and the tables
being recorded.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/clubscore_table REDIS_URL=redis://127.0.0.1:6379/6 \\
        .venv/bin/python bench/live.py [--seconds 120] [--port 8106] [--workers 2]

The server is `uvicorn clubscore.asgi:application --workers N` (what gunicorn's uvicorn workers run),
started and stopped here; the database named in DATABASE_URL is dropped and created afresh.
Targets (issue 25): p95 ≤ 1 s; followers ≤ 20 % of one core; capacity with followers ≥ 90 % without.

`--dense` (issues 38 and 40): a dense evening instead. 10 tables (French and Russian, in turn), each
recording 32 deals 4 s apart, the scorer's phone as its page does it (the preview, Record, its reads
after the 201, its stream); the three other players follow on their seat links (the stream, their
fragment read again on each change, as follow.js does) and tap ✓ on each deal once it shows; one room
board. The evening runs in parts of 8 deals, alternating with parts in which 10 tables of another club
record the same way with nobody following; each part ends with a capacity burst (4 clients recording as
fast as they can for 8 s), so that the bursts with and without followers alternate and see the same
machine. It prints Record → follower (the 201 to the follower having the deal to show: its event and
its read) p50/p95/p99 outside the bursts and during them, the scorer's own waits with and without
followers, the capacity with followers against the floor of the bursts without them, and the web
servers' CPU. `--short` is a smoke run of the same (2 tables, 4 deals 2 s apart; under a minute).

    DATABASE_URL=... REDIS_URL=... .venv/bin/python bench/live.py --dense [--short] [--tables 10] [--deals 32]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import signal
import subprocess
import sys
import time
import urllib.request
import uuid
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import phones
from bench.benchlib import PYTHON, ROOT, django_setup, fresh_postgres, machine, migrate, percentile

HANDS: list[dict[str, Any]] = [  # four valid American deals, played in a cycle: 12 to a game
    {"bid": "seven", "bidder": 1, "trump": "clubs", "tricks": [3, 6, 2, 2]},
    {"bid": "seven", "bidder": 2, "trump": "hearts", "tricks": [2, 2, 7, 2]},
    {"bid": "pass", "tricks": [4, 4, 3, 2]},
    {"bid": "boston", "bidder": 3, "trump": "spades", "tricks": [2, 2, 4, 5]},
]
TABLES, FOLLOWERS, EVERY = 10, 4, 20.0


# --- the scene ---------------------------------------------------------------------------------------


def scene(tables: int, spare: int) -> dict[str, Any]:
    """A club, a scorer with a device token, `tables` followed sessions with 4 seat links each, `spare`
    sessions for the capacity bursts, and a board link."""
    from django.contrib.auth.models import User

    from ledger.services.clubs import club_create, player_create
    from ledger.services.sessions import session_open
    from ledger.services.table import board_link_issue, seat_link_issue
    from ledger.services.tokens import token_issue

    admin = User.objects.create_user("bench-admin", password="bench-pass-1234")
    club = club_create(actor=admin, name="Bench Club")
    players = [player_create(actor=admin, club_id=club.pk, name=f"P{i}") for i in range(4)]
    token, _ = token_issue(user=admin, device="bench")

    def session() -> int:
        return session_open(
            actor=admin,
            club_id=club.pk,
            variant="american",
            rules={},
            player_ids=[p.pk for p in players],
            first_dealer=0,
        ).pk

    followed = []
    for _ in range(tables):
        sid = session()
        keys = [seat_link_issue(actor=admin, session_id=sid, seat=s)[0] for s in range(FOLLOWERS)]
        followed.append({"session": sid, "keys": keys})
    board, _ = board_link_issue(actor=admin, club_id=club.pk, label="bench")
    return {"token": token, "tables": followed, "spare": [session() for _ in range(spare)], "board": board}


# --- HTTP ----------------------------------------------------------------------------------------------


class Server:
    def __init__(self, port: int, workers: int, env: dict[str, str]) -> None:
        self.base = f"http://127.0.0.1:{port}"
        self.proc = subprocess.Popen(
            [
                PYTHON,
                "-m",
                "uvicorn",
                "clubscore.asgi:application",
                "--port",
                str(port),
                "--workers",
                str(workers),
                "--no-access-log",
                "--log-level",
                "warning",
            ],
            cwd=ROOT,
            env=env,
            start_new_session=True,
        )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                urllib.request.urlopen(self.base + "/api/v1/variants/", timeout=2).read()
                return
            except OSError:
                time.sleep(0.3)
        raise SystemExit("the server did not start")

    def pids(self) -> list[int]:
        children = Path(f"/proc/{self.proc.pid}/task/{self.proc.pid}/children").read_text().split()
        return [self.proc.pid, *(int(c) for c in children)]

    def cpu(self) -> float:
        """User + system CPU seconds of the server's processes so far."""
        tick = os.sysconf("SC_CLK_TCK")
        total = 0.0
        for pid in self.pids():
            try:
                fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
                total += (int(fields[11]) + int(fields[12])) / tick
            except OSError:
                pass
        return total

    def stop(self) -> None:
        os.killpg(self.proc.pid, signal.SIGTERM)
        try:
            self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)


def record(base: str, token: str, sid: int, hand: dict[str, Any]) -> tuple[int, int]:
    """POST a deal; (status, the deal's number)."""
    request = urllib.request.Request(
        f"{base}/api/v1/sessions/{sid}/hands/",
        data=json.dumps(hand).encode(),
        method="POST",
        headers={
            "Authorization": f"Token {token}",
            "Content-Type": "application/json",
            "Idempotency-Key": str(uuid.uuid4()),
        },
    )
    with urllib.request.urlopen(request, timeout=30) as answer:
        return answer.status, json.loads(answer.read())["number"]


async def get(port: int, path: str, etag: str | None, tables: dict[int, str] | None = None) -> tuple[int, str | None]:
    """GET with If-None-Match: (status, ETag). `tables`: the board's tables' live tags, noted from its body."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    headers = f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
    if etag:
        headers += f'If-None-Match: "{etag}"\r\n'
    writer.write((headers + "\r\n").encode())
    await writer.drain()
    raw = await reader.read()
    writer.close()
    if tables is not None:
        tables.update((int(n), t.decode()) for n, t in re.findall(rb'data-session="(\d+)" data-tag="([\d.]+)"', raw))
    head = raw.split(b"\r\n\r\n", 1)[0].decode(errors="replace").split("\r\n")
    status = int(head[0].split()[1])
    tag = next((h.split(":", 1)[1].strip().strip('"') for h in head[1:] if h.lower().startswith("etag:")), None)
    return status, tag


# What the followers' streams and reads cost (issue 38 item 12): the change events' bytes, and the
# fragment reads (sent; answered with a body).
TRAFFIC: dict[str, list[int]] = {"event_bytes": [], "reads": [], "bodies": []}


async def follower(
    port: int, stream: str, rows: str, seen: list[tuple[int, int, float]], sid: int, stop: float
) -> None:
    """One phone: its stream; a change that carries its rows and follows the phone's tag is applied as
    it comes (ledger/live.py), any other is read (the fragment, If-None-Match), as the pages do (static/
    clubscore/live.js). Notes (session, deals, when)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(f"GET {stream} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n".encode())
    await writer.drain()
    tag: str | None = None
    tables: dict[int, str] = {}  # on the board: each table's live tag, as its panel says it
    try:
        while time.monotonic() < stop:
            try:
                async with asyncio.timeout(max(0.1, stop - time.monotonic())):  # not wait_for: bench/phones.py
                    line = await reader.readline()
            except TimeoutError:
                break
            if not line:
                break
            if not line.startswith(b"data: "):
                continue
            data = json.loads(line[6:])
            if data.get("tag") in (None, tag):  # a heartbeat, or nothing new
                continue
            TRAFFIC["event_bytes"].append(len(line))
            if data.get("html") and tag is not None and data.get("prev") in (tag, tables.get(data.get("session", 0))):
                tag = data["tag"]
                if data.get("session") in tables:
                    tables[data["session"]] = data["tag"]
                if "hands" in data:
                    seen.append((sid, int(data["hands"]), time.monotonic()))
                continue
            TRAFFIC["reads"].append(1)
            status, fresh = await get(port, rows, tag, tables)
            if status == 200:
                TRAFFIC["bodies"].append(1)
                tag = fresh or data.get("tag")
                if "hands" in data:
                    seen.append((sid, int(data["hands"]), time.monotonic()))
    finally:
        writer.close()


async def scorers(
    base: str, token: str, tables: list[dict[str, Any]], seconds: float, recorded: dict[tuple[int, int], float]
) -> None:
    async def one(i: int, sid: int) -> None:
        await asyncio.sleep(i * EVERY / len(tables))  # staggered, as tables are
        deal, end = 0, time.monotonic() + seconds
        while time.monotonic() < end:
            _, number = await asyncio.to_thread(record, base, token, sid, HANDS[deal % 4])
            recorded[(sid, number)] = time.monotonic()
            deal += 1
            await asyncio.sleep(EVERY)

    await asyncio.gather(*(one(i, t["session"]) for i, t in enumerate(tables)))


def capacity(base: str, token: str, sessions: list[int], seconds: float) -> float:
    """Deals a second, 4 clients recording as fast as they can on fresh sessions (12 deals each)."""
    import threading

    queue = list(sessions)
    lock = threading.Lock()
    done = [0]
    end = time.monotonic() + seconds

    def client() -> None:
        while time.monotonic() < end:
            with lock:
                if not queue:
                    return
                sid = queue.pop()
            for deal in range(12):
                if time.monotonic() >= end:
                    return
                record(base, token, sid, HANDS[deal % 4])
                with lock:
                    done[0] += 1

    threads = [threading.Thread(target=client) for _ in range(4)]
    start = time.monotonic()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return done[0] / (time.monotonic() - start)


async def with_followers(args: Any, server: Server, data: dict[str, Any]) -> dict[str, Any]:
    port = args.port
    stop = time.monotonic() + args.seconds + args.burst + 15
    seen: list[tuple[int, int, float]] = []
    phones = [
        follower(port, f"/live/seat/{key}/", f"/s/{key}/rows/", seen, t["session"], stop)
        for t in data["tables"]
        for key in t["keys"]
    ]
    board_seen: list[tuple[int, int, float]] = []
    phones.append(follower(port, f"/live/board/{data['board']}/", f"/b/{data['board']}/tables/", board_seen, 0, stop))
    tasks = [asyncio.create_task(p) for p in phones]
    await asyncio.sleep(2)  # every stream open
    recorded: dict[tuple[int, int], float] = {}
    cpu0, t0 = server.cpu(), time.monotonic()
    await scorers(server.base, data["token"], data["tables"], args.seconds, recorded)
    cpu = (server.cpu() - cpu0) / (time.monotonic() - t0)
    burst = await asyncio.to_thread(
        capacity, server.base, data["token"], data["spare"][len(data["spare"]) // 2 :], args.burst
    )
    await asyncio.gather(*tasks, return_exceptions=True)
    latencies = [when - recorded[(sid, n)] for sid, n, when in seen if (sid, n) in recorded]
    return {"latencies": latencies, "expected": len(recorded) * FOLLOWERS, "cpu": cpu, "capacity": burst}


async def without_followers(args: Any, server: Server, data: dict[str, Any], seconds: float) -> dict[str, Any]:
    recorded: dict[tuple[int, int], float] = {}
    cpu0, t0 = server.cpu(), time.monotonic()
    await scorers(server.base, data["token"], data["tables"], seconds, recorded)
    cpu = (server.cpu() - cpu0) / (time.monotonic() - t0)
    burst = await asyncio.to_thread(
        capacity, server.base, data["token"], data["spare"][: len(data["spare"]) // 2], args.burst
    )
    return {"cpu": cpu, "capacity": burst}


# --- the dense evening (issues 38 and 40) --------------------------------------------------------------


@dataclass(frozen=True)
class Plan:
    """A dense evening: `tables` followed tables of `deals` deals `every` s apart, in parts of `part` deals
    alternating with as many unfollowed tables; each part ends with a `burst` s capacity burst of `clients`
    clients. A player taps ✓ `think` s after a deal shows. Between parts the pages settle (at most `drain` s)."""

    tables: int = 10
    deals: int = 32
    every: float = 4.0
    part: int = 8
    burst: float = 8.0
    clients: int = 4
    boards: int = 1
    think: tuple[float, float] = (1.0, 2.5)
    drain: float = 30.0
    seed: int = 38


SHORT = Plan(tables=2, deals=4, every=2.0, part=2, burst=2.0, clients=2, drain=10.0)
DENSE_VARIANTS = ["french", "russian"]  # the variants that play 32 deals and more in one session
SEATS = (1, 2, 3)  # the scorer plays seat 0; the three others follow


def dense_scene(plan: Plan, spare: int) -> dict[str, Any]:
    """Two clubs: the evening's (followed tables, their seat links, a board link) and a quiet one (as many
    tables recorded with nobody following, and `spare` sessions for the capacity bursts), one scorer with a
    device token and a login cookie, and each table's deals (valid random sheets)."""
    import random

    from django.conf import settings
    from django.contrib.auth.models import User
    from django.test import Client as DjangoClient

    from ledger.engine.samples import random_sheet
    from ledger.services.clubs import club_create, player_create
    from ledger.services.sessions import session_open
    from ledger.services.table import board_link_issue, seat_link_issue
    from ledger.services.tokens import token_issue

    rng = random.Random(plan.seed)
    admin = User.objects.create_user("bench-scorer", password="bench-pass-1234")
    token, _ = token_issue(user=admin, device="bench")
    login = DjangoClient()
    login.force_login(admin)
    cookie = f"{settings.SESSION_COOKIE_NAME}={login.cookies[settings.SESSION_COOKIE_NAME].value}"

    def club(name: str) -> tuple[int, list[int]]:
        made = club_create(actor=admin, name=name)
        return made.pk, [player_create(actor=admin, club_id=made.pk, name=f"P{i}").pk for i in range(4)]

    def table(club_id: int, players: list[int], index: int, deals: int) -> dict[str, Any]:
        sheet = random_sheet(DENSE_VARIANTS[index % len(DENSE_VARIANTS)], rng, deals)
        session = session_open(
            actor=admin,
            club_id=club_id,
            variant=sheet["variant"],
            rules=sheet["rules"],
            player_ids=players,
            first_dealer=sheet["first_dealer"],
        )
        return {"session": session.pk, "hands": sheet["hands"]}

    evening, evening_players = club("Dense evening")
    quiet, quiet_players = club("Quiet club")
    followed = []
    for i in range(plan.tables):
        t = table(evening, evening_players, i, plan.deals)
        t["keys"] = [seat_link_issue(actor=admin, session_id=t["session"], seat=s)[0] for s in SEATS]
        followed.append(t)
    boards = [board_link_issue(actor=admin, club_id=evening, label=f"wall {i}")[0] for i in range(plan.boards)]
    return {
        "token": token,
        "cookie": cookie,
        "followed": followed,
        "unfollowed": [table(quiet, quiet_players, i, plan.deals) for i in range(plan.tables)],
        "spare": [table(quiet, quiet_players, i, 40) for i in range(spare)],
        "boards": boards,
    }


async def capacity_burst(
    client: phones.Client, token: str, spare: list[dict[str, Any]], clients: int, until: float
) -> int:
    """Deals recorded by `clients` clients posting as fast as they can until `until`, each on a spare
    session of its own, in order (the next session once it has recorded its 40 deals); a session a burst
    leaves half done is taken up by the next burst."""
    headers = {"Authorization": f"Token {token}", "Accept": "application/json"}
    done = 0

    async def one() -> None:
        nonlocal done
        while time.monotonic() < until and spare:
            table = spare.pop(0)
            while time.monotonic() < until and table.setdefault("next", 0) < len(table["hands"]):
                number = table["next"] + 1
                hand = {**table["hands"][number - 1], "number": number}
                answer = await client.fetch(
                    "capacity",
                    "POST",
                    f"/api/v1/sessions/{table['session']}/hands/",
                    {**headers, "Idempotency-Key": str(uuid.uuid4())},
                    hand,
                )
                if answer is None or answer.status != 201:
                    client.failures.append(f"capacity deal {number}: {answer.status if answer else 'no answer'}")
                    break  # this session is left
                done += 1
                table["next"] = number
            else:
                if table["next"] < len(table["hands"]):
                    spare.insert(0, table)  # the burst ended: the next one goes on with it

    await asyncio.gather(*(one() for _ in range(clients)))
    return done


@dataclass
class Part:
    """One part of the evening: with followers or without, its capacity burst, the web CPU outside it."""

    followed: bool
    start: float
    burst: tuple[float, float] = (0.0, 0.0)
    burst_deals: int = 0
    quiet_cpu: float | None = None  # web servers' CPU seconds a second before the burst


async def dense_evening(
    client: phones.Client, scene: dict[str, Any], plan: Plan, cpu: Callable[[], float] | None = None
) -> dict[str, Any]:
    """The evening, timed; its figures (`dense_figures`). `cpu`: the web servers' CPU seconds so far, when
    the bench runs them."""
    import random

    rng = random.Random(plan.seed)
    longest = plan.deals * plan.every * 2 + (plan.deals / plan.part + 1) * 2 * (plan.drain + plan.burst) + 120
    stop = time.monotonic() + longest
    scorers = {
        kind: [
            phones.ScorerPage(client, scene["token"], scene["cookie"], t["session"], t["hands"]) for t in scene[kind]
        ]
        for kind in ("followed", "unfollowed")
    }
    followers = [
        [
            phones.FollowerPage(
                client,
                f"/live/seat/{key}/",
                f"/s/{key}/rows/",
                f"/api/v1/seat/{key}/hands/{{n}}/confirm/",
                plan.think,
                random.Random(rng.random()),
            )
            for key in t["keys"]
        ]
        for t in scene["followed"]
    ]
    boards = [phones.BoardPage(client, key) for key in scene["boards"]]
    pages: list[Any] = [*scorers["followed"], *scorers["unfollowed"], *(f for fs in followers for f in fs), *boards]
    await asyncio.gather(*(page.open() for page in pages))
    running = [asyncio.create_task(page.run(stop)) for page in pages]
    await asyncio.sleep(1.0)  # every stream open
    spare = list(scene["spare"])
    parts: list[Part] = []

    async def play(kind: str, count: int) -> None:
        part = Part(followed=kind == "followed", start=time.monotonic())
        parts.append(part)
        tables = scorers[kind]
        length = count * plan.every
        burst_at = part.start + max(0.0, length - plan.burst)
        cpu0 = cpu() if cpu else None

        async def scorer(i: int, page: phones.ScorerPage) -> None:
            first = part.start + i * plan.every / len(tables)
            for k in range(count):
                due = first + k * plan.every
                await asyncio.sleep(max(0.0, due - plan.every / 4 - time.monotonic()))  # the preview, then Record
                await page.preview()
                await asyncio.sleep(max(0.0, due - time.monotonic()))
                await page.record()

        async def burst() -> None:
            await asyncio.sleep(max(0.0, burst_at - time.monotonic()))
            if cpu0 is not None and cpu:
                part.quiet_cpu = (cpu() - cpu0) / max(1e-6, time.monotonic() - part.start)
            began = time.monotonic()
            part.burst_deals = await capacity_burst(client, scene["token"], spare, plan.clients, began + plan.burst)
            part.burst = (began, time.monotonic())

        await asyncio.gather(burst(), *(scorer(i, page) for i, page in enumerate(tables)))

    async def settle() -> None:
        """Until every follower has every deal recorded, every ✓ is answered and no page is reading."""
        until = time.monotonic() + plan.drain
        while time.monotonic() < until:
            behind = False
            for table, pages_of_table in zip(scorers["followed"], followers, strict=True):
                numbers = {d.number for d in table.recorded}
                for page in pages_of_table:
                    if page.busy() or not numbers <= set(page.checked):
                        behind = True
            if not behind and not any(b.busy() for b in boards) and not any(t.behind() for t in scorers["followed"]):
                return
            await asyncio.sleep(0.1)

    for r in range(-(-plan.deals // plan.part)):
        count = min(plan.part, plan.deals - r * plan.part)
        for kind in ("followed", "unfollowed") if r % 2 == 0 else ("unfollowed", "followed"):
            await play(kind, count)
            await settle()
    for task in running:
        task.cancel()
    await asyncio.gather(*running, return_exceptions=True)
    return dense_figures(plan, scorers, followers, boards, parts, client)


def dense_figures(
    plan: Plan,
    scorers: dict[str, list[phones.ScorerPage]],
    followers: list[list[phones.FollowerPage]],
    boards: list[phones.BoardPage],
    parts: list[Part],
    client: phones.Client,
) -> dict[str, Any]:
    """Record → follower for every deal and follower (outside the bursts, and during them), the scorer's
    waits, the capacity in the bursts with and without followers, the web CPU; counts and failures."""
    bursts = [p.burst for p in parts if p.burst != (0.0, 0.0)]

    def quiet(start: float, end: float) -> bool:
        return not any(start < b1 and end > b0 for b0, b1 in bursts)

    delivered: dict[str, list[float]] = {"quiet": [], "burst": [], "event": []}
    missing = 0
    for table, pages in zip(scorers["followed"], followers, strict=True):
        for deal in table.recorded:
            for page in pages:
                came, shown = page.event_at.get(deal.number), page.shown_at.get(deal.number)
                if came is None or shown is None:
                    missing += 1
                    continue
                has = max(came, shown)
                delivered["quiet" if quiet(deal.answered, has) else "burst"].append(has - deal.answered)
                if quiet(deal.answered, has):
                    delivered["event"].append(came - deal.answered)
    scorer: dict[str, dict[str, list[float]]] = {}
    for kind, tables in scorers.items():
        deals = [d for t in tables for d in t.recorded if d.page_done and quiet(d.sent, d.page_done)]
        scorer[kind] = {
            "record": [d.answered - d.sent for d in deals],
            "page": [d.page_done - d.sent for d in deals],
        }
    with_f = [p.burst_deals for p in parts if p.followed and p.burst != (0.0, 0.0)]
    without = [p.burst_deals for p in parts if not p.followed and p.burst != (0.0, 0.0)]
    seconds = {True: 0.0, False: 0.0}
    for p in parts:
        seconds[p.followed] += p.burst[1] - p.burst[0]
    cpu = {
        kind: [p.quiet_cpu for p in parts if p.followed == (kind == "followed") and p.quiet_cpu is not None]
        for kind in ("followed", "unfollowed")
    }
    recorded = sum(len(t.recorded) for t in scorers["followed"])
    return {
        "plan": plan,
        "recorded": recorded,
        "recorded_without": sum(len(t.recorded) for t in scorers["unfollowed"]),
        "expected": plan.tables * plan.deals,
        "deliveries": len(delivered["quiet"]) + len(delivered["burst"]),
        "expected_deliveries": recorded * len(SEATS),
        "missing": missing,
        "latency": delivered["quiet"],
        "latency_burst": delivered["burst"],
        "event": delivered["event"],
        "scorer": scorer,
        "checks": sum(len(p.checked) for ps in followers for p in ps),
        "reads": sum(p.reads for ps in followers for p in ps),
        "board_reads": sum(b.reads for b in boards),
        "capacity_with": sum(with_f) / seconds[True] if seconds[True] else 0.0,
        "capacity_without": sum(without) / seconds[False] if seconds[False] else 0.0,
        "bursts": list(zip(with_f, without, strict=False)),
        "cpu": {k: sum(v) / len(v) if v else None for k, v in cpu.items()},
        "requests": dict(client.requests),
        "failures": list(client.failures),
    }


def dense_report(figures: dict[str, Any]) -> list[str]:
    """The figures in words, one line each."""
    plan: Plan = figures["plan"]

    def spread(values: list[float]) -> str:
        if not values:
            return "none"
        p = [1000 * percentile(values, q) for q in (50, 95, 99)]
        top = 1000 * max(values)
        return f"p50 {p[0]:.0f} ms, p95 {p[1]:.0f} ms, p99 {p[2]:.0f} ms, max {top:.0f} ms ({len(values)})"

    lines = [
        f"dense evening: {plan.tables} tables x {plan.deals} deals {plan.every:g} s apart (French, Russian),"
        f" {len(SEATS)} followers each tapping ✓ on every deal, {plan.boards} board(s); parts of {plan.part} deals"
        f" alternating with {plan.tables} unfollowed tables; a {plan.burst:g} s burst of {plan.clients} clients"
        " ending each part",
        f"deals recorded: {figures['recorded']} of {figures['expected']} followed,"
        f" {figures['recorded_without']} of {figures['expected']} unfollowed;"
        f" ✓ answered {figures['checks']} of {figures['expected_deliveries']}",
        f"deliveries: {figures['deliveries']} of {figures['expected_deliveries']} (deal x follower),"
        f" {figures['missing']} missing",
        "Record (201) -> follower has the deal (its event and its read), outside the bursts:"
        f" {spread(figures['latency'])} (target p95 <= 1 s)",
        f"  of which the event alone: {spread(figures['event'])}",
        f"  during the capacity bursts: {spread(figures['latency_burst'])}",
    ]
    s = figures["scorer"]
    for what, words in (("record", "Record's answer (POST to 201)"), ("page", "Record to the scorer's page updated")):
        w, wo = s["followed"][what], s["unfollowed"][what]
        ratio = percentile(w, 50) / percentile(wo, 50) if w and wo else float("nan")
        lines.append(f"{words}: with followers {spread(w)}; without {spread(wo)}; p50 ratio {ratio:.2f}")
    cw, cwo = figures["capacity_with"], figures["capacity_without"]
    lines.append(
        f"capacity ({plan.clients} clients, bursts interleaved): {cw:.1f} deals/s with followers,"
        f" {cwo:.1f} without (the floor): {cw / cwo if cwo else float('nan'):.2f} (bursts with/without: "
        + ", ".join(f"{a}/{b}" for a, b in figures["bursts"])
        + ")"
    )
    cpu = figures["cpu"]
    if cpu["followed"] is not None and cpu["unfollowed"] is not None:
        lines.append(
            f"web CPU outside the bursts: {100 * cpu['followed']:.0f} % of a core with followers,"
            f" {100 * cpu['unfollowed']:.0f} % without:"
            f" the followers cost {100 * (cpu['followed'] - cpu['unfollowed']):.0f} % of a core"
        )
    lines.append(
        f"fragment reads by the followers: {figures['reads']} ({figures['reads'] / max(1, figures['deliveries']):.1f}"
        f" per deal and follower); board reads: {figures['board_reads']}"
    )
    lines.append("requests: " + ", ".join(f"{k} {v}" for k, v in sorted(figures["requests"].items())))
    failures = figures["failures"]
    lines.append(f"failures: {len(failures)}" + ("" if not failures else " (first: " + "; ".join(failures[:5]) + ")"))
    return lines


class Backends:
    """The most PostgreSQL connections to the bench's database at once, sampled every second."""

    def __init__(self, url: str) -> None:
        import threading

        self.url, self.most, self._stop = url, 0, threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)
        self._thread.start()

    def _sample(self) -> None:
        import psycopg

        name = self.url.rsplit("/", 1)[1]
        with psycopg.connect(self.url.rsplit("/", 1)[0] + "/postgres", autocommit=True) as conn:
            while not self._stop.wait(1.0):
                row = conn.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = %s", (name,)).fetchone()
                self.most = max(self.most, int(row[0]) if row else 0)

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)


def dense_main(args: argparse.Namespace, env: dict[str, str]) -> None:
    plan = SHORT if args.short else Plan()
    overrides = {k: getattr(args, k) for k in ("tables", "deals", "every") if getattr(args, k) is not None}
    plan = replace(plan, **overrides)
    # A pool of connections a process, as bin/production runs it. Each open stream holds one of its
    # connections for as long as it is open (ledger/web/live.py reads the state it opens with, and the
    # link at each heartbeat, and the connection goes back to the pool only when the stream ends): with
    # production's 8 a process, 16 open streams leave no connection to any request, which then waits
    # DB_POOL_TIMEOUT (4 s) and answers 503. The pool is made big enough for every stream on any one web
    # server (the kernel does not share them out evenly) and 16 requests at once, so that the evening
    # measures the rest; the pool opens only what is asked of it. `--pool-max 8` shows the failure. At
    # most 40 a server, so that the two stay under PostgreSQL's default 100 connections, which a shared
    # PostgreSQL's other users need too (a run at 67 a server took 96 and then all of them).
    streams = plan.tables * (1 + len(SEATS)) + plan.boards + plan.tables
    pool = args.pool_max or min(streams + 16, 40)
    env = {**env, "DB_POOL": "1", "DB_POOL_MAX": str(pool)}
    migrate(env)
    django_setup(env)
    bursts = 2 * -(-plan.deals // plan.part)
    spare = int(bursts * plan.burst * 50 / 40) + 2 * plan.clients  # room for 50 deals/s in every burst
    scene = dense_scene(plan, spare)
    server = Server(args.port, args.workers, env)
    held = Backends(env["DATABASE_URL"])
    started = time.monotonic()
    try:
        figures = asyncio.run(dense_evening(phones.Client("127.0.0.1", args.port), scene, plan, server.cpu))
    finally:
        held.stop()
        server.stop()
    print(f"machine: {machine()}; uvicorn --workers {args.workers}, PostgreSQL, Redis pub/sub")
    print(
        f"PostgreSQL: a pool of up to {pool} connections a web server ({streams} streams open);"
        f" at most {held.most} connections to the database at once"
    )
    print(f"load average at the end: {os.getloadavg()[0]:.1f}; the evening took {time.monotonic() - started:.0f} s")
    for line in dense_report(figures):
        print(line)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=120.0)
    parser.add_argument("--baseline-seconds", type=float, default=60.0)
    parser.add_argument("--burst", type=float, default=10.0)
    parser.add_argument("--port", type=int, default=8106)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--dense", action="store_true", help="the dense evening (issues 38 and 40)")
    parser.add_argument("--short", action="store_true", help="with --dense: a smoke run, under a minute")
    parser.add_argument("--tables", type=int, help="with --dense: followed tables (10)")
    parser.add_argument("--deals", type=int, help="with --dense: deals at each table (32)")
    parser.add_argument("--every", type=float, help="with --dense: seconds between a table's deals (4)")
    parser.add_argument("--pool-max", type=int, help="with --dense: PostgreSQL connections a web server (fit)")
    args = parser.parse_args()
    admin_url, redis_url = os.environ.get("DATABASE_URL", ""), os.environ.get("REDIS_URL", "")
    if not admin_url.startswith("postgres") or not redis_url:
        raise SystemExit("set DATABASE_URL (PostgreSQL: dropped and made afresh) and REDIS_URL")
    name = admin_url.rsplit("/", 1)[1]
    url = fresh_postgres(admin_url.rsplit("/", 1)[0] + "/postgres", name)
    env = {
        **os.environ,
        "DATABASE_URL": url,
        "REDIS_URL": redis_url,
        "CONN_MAX_AGE": "0",
        "THROTTLE_USER": "100000/min",
        "THROTTLE_ANON": "100000/min",
        "DEBUG": "0",
        "ALLOWED_HOSTS": "127.0.0.1",
    }
    if args.dense:
        dense_main(args, env)
        return
    migrate(env)
    django_setup(env)
    data = scene(TABLES, 400)
    server = Server(args.port, args.workers, env)
    try:
        # the baseline: the same tables recorded, nobody following (half as long: the same rate)
        base = asyncio.run(
            without_followers(
                args,
                server,
                {**data, "tables": [{"session": s, "keys": []} for s in data["spare"][-TABLES:]]},
                args.baseline_seconds,
            )
        )
        data["spare"] = data["spare"][:-TABLES]
        live = asyncio.run(with_followers(args, server, data))
    finally:
        server.stop()
    lat = sorted(live["latencies"])
    print(f"machine: {machine()}; uvicorn --workers {args.workers}, PostgreSQL, Redis pub/sub")
    print(
        f"{TABLES} tables x a deal every {EVERY:.0f} s x {FOLLOWERS} followers (seat links) + 1 board,"
        f" {args.seconds:.0f} s"
    )
    print(f"deliveries: {len(lat)} of {live['expected']} (deal x follower)")
    if lat:
        print(
            "201 -> follower has it: p50 {:.0f} ms, p95 {:.0f} ms, p99 {:.0f} ms, max {:.0f} ms".format(
                *(1000 * percentile(lat, q) for q in (50, 95, 99)), 1000 * lat[-1]
            )
        )
    events = TRAFFIC["event_bytes"]
    if events:
        print(
            f"change events: {len(events)}, {sum(events) / len(events):.0f} bytes each on average"
            f" (max {max(events)}); fragment reads: {len(TRAFFIC['reads'])} sent,"
            f" {len(TRAFFIC['bodies'])} answered with a body"
        )
    cost = live["cpu"] - base["cpu"]
    print(
        f"web CPU: {base['cpu'] * 100:.1f} % of a core without followers, {live['cpu'] * 100:.1f} % with:"
        f" followers cost {cost * 100:.1f} % of one core (target <= 20 %)"
    )
    changes = TABLES / EVERY  # deals a second, each told to FOLLOWERS phones and the board
    print(f"followers' server time per change: {cost / changes * 1000:.0f} ms of CPU")
    ratio = live["capacity"] / base["capacity"] if base["capacity"] else 0.0
    print(
        f"recording capacity (4 clients, {args.burst:.0f} s): {base['capacity']:.1f} deals/s without followers,"
        f" {live['capacity']:.1f} with: {ratio * 100:.0f} % (target >= 90 %)"
    )


if __name__ == "__main__":
    main()
