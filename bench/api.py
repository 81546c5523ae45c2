"""The API under load on the production stack (issue 27), against a floor measured in the same run.

    sudo .venv/bin/python bench/api.py [--scorers 16] [--capacity-seconds 20] [--turns 4] [--share 0.6]
                                       [--sessions 200] [--latency-seconds 30] [--venv PATH]

What it starts, the way tests/production starts it: `bin/production` with a state folder, env file,
ports (8307/8317/8327/8337 by default, `--ports`), PostgreSQL database (`--database`, default
clubscore_bench, created fresh and dropped at the end unless --keep) and Redis database (`--redis-url`,
default db 6, flushed first: throttle histories live there) of its own, at `clubscore-bench.localhost`
with Caddy's internal authority. So the hands go through Caddy over HTTPS (TLS checked against that
authority, keep-alive connections as a phone's browser keeps them), gunicorn with uvicorn's ASGI
workers (one per core), PostgreSQL, Redis and the stack's real Celery worker and beat, all under its
supervisor, with the production settings bin/production writes. The only difference: the
environment carries DJANGO_SETTINGS_MODULE=bench.settings, which adds the floor's URL. It needs
root (bin/production does); `--venv` is the Python environment the stack runs (default the
checkout's .venv; a path that does not exist yet makes bin/production create it, and its duration
is printed either way).

Through the services (in this process, on the stack's database) it creates a club, one scorer user
and device token per scorer, and valid sessions (`ledger.engine.samples.random_sheet`, the four
variants in turn), with `--preload` hands already recorded in each so that they sit in the middle of
an evening. Load comes from threads in this process, bounded in time.

The floor (`POST /api/v1/bench/floor/`, `bench/floor.py`): the same Caddy, gunicorn, middleware, DRF,
token authentication, throttle and JSON parser, the same body, then one row inserted in one
transaction (the one-insert floor of issue 27). A hand costs more by the idempotency claim, the
session lock, the replay of the session through the engine and the rewrite of its projection.

1. capacity: `--scorers` scorers in a closed loop (each posts its next hand as soon as the last one
   is answered, moving to a fresh session when one is over): hands recorded per second; and the
   same loop against the floor, the two in `--turns` turns each (5 s of hands, 5 s of floor, ...),
   so that both see the machine at the same speed. Target: hands/s >= 0.6 of the floor's requests/s.
2. latency at `--share` (0.6) of the capacity just measured: hands arrive at that rate, evenly
   spaced, round-robin over `--sessions` open sessions (one scorer each); a hand's latency runs from
   the moment it was due (so a slow answer delays the next of its session and that shows).
   p50/p95/p99; then the same schedule against the floor. Targets: p95 < 50 ms, p99 < 100 ms.

The CPU time each part of the stack used in each capacity loop (Caddy, the web servers, Celery,
PostgreSQL, Redis, this bench's client threads; from /proc) is printed per request: where a hand's
cost beyond the floor's goes. Every answer that is not a 201 is counted and printed. Afterwards every
session's stored projection (settled hands, balances, pools) is compared with a fresh replay of its
sheet. The peak RSS (VmHWM) of each web worker is read before the stack stops. Target: < 150 MB.
Exits 1 when a request failed or a projection differs; a missed speed target only prints MISS.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import shutil
import socket
import ssl
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter, deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchlib import (
    ROOT,
    VARIANTS,
    django_setup,
    drop_postgres,
    fresh_postgres,
    machine,
    percentile,
    projection_mismatches,
    random_session_sheet,
)

FLOOR_PATH = "/api/v1/bench/floor/"
NAME = "clubscore-bench.localhost"


# --- the service: bin/production's stack -------------------------------------------------------------


class Stack:
    """The production stack of this checkout, private to the bench; stopped by `stop()`."""

    def __init__(self, args: argparse.Namespace, database_url: str) -> None:
        self.state = Path(tempfile.mkdtemp(prefix="clubscore-bench-stack-"))
        http_port, https_port, web_port, admin_port = args.ports.split(",")
        self.port = int(https_port)
        self.env_file = self.state / "etc" / "env"
        self.env = dict(
            os.environ,
            DJANGO_SETTINGS_MODULE="bench.settings",  # the project's, plus the floor's URL
            CLUBSCORE_STATE=str(self.state),
            CLUBSCORE_ENV_FILE=str(self.env_file),
            CLUBSCORE_VENV=args.venv,
            CLUBSCORE_USER="root",  # as tests/production: the checkout's .venv is pyenv's Python under /root
            SITE_NAMES=NAME,
            CADDY_BIND="127.0.0.1",
            DATABASE_URL=database_url,
            REDIS_URL=args.redis_url,
            HTTP_PORT=http_port,
            HTTPS_PORT=https_port,
            WEB_PORT=web_port,
            CADDY_ADMIN=f"localhost:{admin_port}",
            LOG_LEVEL="WARNING",
        )
        if args.web_workers:
            self.env["WEB_WORKERS"] = str(args.web_workers)
        self.ca = self.state / "caddy" / "pki" / "authorities" / "local" / "root.crt"
        self.started = False

    def start(self) -> float:
        """Run bin/production; its duration in seconds."""
        t = time.monotonic()
        done = subprocess.run(
            [str(ROOT / "bin" / "production")], env=self.env, cwd=ROOT, capture_output=True, text=True
        )  # fmt: skip
        self.started = True
        if done.returncode:
            raise RuntimeError(f"bin/production failed:\n{done.stdout}{done.stderr}")
        return time.monotonic() - t

    def settings_env(self) -> dict[str, str]:
        """The stack's settings (its env file), for this process's Django."""
        env = {"DJANGO_SETTINGS_MODULE": "bench.settings"}
        for line in self.env_file.read_text().splitlines():
            if line and not line.startswith("#") and "=" in line:
                name, _, value = line.partition("=")
                env[name] = value
        return env

    def ctl(self, *args: str) -> str:
        conf = str(self.state / "supervisord.conf")
        return subprocess.run(["supervisorctl", "-c", conf, *args], capture_output=True, text=True).stdout.strip()

    def workers(self) -> list[int]:
        """The uvicorn workers: each web server (`web:web-0`, ...: a gunicorn master) has one."""
        pids = []
        for line in self.ctl("status", "web:*").splitlines():
            master = line.split("pid ", 1)[1].split(",")[0] if "pid " in line else ""
            try:
                pids += [int(p) for p in Path(f"/proc/{master}/task/{master}/children").read_text().split()]
            except (OSError, ValueError):
                continue
        return pids

    def tls(self) -> ssl.SSLContext:
        return ssl.create_default_context(cafile=str(self.ca))

    def log_tail(self, lines: int = 30) -> str:
        try:
            return "\n".join((self.state / "log" / "web-0.log").read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return ""

    def stop(self) -> None:
        if self.started:
            self.ctl("shutdown")
            for _ in range(60):
                if not (self.state / "run" / "supervisord.pid").exists():
                    break
                time.sleep(0.5)
        shutil.rmtree(self.state, ignore_errors=True)


class MemoryWatch(threading.Thread):
    """Samples every gunicorn worker's VmRSS and VmHWM (peak RSS) until stopped."""

    def __init__(self, service: Stack) -> None:
        super().__init__(daemon=True)
        self.service = service
        self.peak_kb: dict[int, int] = {}
        self.stopping = threading.Event()

    def sample(self) -> None:
        for pid in self.service.workers():
            try:
                status = Path(f"/proc/{pid}/status").read_text()
            except OSError:
                continue
            for line in status.splitlines():
                if line.startswith(("VmHWM:", "VmRSS:")):
                    self.peak_kb[pid] = max(self.peak_kb.get(pid, 0), int(line.split()[1]))

    def run(self) -> None:
        while not self.stopping.wait(0.5):
            self.sample()


