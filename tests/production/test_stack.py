"""The production stack from a clean checkout (issue 27; CI's step "the production stack", `.ci/run`).

`bin/production` starts a private stack on this machine (its own state folder, env file, ports,
PostgreSQL role and database and Redis database) at a local name over HTTPS with Caddy's internal
authority. It takes the default path, as a club's admin would (issue 39): no DATABASE_URL, the role
(`CLUBSCORE_DB`, here `clubscore_prod`, so a club's own `clubscore` on this machine is never touched)
dropped first, so the command makes it and its database through the `postgres` superuser; the first
admin and club come from `bin/production admin`, and every command on the stack goes through
`bin/manage`. Then, in order: Chromium, trusting that authority (an NSS database of its own, as a phone trusts it),
records a deal on the scorer, reopens it cold while offline (the service worker's copy) and takes a
deal there; every web server's master (one per core, each on its own port behind Caddy) and the
Celery worker are killed with `kill -9` and are back within 10 s, and the queued deal reaches the
server; the command runs again as an upgrade (one web server at a time, drained) while the scorer
page and a scorer on the API record, and no request of the API scorer fails (0 × 5xx) and no deal is
lost or doubled; a backup is restored into a fresh database and verified. Then one web server is
killed while the API scorer records (no 5xx but what Caddy 2.6 cannot replay, docs/decisions.md), and
300 clients trickle request bodies while it records (no 503).

It needs root, PostgreSQL and Redis (as `.ci/run` finds or starts them), and Debian's packages
(the command installs Caddy and supervisor when missing): run it by `CLUBSCORE_PRODUCTION_TEST=1`.
"""

from __future__ import annotations

import http.client
import json
import os
import random
import shutil
import socket
import ssl
import subprocess
import tempfile
import threading
import time
import uuid
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ledger.models import Session
from tests.ledger_fixtures import AMERICAN_HANDS

pytestmark = pytest.mark.skipif(
    os.environ.get("CLUBSCORE_PRODUCTION_TEST") != "1",
    reason="CI's own step runs the production stack (.ci/run: CLUBSCORE_PRODUCTION_TEST=1)",
)

ROOT = Path(__file__).resolve().parents[2]
NAME = "clubscore-prod.localhost"  # Chromium sends *.localhost to this machine by itself
PORTS = {"HTTP_PORT": "8107", "HTTPS_PORT": "8117", "WEB_PORT": "8127", "CADDY_ADMIN": "localhost:8137"}
SERVER = os.environ.get("PRODUCTION_TEST_PG", "postgres://postgres@127.0.0.1:5432")
DATABASE, RESTORED = "clubscore_prod", "clubscore_prod_restore"  # the role is named as its database
REDIS = os.environ.get("PRODUCTION_TEST_REDIS", "redis://127.0.0.1:6379/7")
BASE = f"https://{NAME}:{PORTS['HTTPS_PORT']}"
PHONE = {"width": 390, "height": 844}


def psql(sql: str) -> None:
    subprocess.run(["psql", "-q", f"{SERVER}/postgres", "-c", sql], check=True, capture_output=True)