def cpu_by_part() -> Counter:
    """CPU seconds used so far by each part of the stack on this machine (utime + stime of every live
    process, from /proc): Caddy, the web servers, the Celery worker and beat, PostgreSQL, Redis, and
    this bench (its client threads: TLS and HTTP). A process that ended in between is not counted."""
    parts: Counter = Counter()
    tick = os.sysconf("SC_CLK_TCK")
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode("utf-8", "replace")
        except OSError:
            continue
        comm = stat[stat.index("(") + 1 : stat.rindex(")")]
        fields = stat.rsplit(")", 1)[1].split()
        seconds = (int(fields[11]) + int(fields[12])) / tick
        if int(entry.name) == os.getpid():
            part = "bench client"
        elif comm == "caddy":
            part = "caddy"
        elif "gunicorn" in cmdline:
            part = "web"
        elif "celery" in cmdline:
            part = "celery"
        elif comm == "postgres":
            part = "postgresql"
        elif comm.startswith("redis"):
            part = "redis"
        else:
            continue
        parts[part] += seconds
    return parts


def print_cpu(name: str, used: Counter, requests: int) -> None:
    total = sum(used.values())
    shares = ", ".join(f"{part} {used[part] / requests * 1000:.2f}" for part in sorted(used, key=lambda p: -used[p]))
    print(f"  CPU per {name}: {total / requests * 1000:.2f} ms ({shares})")