class Stack:
    def __init__(self, state: Path) -> None:
        self.state = state
        self.env = dict(
            os.environ,
            CLUBSCORE_STATE=str(state),
            CLUBSCORE_ENV_FILE=str(state / "etc" / "env"),
            CLUBSCORE_VENV=str(ROOT / ".venv"),
            CLUBSCORE_USER="root",  # the checkout's .venv runs pyenv's Python under /root
            CLUBSCORE_DB=DATABASE,  # the default path (no DATABASE_URL) with a name of its own
            SITE_NAMES=NAME,
            CADDY_BIND="127.0.0.1",
            REDIS_URL=REDIS,
            WEB_WORKERS="2",
            HEARTBEAT_SECONDS="2",
            **PORTS,
        )
        self.env.pop("DJANGO_SETTINGS_MODULE", None)
        self.env.pop("DATABASE_URL", None)
        self.ca = state / "caddy" / "pki" / "authorities" / "local" / "root.crt"
        self.admin_password = ""

    def production(self, *args: str) -> subprocess.Popen[str]:
        return subprocess.Popen(
            [str(ROOT / "bin" / "production"), *args], env=self.env, cwd=ROOT, stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT, text=True,
        )  # fmt: skip

    def manage(self, *args: str, database: str | None = None) -> str:
        """`bin/manage` (the stack's settings, as its user); with `database`, that database of the server
        as its superuser (the env file's URL replaced: bin/manage would read it back)."""
        if not database:
            done = subprocess.run([str(ROOT / "bin" / "manage"), *args], env=self.env, capture_output=True, text=True)
            assert done.returncode == 0, done.stdout + done.stderr
            return done.stdout
        url = f"DATABASE_URL={SERVER}/{database}; "
        script = (
            f'set -a; . "{self.env["CLUBSCORE_ENV_FILE"]}"; {url}set +a; exec "{ROOT}/.venv/bin/python" manage.py "$@"'
        )
        # self.env: not the suite's DJANGO_SETTINGS_MODULE (its fast password hasher is not the stack's)
        done = subprocess.run(["sh", "-c", script, "sh", *args], cwd=ROOT, env=self.env, capture_output=True, text=True)
        assert done.returncode == 0, done.stdout + done.stderr
        return done.stdout

    def ctl(self, *args: str) -> str:
        conf = str(self.state / "supervisord.conf")
        return subprocess.run(["supervisorctl", "-c", conf, *args], capture_output=True, text=True).stdout.strip()

    def pid(self, program: str) -> int:
        return int(self.ctl("pid", program) or 0)

    def proxy_errors(self, last: int = 6) -> list[str]:
        """Caddy's last errors (its log, one JSON line each): what an assertion shows beside a 5xx."""
        log = self.state / "log" / "caddy.log"
        lines = log.read_text(errors="replace").splitlines() if log.exists() else []
        return [line[:400] for line in lines if '"level":"error"' in line][-last:]

    def web_servers(self) -> list[str]:
        """The supervisor's names of the web servers (`web:web-0`, ...), each a gunicorn master."""
        lines = self.ctl("status", "web:*").splitlines()
        return [line.split()[0] for line in lines if line.startswith("web:")]

    def health(self, timeout: float = 5) -> tuple[int, dict[str, Any]]:
        """`/health/` through Caddy at the stack's name, checked against its authority (curl)."""
        port = PORTS["HTTPS_PORT"]
        done = subprocess.run(
            ["curl", "-sS", "--max-time", str(timeout), "--cacert", str(self.ca),
             "--resolve", f"{NAME}:{port}:127.0.0.1", "-w", "\n%{http_code}", f"{BASE}/health/"],
            capture_output=True, text=True,
        )  # fmt: skip
        body, _, code = done.stdout.rpartition("\n")
        try:
            return int(code or 0), json.loads(body) if body.strip() else {}
        except ValueError:
            return int(code or 0), {"body": body}


def drop_all() -> None:
    for name in (DATABASE, RESTORED):
        psql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    psql(f'DROP ROLE IF EXISTS "{DATABASE}"')


@pytest.fixture(scope="module")
def stack() -> Iterator[Stack]:
    state = Path(tempfile.mkdtemp(prefix="clubscore-prod-"))
    drop_all()  # the default path on a server where the role does not exist yet
    subprocess.run(["redis-cli", "-u", REDIS, "flushdb"], check=True, capture_output=True)
    stack = Stack(state)
    started = time.monotonic()
    run = stack.production()
    out, _ = run.communicate(timeout=400)
    print(out)
    assert run.returncode == 0, out
    print(f"bin/production, first run: {time.monotonic() - started:.1f} s")
    assert f"created the database {DATABASE} (owned by the role {DATABASE})" in out, out
    # The first admin and club of a new server: one command, the password printed once.
    made = stack.production("admin", "admin", "Production Club")
    out, _ = made.communicate(timeout=120)
    print(out)
    assert made.returncode == 0, out
    stack.admin_password = out.strip().splitlines()[-1].rpartition("password: ")[2]
    assert "'Production Club' created; admin is its admin" in out and len(stack.admin_password) >= 12, out
    try:
        yield stack
    finally:
        stack.ctl("shutdown")
        for _ in range(40):
            if not (state / "run" / "supervisord.pid").exists():
                break
            time.sleep(0.5)
        drop_all()
        shutil.rmtree(state, ignore_errors=True)