# --- the load -------------------------------------------------------------------------------------


class StackConnection(http.client.HTTPSConnection):
    """HTTPS to the stack's name, at 127.0.0.1 (no resolver): SNI and Host are the name, the
    certificate is checked against the stack's authority."""

    def connect(self) -> None:
        sock = socket.create_connection(("127.0.0.1", self.port), self.timeout)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.sock = self._context.wrap_socket(sock, server_hostname=self.host)  # type: ignore[attr-defined]


class Client:
    """One scorer's phone: its token, one kept-alive HTTPS connection."""

    def __init__(self, stack: Stack, token: str, tls: ssl.SSLContext) -> None:
        self.headers = {"Authorization": f"Token {token}", "Content-Type": "application/json"}
        self.conn = StackConnection(NAME, stack.port, timeout=30, context=tls)

    def call(self, method: str, path: str, body: bytes | None = None, **headers: str) -> tuple[int, bytes]:
        for attempt in range(2):
            try:
                self.conn.request(method, path, body=body, headers={**self.headers, **headers})
                response = self.conn.getresponse()
                return response.status, response.read()
            except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
                self.conn.close()
                if attempt:
                    raise
        raise AssertionError("unreachable")


@dataclass
class Scorer:
    client: Client
    sessions: deque  # of [session_id, hands (list of bytes), next index]
    done: int = 0

    def next_hand(self) -> tuple[int, bytes] | None:
        while self.sessions:
            current = self.sessions[0]
            if current[2] < len(current[1]):
                return current[0], current[1][current[2]]
            self.sessions.popleft()
        return None

    def advance(self) -> None:
        self.sessions[0][2] += 1


@dataclass
class Tally:
    latencies: list[float] = field(default_factory=list)  # seconds
    ends: list[float] = field(default_factory=list)  # monotonic time each answer came
    errors: Counter = field(default_factory=Counter)
    behind: int = 0  # open loop: hands never sent because the schedule ran too far behind
    error_samples: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def ok(self, latency: float, end: float) -> None:
        with self.lock:
            self.latencies.append(latency)
            self.ends.append(end)

    def error(self, what: str, detail: str) -> None:
        with self.lock:
            self.errors[what] += 1
            if len(self.error_samples) < 5:
                self.error_samples.append(f"{what}: {detail[:300]}")


def post_hand(scorer: Scorer, tally: Tally, due: float | None = None) -> bool:
    """Record the scorer's next hand (retrying the same key after a transport error). False when the
    scorer has no hand left."""
    nxt = scorer.next_hand()
    if nxt is None:
        return False
    session_id, body = nxt
    key = str(uuid.uuid4())
    start = time.monotonic() if due is None else due
    try:
        status, data = scorer.client.call(
            "POST", f"/api/v1/sessions/{session_id}/hands/", body, **{"Idempotency-Key": key}
        )
    except OSError as exc:
        tally.error(type(exc).__name__, str(exc))
        return True
    end = time.monotonic()
    if status == 201:
        tally.ok(end - start, end)
        scorer.advance()
        scorer.done += 1
    else:
        tally.error(str(status), data.decode("utf-8", "replace"))
        scorer.sessions.popleft()  # its state is in doubt: go on with the next session
    return True


def post_floor(scorer: Scorer, body: bytes, tally: Tally, due: float | None = None) -> None:
    start = time.monotonic() if due is None else due
    try:
        status, data = scorer.client.call("POST", FLOOR_PATH, body)
    except OSError as exc:
        tally.error(type(exc).__name__, str(exc))
        return
    end = time.monotonic()
    if status == 201:
        tally.ok(end - start, end)
    else:
        tally.error(str(status), data.decode("utf-8", "replace"))