SEED = """
from django.contrib.auth import get_user_model
from ledger.services.clubs import player_create
from ledger.services.sessions import session_open
from ledger.models import Club
admin = get_user_model().objects.get(username="admin")  # bin/production admin made both
club = Club.objects.get(name="Production Club", memberships__user=admin)
players = [player_create(actor=admin, club_id=club.pk, name=n) for n in ("Ann", "Ben", "Cleo", "Dan")]
session = session_open(actor=admin, club_id=club.pk, variant="american", rules={},
    player_ids=[p.pk for p in players], first_dealer=0, stake={"currency": "USD", "per_counter": "0.01"})
print(session.pk)
"""
RUSSIAN_RULES = {"nine": {"base": 30, "extra": 5}, "misere": 40}  # a game that does not end (bench/benchlib.py)
API_SESSION = """
import json
from django.contrib.auth import get_user_model
from ledger.services.sessions import session_import
from ledger.services.tokens import token_issue
from ledger.models import Club
admin = get_user_model().objects.get(username="admin")
club = Club.objects.get(name="Production Club")
sheet = json.loads({sheet!r})
session = session_import(actor=admin, club_id=club.pk, sheet=dict(sheet, hands=[]))
key, _ = token_issue(user=admin, device="api-scorer-{tag}")
print(json.dumps([session.pk, key]))
"""


class ApiScorer:
    """A scorer's phone on the API: one deal after another (a new Idempotency-Key each), every answer
    counted; a deal that fails (a 5xx, no answer) is sent again with the same key, as the scorer's
    page does, so a deal is never lost to a failure, and counted by the server at most once."""

    def __init__(self, stack: Stack, tag: str, pause: float = 0.25) -> None:
        from ledger.engine.samples import random_sheet

        sheet = random_sheet("russian", random.Random(39), 400, rules=RUSSIAN_RULES)
        sheet["players"] = [f"{tag} {i}" for i in range(4)]
        self.bodies = [json.dumps(dict(h, number=n)).encode() for n, h in enumerate(sheet["hands"], 1)]
        code = API_SESSION.format(sheet=json.dumps(sheet), tag=tag)
        self.session_id, self.token = json.loads(stack.manage("shell", "-c", code).strip().splitlines()[-1])
        self.stack, self.pause = stack, pause
        self.statuses: Counter[str] = Counter()
        self.recorded: list[float] = []  # when each deal's 201 came (monotonic)
        self.samples: list[str] = []
        self.stop = threading.Event()
        self.conn: http.client.HTTPSConnection | None = None
        self.reopened = 0  # kept-alive connections closed by the server while idle, opened again
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.context = ssl.create_default_context(cafile=str(stack.ca))

    def connect(self) -> http.client.HTTPSConnection:
        conn = http.client.HTTPSConnection(NAME, int(PORTS["HTTPS_PORT"]), timeout=30, context=self.context)
        sock = socket.create_connection(("127.0.0.1", int(PORTS["HTTPS_PORT"])), 30)
        conn.sock = self.context.wrap_socket(sock, server_hostname=NAME)
        return conn

    def send(self, body: bytes, key: str) -> tuple[str, str]:
        """One POST of the deal; a kept-alive connection that the server closed while it was idle (Caddy
        closes its idle connections on a reload) is opened again and the request sent on the new one
        at once, as browsers do, and counted in `reopened`; any other failure is the answer."""
        headers = {"Authorization": f"Token {self.token}", "Content-Type": "application/json"}
        path = f"/api/v1/sessions/{self.session_id}/hands/"
        for fresh in (self.conn is None, True):
            try:
                if self.conn is None:
                    self.conn = self.connect()
                self.conn.request("POST", path, body=body, headers={**headers, "Idempotency-Key": key})
                response = self.conn.getresponse()
                return str(response.status), response.read().decode(errors="replace")
            except (OSError, http.client.HTTPException) as exc:
                if self.conn is not None:
                    self.conn.close()
                self.conn = None
                if fresh:
                    return type(exc).__name__, str(exc)
                self.reopened += 1
        raise AssertionError("unreachable")

    def run(self) -> None:
        for body in self.bodies:
            if self.stop.is_set():
                return
            key = str(uuid.uuid4())
            for _attempt in range(120):  # a deal begun is sent until it is recorded (a minute at most)
                status, text = self.send(body, key)
                self.statuses[status] += 1
                if status == "201":
                    self.recorded.append(time.monotonic())
                    break
                if len(self.samples) < 8:
                    self.samples.append(f"{status}: {text[:200]}")
                if not status.startswith("5") and status.isdigit():
                    return  # a refusal (4xx) is a bug here: stop, the counts show it
                time.sleep(0.5)
            else:
                return
            time.sleep(self.pause)

    def __enter__(self) -> ApiScorer:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        self.thread.join(60)

    def failures(self) -> dict[str, int]:
        return {status: n for status, n in self.statuses.items() if status != "201"}

    def longest_gap(self) -> float:
        return max((b - a for a, b in zip(self.recorded, self.recorded[1:], strict=False)), default=0.0)

    def check_server(self) -> None:
        """Every deal the scorer saw recorded is on the server, once, in order: none lost, none twice."""
        numbers = hands_on_server(self.stack, self.session_id)
        assert numbers == list(range(1, len(self.recorded) + 1)), (numbers[-5:], len(self.recorded))


def trusting_browser(playwright: Any, stack: Stack, home: Path) -> Any:
    """Chromium with the stack's authority in its NSS database, as a phone that trusts it."""
    nssdb = home / ".pki" / "nssdb"
    nssdb.mkdir(parents=True)
    if not shutil.which("certutil"):
        subprocess.run(["apt-get", "install", "-y", "-qq", "libnss3-tools"], check=True, capture_output=True)
    subprocess.run(["certutil", "-d", f"sql:{nssdb}", "-N", "--empty-password"], check=True)
    subprocess.run(
        ["certutil", "-d", f"sql:{nssdb}", "-A", "-t", "C,,", "-n", "clubscore", "-i", str(stack.ca)], check=True
    )
    from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS

    return playwright.chromium.launch(
        executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, env={**os.environ, "HOME": str(home)}
    )


def hands_on_server(stack: Stack, session_id: int) -> list[int]:
    numbers = f"Hand.objects.filter(session_id={session_id}).order_by('number').values_list('number', flat=True)"
    code = f"from ledger.models import Hand; print(list({numbers}))"
    return json.loads(stack.manage("shell", "-c", code).strip().splitlines()[-1])


def back_within(stack: Stack, program: str, old: int, seconds: float) -> tuple[float, float]:
    """How long until the supervisor runs `program` again (a new process), and until the web server
    answers through Caddy again (for the worker: until it is running)."""
    started = time.monotonic()
    running = answering = 0.0
    while time.monotonic() - started < 3 * seconds:
        if not running:
            pid = stack.pid(program)
            if pid and pid != old and "RUNNING" in stack.ctl("status", program):
                running = time.monotonic() - started
        if running and (not program.startswith("web") or stack.health(timeout=2)[0] in (200, 503)):
            answering = time.monotonic() - started
            break
        time.sleep(0.2)
    assert running and answering, f"{program} not back within {3 * seconds} s: {stack.ctl('status')}"
    return running, answering