def closed_loop(
    scorers: list[Scorer], seconds: float, work: Any, tally: Tally | None = None
) -> tuple[Tally, float, float]:
    """Each scorer calls `work(scorer, tally)` in a loop until time is up; the tally (a new one, or
    `tally` added to) and the window."""
    tally = Tally() if tally is None else tally
    start = time.monotonic()
    deadline = start + seconds

    def run(scorer: Scorer) -> None:
        while time.monotonic() < deadline:
            if work(scorer, tally) is False:
                return

    threads = [threading.Thread(target=run, args=(s,)) for s in scorers]
    for t in threads:
        t.start()
    for t in threads:
        t.join(seconds + 60)
    return tally, start, deadline


@dataclass
class Turns:
    """One kind of request's closed loops, taken in turns with the other kind's: their answers, the
    answers that ended in each turn's window (its start plus the ramp, to its end), and the CPU."""

    tally: Tally = field(default_factory=Tally)
    counted: int = 0
    seconds: float = 0.0
    cpu: Counter = field(default_factory=Counter)

    def run(self, scorers: list[Scorer], seconds: float, ramp: float, work: Any) -> None:
        before = cpu_by_part()
        _, start, end = closed_loop(scorers, seconds, work, self.tally)
        self.cpu.update({part: used - before[part] for part, used in cpu_by_part().items()})
        self.counted += sum(1 for t in self.tally.ends if start + ramp <= t <= end)
        self.seconds += end - start - ramp

    @property
    def rate(self) -> float:
        return self.counted / self.seconds if self.seconds else 0.0