def test_the_stack_serves_survives_upgrades_and_restores(stack: Stack, tmp_path: Path) -> None:
    from playwright.sync_api import Error as PlaywrightError
    from playwright.sync_api import expect, sync_playwright

    from tests.browser.scorer_driver import Scorer

    assert stack.health()[0] == 200, stack.health()
    assert oct((stack.state / "etc" / "env").stat().st_mode & 0o777) == "0o600"
    password = stack.admin_password  # bin/production admin's, printed once (the fixture)
    session_id = int(stack.manage("shell", "-c", SEED).strip().splitlines()[-1])
    session = Session(pk=session_id)  # only its id: the stack's database is not this process's
    with sync_playwright() as playwright:
        browser = trusting_browser(playwright, stack, tmp_path / "home")
        context = browser.new_context(viewport=PHONE, base_url=BASE, locale="en-US", has_touch=True, is_mobile=True)
        context.set_default_timeout(30_000)
        page = context.new_page()
        page.goto(f"/login/?next=/sessions/{session_id}/score/")  # a certificate error would raise here
        page.fill("#id_username", "admin")
        page.fill("#id_password", password)
        page.click("button[type=submit]")
        page.wait_for_url(f"**/sessions/{session_id}/score/", wait_until="commit", timeout=60_000)
        scorer = Scorer(page, touch=True).open(session)
        page.wait_for_function("navigator.serviceWorker.controller !== null || navigator.serviceWorker.ready")
        scorer.enter(AMERICAN_HANDS[0])
        # No deal records itself (the count-down is gone, eb007cc): the Record tap sends it, and the
        # page says so only once the server has answered 201.
        assert scorer.entered() == 0
        scorer.record()
        scorer.wait_recorded(1)
        assert hands_on_server(stack, session_id) == [1]

        # Offline, the scorer reopens cold from the service worker and takes deal 2 into its queue.
        page.reload()  # the service worker controls the page from here on
        expect(page.locator("#scorer")).to_have_attribute("data-state", "ready")
        context.set_offline(True)
        page.close()
        page = context.new_page()
        scorer = Scorer(page, touch=True).open(session)
        scorer.enter(dict(AMERICAN_HANDS[1], number=2))
        scorer.record()
        expect(page.locator("#scorer")).to_have_attribute("data-entered", "1")
        assert len(scorer.queue()) == 1

        # kill -9 every web server's master (so none is left to answer) and the worker: all back within 10 s.
        servers = stack.web_servers()
        assert servers == ["web:web-0", "web:web-1"], stack.ctl("status")  # WEB_WORKERS=2: one per port
        webs, worker = {name: stack.pid(name) for name in servers}, stack.pid("worker")
        for pid in [*webs.values(), worker]:
            os.kill(pid, 9)
        context.set_offline(False)  # the queued deal goes out while they come back
        webs_back = {name: back_within(stack, name, pid, 10) for name, pid in webs.items()}
        worker_back = back_within(stack, "worker", worker, 10)
        for name, (running, answering) in webs_back.items():
            print(f"after kill -9: {name} running again in {running:.1f} s, answering in {answering:.1f} s;")
        print(f"  the worker running again in {worker_back[0]:.1f} s")
        assert all(back[0] < 10 for back in webs_back.values()) and worker_back[0] < 10, (webs_back, worker_back)
        assert all(back[1] < 30 for back in webs_back.values()), webs_back  # and answering (a few s more if loaded)
        expect(page.locator("#scorer")).to_have_attribute("data-hands", "2", timeout=30_000)
        assert scorer.queue() == []

        # Running the command again upgrades while the scorer records deals 3 and 4, and a scorer on
        # the API records all along.
        api = ApiScorer(stack, "upgrade").__enter__()
        time.sleep(2)
        started = time.monotonic()
        upgrade = stack.production()
        for number in (3, 4):
            for attempt in range(3):
                # The page re-renders its form when the session changes on the server or its live
                # channel reconnects (the restart): a button tapped then is gone. Enter the deal again
                # from the top, as a scorer would; Record is tapped only on a whole entry.
                try:
                    scorer.enter(dict(AMERICAN_HANDS[number - 1], number=number))
                    break
                except PlaywrightError:
                    assert attempt < 2, "the form kept changing under the scorer"
                    print(f"deal {number}: the form re-rendered during the entry; entered again")
                    page.wait_for_timeout(1000)
            scorer.record()
            expect(page.locator("#scorer")).to_have_attribute("data-entered", str(number - 1), timeout=60_000)
        out, _ = upgrade.communicate(timeout=300)
        print(out)
        assert upgrade.returncode == 0, out
        assert "upgrading the running stack" in out
        print(f"bin/production, upgrade: {time.monotonic() - started:.1f} s")
        time.sleep(2)
        api.__exit__()
        print(
            f"upgrade: the API scorer recorded {len(api.recorded)} deals, answers {dict(api.statuses)} "
            f"({api.reopened} idle connections closed by Caddy's reloads, reopened), "
            f"longest gap between two recorded deals {api.longest_gap():.2f} s"
        )
        if api.failures():
            print("Caddy's last errors:", *stack.proxy_errors(), sep="\n")
        assert api.failures() == {}, (api.failures(), api.samples)  # 0 × 5xx, every request answered
        api.check_server()
        assert len(api.recorded) >= 10
        expect(page.locator("#scorer")).to_have_attribute("data-hands", "4", timeout=60_000)
        assert scorer.queue() == []
        assert not page.errors if hasattr(page, "errors") else True
        browser.close()
    assert hands_on_server(stack, session_id) == [1, 2, 3, 4]  # none lost, none twice
    assert stack.health()[0] == 200, stack.health()
    # HSTS, without `preload`: this site's authority is Caddy's own (issue 39).
    head = subprocess.run(
        ["curl", "-sS", "-D", "-", "-o", "/dev/null", "--cacert", str(stack.ca), "--resolve",
         f"{NAME}:{PORTS['HTTPS_PORT']}:127.0.0.1", f"{BASE}/login/"], capture_output=True, text=True,
    ).stdout.lower()  # fmt: skip
    hsts = [line for line in head.splitlines() if line.startswith("strict-transport-security:")]
    assert hsts and "max-age=31536000" in hsts[0] and "preload" not in hsts[0], head

    # A backup restored into a fresh database, and verified there (root's backup: bin/manage
    # runs it as the service's user).
    snapshot = stack.manage("backup").strip().splitlines()[-1]
    assert Path(snapshot).is_dir()
    psql(f'CREATE DATABASE "{RESTORED}"')
    restored = stack.manage("restore", snapshot, database=RESTORED)
    assert "restore verified" in restored, restored


def test_one_web_server_killed_refuses_no_one(stack: Stack) -> None:
    """Issue 39, point 3: a web server killed (`kill -9` of its master) while a scorer records. Caddy's
    active health check leaves it out within a second; the other one is never marked down, so no
    503. A deal whose POST went to the dead one in that second is answered 502 (Caddy 2.6 cannot
    send a body again after a failed dial, docs/decisions.md) and sent again with its key."""
    with ApiScorer(stack, "kill") as api:
        time.sleep(3)
        before = len(api.recorded)
        old = stack.pid("web:web-0")
        os.kill(old, 9)
        back_within(stack, "web:web-0", old, 10)
        time.sleep(3)
    print(
        f"kill -9 of web-0: the API scorer recorded {len(api.recorded)} deals ({before} before), answers "
        f"{dict(api.statuses)} ({api.reopened} reopened), longest gap {api.longest_gap():.2f} s; {api.samples}"
    )
    assert len(api.recorded) > before + 5
    failed = (api.statuses, api.samples, stack.proxy_errors())
    assert api.statuses["503"] == 0, failed
    assert sum(n for status, n in api.failures().items() if status != "502") == 0, failed
    assert api.statuses["502"] <= 3, failed
    api.check_server()


SLOW_BODIES = 300


def test_slow_clients_cost_only_themselves(stack: Stack) -> None:
    """Issue 39, point 2: 300 clients trickle request bodies (a byte a second of 500) and ten send a
    header line every 5 s, for 35 s, past Caddy's 30 s for a body, while a scorer records on the API:
    none of its deals meets a 503 (or any failure), and /health/ answers within seconds."""
    context = ssl.create_default_context(cafile=str(stack.ca))
    conns: list[tuple[ssl.SSLSocket, bool]] = []
    for index in range(SLOW_BODIES + 10):
        raw = socket.create_connection(("127.0.0.1", int(PORTS["HTTPS_PORT"])), timeout=10)
        conn = context.wrap_socket(raw, server_hostname=NAME)
        body = index < SLOW_BODIES
        if body:
            head = f"POST /api/v1/settle/ HTTP/1.1\r\nHost: {NAME}\r\nContent-Type: application/json\r\n"
            conn.sendall((head + "Content-Length: 500\r\n\r\n").encode())
        else:
            conn.sendall(f"GET / HTTP/1.1\r\nHost: {NAME}\r\n".encode())
        conns.append((conn, body))
    cut = 0
    timings = []
    started = time.monotonic()
    with ApiScorer(stack, "slow") as api:
        tick = 0
        while time.monotonic() - started < 35:
            tick += 1
            alive = []
            for conn, body in conns:
                try:
                    if body:
                        conn.sendall(b" ")
                    elif tick % 5 == 0:
                        conn.sendall(f"X-Slow-{tick}: 1\r\n".encode())
                    alive.append((conn, body))
                except OSError:
                    cut += 1  # cut by Caddy's timeout: that is its job
                    conn.close()
            conns = alive
            if tick % 4 == 0:
                began = time.monotonic()
                assert stack.health()[0] == 200, stack.health()
                timings.append(time.monotonic() - began)
            time.sleep(max(0.0, started + tick - time.monotonic()))
    for conn, _ in conns:
        conn.close()
    print(
        f"{SLOW_BODIES} slow bodies and 10 slow headers for 35 s ({cut} cut by Caddy): the API scorer "
        f"recorded {len(api.recorded)} deals, answers {dict(api.statuses)} ({api.reopened} reopened), longest gap "
        f"{api.longest_gap():.2f} s; /health/ in {max(timings):.2f} s at the most"
    )
    assert api.statuses["503"] == 0, (api.statuses, api.samples, stack.proxy_errors())
    assert api.failures() == {}, (api.statuses, api.samples, stack.proxy_errors())
    assert len(api.recorded) >= 20
    api.check_server()
    assert max(timings) < 3, timings