def open_loop(scorers: list[Scorer], rate: float, seconds: float, work: Any, grace: float = 30) -> Tally:
    """Arrivals at `rate` per second, round-robin over the scorers: scorer i is due at
    t0 + i/rate + k*len(scorers)/rate. Latency counts from the due time."""
    tally = Tally()
    period = len(scorers) / rate
    t0 = time.monotonic() + 1.0  # every thread started before the first hand is due
    end = t0 + seconds

    def run(i: int, scorer: Scorer) -> None:
        due = t0 + i / rate
        while due < end:
            pause = due - time.monotonic()
            if pause > 0:
                time.sleep(pause)
            elif -pause > grace:  # so far behind that the run would not end in time: stop sending
                with tally.lock:
                    tally.behind += int((end - due) / period) + 1
                return
            if work(scorer, tally, due) is False:
                return
            due += period

    threads = [threading.Thread(target=run, args=(i, s)) for i, s in enumerate(scorers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(seconds + 120)
    return tally


# --- set-up through the services ------------------------------------------------------------------


def set_up(args: argparse.Namespace, rng: random.Random) -> dict[str, Any]:
    from django.contrib.auth import get_user_model

    from ledger.models import Role
    from ledger.services.clubs import club_create, membership_set, player_create
    from ledger.services.sessions import session_import
    from ledger.services.tokens import token_issue

    User = get_user_model()
    admin = User.objects.create_user("bench-admin")  # no password: the bench logs in with tokens
    club = club_create(actor=admin, name="Bench Club")
    players = [player_create(actor=admin, club_id=club.pk, name=f"Player {i:02}") for i in range(40)]
    admin_key, _ = token_issue(user=admin, device="bench")

    count = max(args.sessions, args.scorers)
    users = []
    for i in range(count):
        user = User.objects.create_user(f"scorer-{i:03}")
        membership_set(actor=admin, club_id=club.pk, user=user, role=Role.SCORER)
        key, _ = token_issue(user=user, device=f"phone-{i:03}")
        users.append((user, key))

    def new_session(user: Any, index: int, preload: int) -> list:
        """A session opened by importing its sheet's first `preload` hands (one service call); the
        rest are the bodies the scorer will post, each with its `number`."""
        variant = VARIANTS[index % len(VARIANTS)]
        sheet = random_session_sheet(variant, rng, args.deals)
        hands = sheet["hands"]
        preload = min(preload, max(0, len(hands) - 2))
        seated = [p.name for p in rng.sample(players, 4)]
        session = session_import(actor=user, club_id=club.pk, sheet=dict(sheet, players=seated, hands=hands[:preload]))
        bodies = [json.dumps(dict(h, number=n)).encode() for n, h in enumerate(hands, 1)]
        return [session.pk, bodies, preload]

    # Latency: one scorer per session; a second session each, for when a short variant ends.
    latency = []
    for i in range(args.sessions):
        user, key = users[i]
        latency.append((key, deque([new_session(user, i, args.preload), new_session(user, i + 1, 0)])))
    # Capacity: each scorer a queue of sessions, more than it can record in the time.
    capacity = []
    per_scorer = max(2, int(args.capacity_hands_budget / max(1, args.scorers) / 16) + 1)
    for i in range(args.scorers):
        user, key = users[i]
        capacity.append((key, deque(new_session(user, i * per_scorer + j, args.preload) for j in range(per_scorer))))
    return {"admin_key": admin_key, "keys": [k for _, k in users], "latency": latency, "capacity": capacity}


# --- the run --------------------------------------------------------------------------------------


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


def verdict(ok: bool) -> str:
    return "ok" if ok else "MISS"


def print_errors(name: str, tally: Tally) -> int:
    total = sum(tally.errors.values())
    print(
        f"  {name}: {len(tally.latencies)} answered 201, errors {total}" + (f" {dict(tally.errors)}" if total else "")
    )
    for sample in tally.error_samples:
        print(f"    e.g. {sample}")
    if tally.behind:
        print(f"    {tally.behind} not sent: the schedule fell more than 30 s behind (the service is saturated)")
    return total


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--web-workers", type=int, default=0, help="WEB_WORKERS (default bin/production's: one per core, at least 2)"
    )
    parser.add_argument("--scorers", type=int, default=16, help="closed-loop scorers for the capacity run")
    parser.add_argument("--capacity-seconds", type=float, default=20, help="each kind's, in all its turns")
    parser.add_argument("--turns", type=int, default=4, help="the capacity loops' turns, hands then floor")
    parser.add_argument("--share", type=float, default=0.6, help="the latency run's rate, a share of the capacity")
    parser.add_argument("--sessions", type=int, default=200, help="open sessions in the latency run")
    parser.add_argument("--latency-seconds", type=float, default=30)
    parser.add_argument("--deals", type=int, default=40, help="deals per generated session (at most)")
    parser.add_argument("--preload", type=int, default=10, help="hands recorded in each session before the run")
    parser.add_argument("--capacity-hands-budget", type=int, default=6000, help="hands prepared for capacity")
    parser.add_argument("--ports", default="8307,8317,8327,8337", help="HTTP, HTTPS, web server, Caddy's admin")
    parser.add_argument("--venv", default=str(ROOT / ".venv"), help="the stack's Python environment")
    parser.add_argument("--admin-url", default="postgres://postgres@127.0.0.1:5432/postgres")
    parser.add_argument("--database", default="clubscore_bench")
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/6")
    parser.add_argument("--seed", type=int, default=10)
    parser.add_argument("--keep", action="store_true", help="keep the database afterwards")
    args = parser.parse_args()

    print(f"machine: {machine()}")
    print(
        f"the production stack at https://{NAME}:{args.ports.split(',')[1]}/ (bin/production); capacity: "
        f"{args.scorers} scorers x {args.capacity_seconds:g} s; latency: {args.share:g} of it over "
        f"{args.sessions} sessions x {args.latency_seconds:g} s"
    )
    import redis

    redis.Redis.from_url(args.redis_url).flushdb()
    database_url = fresh_postgres(args.admin_url, args.database)
    stack = Stack(args, database_url)
    watch = MemoryWatch(stack)
    failures = 0
    try:
        print(f"bin/production: {stack.start():.1f} s (venv {args.venv})")
        django_setup(stack.settings_env())
        rng = random.Random(args.seed)
        t = time.monotonic()
        data = set_up(args, rng)
        print(f"set-up through the services: {time.monotonic() - t:.1f} s")
        print(f"web workers: {len(stack.workers())}")
        watch.start()
        tls = stack.tls()
        floor_body = json.dumps({"bid": "pass", "tricks": [4, 3, 3, 3], "number": 1}).encode()

        # Warm every worker (imports, connections, TLS sessions) on the floor.
        warm = [Scorer(Client(stack, k, tls), deque()) for k in data["keys"][: args.scorers]]
        closed_loop(warm, 3, lambda s, tally: post_floor(s, floor_body, tally))

        print(f"\n== capacity (closed loop, hands and floor in turns of {args.capacity_seconds / args.turns:g} s)")
        # Taken in turns, not one after the other: the VM's speed drifts over tens of seconds, and a
        # hands' loop and a floor's loop minutes apart measured it as much as the code.
        scorers = [Scorer(Client(stack, key, tls), sessions) for key, sessions in data["capacity"]]
        floor_scorers = [Scorer(Client(stack, key, tls), deque()) for key, _ in data["capacity"]]
        turn = args.capacity_seconds / args.turns
        ramp = min(2.0, turn / 4)
        hands_turns, floor_turns = Turns(), Turns()
        for _ in range(args.turns):
            hands_turns.run(scorers, turn, ramp, post_hand)
            floor_turns.run(floor_scorers, turn, ramp, lambda s, tally: post_floor(s, floor_body, tally))
        hands, floor = hands_turns.tally, floor_turns.tally
        hands_rate, floor_rate = hands_turns.rate, floor_turns.rate
        ratio = hands_rate / floor_rate if floor_rate else 0.0
        failures += print_errors("hands", hands) + print_errors("floor", floor)
        if any(not s.sessions for s in scorers):
            print("  note: a scorer ran out of prepared sessions; raise --capacity-hands-budget")
        print(f"  hands recorded: {hands_rate:.1f} /s (p50 {ms(percentile(hands.latencies, 50))})")
        print(f"  floor:          {floor_rate:.1f} requests/s (p50 {ms(percentile(floor.latencies, 50))})")
        print(f"  ratio hands/floor: {ratio:.2f} (target >= 0.6: {verdict(ratio >= 0.6)})")
        print_cpu("hand", hands_turns.cpu, max(1, len(hands.latencies)))
        print_cpu("floor request", floor_turns.cpu, max(1, len(floor.latencies)))

        rate = max(1.0, args.share * hands_rate)
        print(f"\n== latency (open loop, {rate:.1f}/s = {args.share:g} of the capacity, over {args.sessions} sessions)")
        scorers = [Scorer(Client(stack, key, tls), sessions) for key, sessions in data["latency"]]
        lat = open_loop(scorers, rate, args.latency_seconds, post_hand)
        floor_scorers = [Scorer(Client(stack, key, tls), deque()) for key, _ in data["latency"]]
        flat = open_loop(
            floor_scorers, rate, args.latency_seconds, lambda s, tally, due: post_floor(s, floor_body, tally, due)
        )
        failures += print_errors("hands", lat) + print_errors("floor", flat)
        achieved = len(lat.latencies) / args.latency_seconds
        print(f"  hands answered: {achieved:.1f} /s")
        rows = []
        for q in (50, 95, 99):
            h, f = percentile(lat.latencies, q), percentile(flat.latencies, q)
            rows.append((q, h, f))
            print(f"  p{q}: hands {ms(h)}, floor {ms(f)}, ratio {h / f:.1f}x" if f else f"  p{q}: hands {ms(h)}")
        p95, p99 = rows[1][1], rows[2][1]
        print(f"  targets: p95 < 50 ms: {verdict(p95 < 0.050)}; p99 < 100 ms: {verdict(p99 < 0.100)}")
        print(f"  max: hands {ms(max(lat.latencies, default=0))}, floor {ms(max(flat.latencies, default=0))}")

        watch.sample()
        peak_mb = max(watch.peak_kb.values(), default=0) / 1024
        print("\n== memory")
        print(
            f"  peak RSS of one web worker: {peak_mb:.1f} MB (of {len(watch.peak_kb)} workers; "
            f"target < 150 MB: {verdict(0 < peak_mb < 150)})"
        )
    finally:
        watch.stopping.set()
        if failures:
            print(f"\nweb server's log:\n{stack.log_tail()}")
        if args.keep:
            print(f"the stack's state, kept: {stack.state}")
        else:
            stack.stop()

    print("\n== correctness")
    from django.db import connection

    from ledger.models import IdempotencyRecord, Session

    ids = list(Session.objects.values_list("pk", flat=True))
    bad = projection_mismatches(ids)
    in_flight = IdempotencyRecord.objects.filter(state=IdempotencyRecord.State.IN_FLIGHT).count()
    print(f"  {len(ids)} sessions: stored projection equals a replay: {'yes' if not bad else 'NO'}")
    for line in bad[:10]:
        print(f"    {line}")
    print(f"  idempotency keys left in flight: {in_flight}")
    print(f"  requests that failed: {failures}")
    connection.close()
    if not args.keep:
        drop_postgres(args.admin_url, args.database)
    return 1 if (bad or failures or in_flight) else 0


if __name__ == "__main__":
    sys.exit(main())
