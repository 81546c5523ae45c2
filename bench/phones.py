"""The phones of a dense evening (`bench/live.py --dense`): what each page's script does over HTTP, timed.

Each class is one page as its script runs today, so that the bench measures what a player waits for:
- `FollowerPage`: a seat link's page `/s/<key>/` (`static/clubscore/follow.js` on `live.js`): the stream
  `/live/seat/<key>/`; a change whose tag is new (live.js `changed`) makes the page read its fragment
  `/s/<key>/rows/` with If-None-Match, one read at a time and one more after it when a change came
  meanwhile (follow.js `refresh`); the player taps ✓ on each new deal once it shows, and the page reads its
  rows again after the ✓'s answer.
- `BoardPage`: the room board `/b/<key>/` (the same scripts, its fragment `/b/<key>/tables/`, no ✓).
- `ScorerPage`: the scorer's page (`static/clubscore/scorer/`): before Record the preview (`POST
  /api/v1/settle/` of its sheet with the deal), Record (`POST .../hands/` with the deal's number and an
  Idempotency-Key), then its reads after the 201 (the session, the sheet and the hands side by side, then
  the checks: `server.js` `refresh`, `loadChecks`); its stream `/live/sessions/<id>/` (a member's, by his
  login cookie), on which a change of the checks makes it read the checks again (`channel.js`), and its
  15 s poll of the session.

**When the live channel carries data** (issue 40, item 6: the event carries the changed rows, the pages
stop re-reading), the places to change are `FollowerPage.on_change` (with `tap_confirm`) and
`ScorerPage.after_record` for the scorer's reads after its 201. `on_change` already applies a change that
carries its rows in the shape the live-data branch was writing (`html` and `prev`) with no read.

HTTP is plain HTTP/1.1 on 127.0.0.1, one connection per request (`Connection: close`) and one per
stream; every wait is bounded, by `asyncio.timeout`, never `asyncio.wait_for`: on Python 3.11 a task
cancelled in `wait_for` just as what it waits for is done (a stream's heartbeat, an answer) returns that
result and loses the cancel (CPython gh-86296, fixed in 3.12), so a page that the evening's end cancelled
went on until its `stop`: the tiny evening of tests/bench waited 425 s for one follower's stream.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
import time
import uuid
from dataclasses import dataclass, field
from typing import Any

DEAL = re.compile(rb'id="deal-(\d+)"')
TAG = re.compile(rb'data-tag="([^"]*)"')
REQUEST_SECONDS = 60.0


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)


@dataclass
class Client:
    """Where the server is, and every request's outcome counted (by kind, and the failures)."""

    host: str
    port: int
    requests: dict[str, int] = field(default_factory=dict)
    failures: list[str] = field(default_factory=list)

    async def fetch(
        self,
        kind: str,
        method: str,
        path: str,
        headers: dict[str, str] | None = None,
        body: Any = None,
    ) -> Answer | None:
        """One request; None (and a failure noted) when the connection fails or it takes over a minute."""
        self.requests[kind] = self.requests.get(kind, 0) + 1
        try:
            async with asyncio.timeout(REQUEST_SECONDS):
                return await self._fetch(method, path, headers or {}, body)
        except (OSError, TimeoutError, ValueError, IndexError) as error:
            self.failures.append(f"{kind} {method} {path}: {type(error).__name__} {error}")
            return None

    async def _fetch(self, method: str, path: str, headers: dict[str, str], body: Any) -> Answer:
        data = b"" if body is None else json.dumps(body).encode()
        head = [f"{method} {path} HTTP/1.1", f"Host: {self.host}", "Connection: close"]
        head += [f"{k}: {v}" for k, v in headers.items()]
        if body is not None:
            head += ["Content-Type: application/json", f"Content-Length: {len(data)}"]
        reader, writer = await asyncio.open_connection(self.host, self.port)
        try:
            writer.write(("\r\n".join(head) + "\r\n\r\n").encode() + data)
            await writer.drain()
            status, answer_headers = await read_head(reader)
            if answer_headers.get("transfer-encoding", "").lower() == "chunked":
                content = b"".join([chunk async for chunk in chunks(reader)])
            elif "content-length" in answer_headers:
                content = await reader.readexactly(int(answer_headers["content-length"]))
            else:
                content = await reader.read()
            return Answer(status, answer_headers, content)
        finally:
            writer.close()


async def read_head(reader: asyncio.StreamReader) -> tuple[int, dict[str, str]]:
    status_line = await reader.readline()
    if not status_line:
        raise ValueError("the server closed the connection")
    status = int(status_line.split()[1])
    headers: dict[str, str] = {}
    while True:
        line = (await reader.readline()).decode("latin-1").rstrip("\r\n")
        if not line:
            return status, headers
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()


async def chunks(reader: asyncio.StreamReader) -> Any:
    """A chunked body, chunk by chunk (uvicorn streams the events that way)."""
    while True:
        size_line = await reader.readline()
        if not size_line:
            return
        size = int(size_line.split(b";")[0].strip() or b"0", 16)
        if size == 0:
            await reader.readline()
            return
        chunk = await reader.readexactly(size)
        await reader.readexactly(2)
        yield chunk


async def follow_stream(client: Client, path: str, headers: dict[str, str], on_event: Any, stop: float) -> None:
    """An EventSource: the stream's events (type, data) to `on_event`, reconnecting `retry` ms after the
    server ends it (every LIVE_STREAM_SECONDS), until `stop` (time.monotonic())."""
    retry = 1.0
    while time.monotonic() < stop:
        try:
            reader, writer = await asyncio.open_connection(client.host, client.port)
        except OSError as error:
            client.failures.append(f"stream {path}: {error}")
            await asyncio.sleep(retry)
            continue
        client.requests["stream"] = client.requests.get("stream", 0) + 1
        try:
            head = [f"GET {path} HTTP/1.1", f"Host: {client.host}", "Accept: text/event-stream"]
            head += [f"{k}: {v}" for k, v in headers.items()]
            writer.write(("\r\n".join(head) + "\r\n\r\n").encode())
            await writer.drain()
            async with asyncio.timeout(max(0.1, stop - time.monotonic())):
                status, answer_headers = await read_head(reader)
            if status != 200:
                client.failures.append(f"stream {path}: {status}")
                await asyncio.sleep(retry)
                continue
            source: Any = chunks(reader) if answer_headers.get("transfer-encoding") == "chunked" else raw(reader)
            buffer = b""
            while time.monotonic() < stop:
                try:
                    async with asyncio.timeout(max(0.1, stop - time.monotonic())):
                        piece = await anext(source)
                except (StopAsyncIteration, TimeoutError):
                    break
                buffer += piece
                while b"\n\n" in buffer:
                    block, buffer = buffer.split(b"\n\n", 1)
                    event, data = "message", []
                    for line in block.decode().split("\n"):
                        if line.startswith("event:"):
                            event = line[6:].strip()
                        elif line.startswith("data:"):
                            data.append(line[5:].lstrip())
                        elif line.startswith("retry:"):
                            retry = int(line[6:].strip()) / 1000
                    if data:
                        on_event(event, "\n".join(data))
        except (OSError, ValueError, asyncio.IncompleteReadError, TimeoutError) as error:
            client.failures.append(f"stream {path}: {type(error).__name__} {error}")
        finally:
            writer.close()
        await asyncio.sleep(retry)


async def raw(reader: asyncio.StreamReader) -> Any:
    """A body that is not chunked (a WSGI server's stream): as it comes."""
    while True:
        piece = await reader.read(65536)
        if not piece:
            return
        yield piece


# --- the pages -------------------------------------------------------------------------------------------


class FollowerPage:
    """One player's phone on his seat link, as follow.js and live.js run it; times when each deal's event
    came (`event_at`) and when the page had the deal to show (`shown_at`), and taps ✓ on each deal."""

    def __init__(
        self,
        client: Client,
        events: str,
        rows: str,
        confirm: str | None,
        think: tuple[float, float],
        rng: random.Random,
    ) -> None:
        self.client, self.events, self.rows, self.confirm_url = client, events, rows, confirm
        self.think, self.rng = think, rng
        self.tag = ""  # live.js's tag: the last one it passed on
        self.shown_tag = ""  # the fragment's data-tag, what the page shows
        self.shown: set[int] = set()
        self.event_at: dict[int, float] = {}
        self.shown_at: dict[int, float] = {}
        self.checked: dict[int, float] = {}  # deal -> when its ✓ was answered
        self.reads = 0
        self.carried = False  # the stream has brought this page its rows (the live channel carries data)
        self._reading = False
        self._again = False
        self._tasks: set[asyncio.Task[None]] = set()

    def spawn(self, work: Any) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def busy(self) -> bool:
        return bool(self._tasks) or self._reading

    async def open(self) -> None:
        """The page as it loads: its rows and their tag."""
        answer = await self.client.fetch("rows", "GET", self.rows)
        if answer is not None and answer.status == 200:
            self.show(answer.body, time.monotonic(), tap=False)
            self.tag = self.shown_tag

    async def run(self, stop: float) -> None:
        await follow_stream(self.client, self.events, {}, self.event, stop)

    def event(self, kind: str, data: str) -> None:
        if kind == "ping":
            return
        try:
            change = json.loads(data)
        except ValueError:
            return
        now = time.monotonic()
        for n in range(1, int(change.get("hands", 0)) + 1):
            self.event_at.setdefault(n, now)
        self.on_change(change)

    def on_change(self, change: dict[str, Any]) -> None:
        """live.js `changed`, then what the page does with the change. THE SWITCH for a live channel that
        carries data (issue 40, item 6).

        Today (main): a new tag makes the page read its fragment again (follow.js `refresh`).
        A change that carries its rows (`html`, the fragment of what changed, and `prev`, the tag it
        follows: the shape of the live-data branch while it was being written) is applied with no read
        when the page shows `prev`, skipped when the page is already there, and read otherwise, as that
        branch's `CS.live.decide` says; such a page no longer reads after its own ✓ (`carried`). If the
        shape that lands differs, this method and `tap_confirm` are the places to follow it."""
        tag = change.get("tag")
        if not tag or tag == self.tag:
            return
        self.tag = tag
        html = change.get("html")
        if isinstance(html, str):
            self.carried = True
            if not later(tag, self.shown_tag):
                return
            if change.get("prev") == self.shown_tag and not self._reading:
                self.show(html.encode(), time.monotonic())
                self.shown_tag = tag
                return
        self.spawn(self.refresh())

    async def refresh(self) -> None:
        """One read at a time, and one more after it when the table moved meanwhile (follow.js)."""
        if self._reading:
            self._again = True
            return
        self._reading = True
        try:
            while True:
                self._again = False
                await self.read_rows()
                if not self._again:
                    break
        finally:
            self._reading = False

    async def read_rows(self) -> None:
        self.reads += 1
        answer = await self.client.fetch("rows", "GET", self.rows, {"If-None-Match": f'"{self.shown_tag}"'})
        if answer is None or answer.status not in (200, 304):
            self.tag = self.shown_tag  # not read: the next change or poll reads again (follow.js)
            return
        if answer.status == 200:
            self.show(answer.body, time.monotonic())
            self.tag = self.shown_tag  # follower.seen(fresh tag)

    def show(self, html: bytes, now: float, tap: bool = True) -> None:
        found = TAG.search(html)
        if found:
            self.shown_tag = found.group(1).decode()
        deals = {int(n) for n in DEAL.findall(html)}
        for n in deals - self.shown:
            self.shown_at.setdefault(n, now)
            if tap and self.confirm_url is not None:
                self.spawn(self.tap_confirm(n))
        self.shown |= deals

    async def tap_confirm(self, n: int) -> None:
        """The player reads the deal, taps ✓; the page reads its rows after the answer (follow.js `confirm`)."""
        await asyncio.sleep(self.rng.uniform(*self.think))
        assert self.confirm_url is not None
        answer = await self.client.fetch("confirm", "POST", self.confirm_url.format(n=n), body={})
        if answer is not None and answer.status in (200, 201):
            self.checked[n] = time.monotonic()
            if not self.carried:  # today's page reads its rows after its ✓; one fed by the stream does not
                await self.refresh()
        else:
            self.client.failures.append(f"confirm deal {n}: {answer.status if answer else 'no answer'}")


def later(tag: str, than: str) -> bool:
    """Whether live tag `tag` ("<version>.<checks>") is past `than` (an unreadable `than` is behind)."""
    try:
        return tuple(map(int, tag.split("."))) > tuple(map(int, than.split(".")))
    except ValueError:
        return True


class BoardPage(FollowerPage):
    """The room board: the same scripts on the club's tables, no ✓."""

    def __init__(self, client: Client, key: str) -> None:
        super().__init__(client, f"/live/board/{key}/", f"/b/{key}/tables/", None, (0.0, 0.0), random.Random(0))

    def on_change(self, change: dict[str, Any]) -> None:
        """Today: a new tag, a read. A change carrying its table (`html`) replaces that table with no read
        (the live-data branch's `applyBoard`; a table the board does not show yet is read there, which
        this simplification leaves out: the board's tables are all open before the evening starts)."""
        tag = change.get("tag")
        if not tag or tag == self.tag:
            return
        self.tag = tag
        if isinstance(change.get("html"), str) and not self._reading:
            self.carried = True
            return
        self.spawn(self.refresh())


@dataclass
class Recorded:
    """One deal as the scorer's phone lived it (time.monotonic())."""

    session: int
    number: int
    sent: float
    answered: float  # the 201
    page_done: float = 0.0  # the page's reads after it landed


class ScorerPage:
    """The scorer's phone: the preview, Record, its reads after the 201, its stream and its poll."""

    POLL = 15.0

    def __init__(self, client: Client, token: str, cookie: str, session: int, hands: list[dict[str, Any]]) -> None:
        self.client, self.session, self.hands = client, session, hands
        self.auth = {"Authorization": f"Token {token}", "Accept": "application/json"}
        self.cookie = cookie
        self.api = f"/api/v1/sessions/{session}/"
        self.sheet: dict[str, Any] = {}
        self.version = 0
        self.followed = False  # the last 201 was the page's next change (record.js `follows`)
        self.checks = -1
        self.tag = ""
        self.busy = False
        self.done = 0  # deals recorded
        self.recorded: list[Recorded] = []
        self.reading = asyncio.Lock()  # the page's reads after a 201, one after another (server.js)
        self._after: set[asyncio.Task[None]] = set()

    async def get(self, kind: str, path: str) -> Answer | None:
        answer = await self.client.fetch(kind, "GET", path, self.auth)
        if answer is not None and answer.status != 200:
            self.client.failures.append(f"{kind} {path}: {answer.status}")
        return answer

    async def open(self) -> None:
        """The page as it loads (a fresh session: no checks yet), its tag from its config."""
        await self.refresh()
        await self.load_checks()
        self.checks = 0
        self.tag = f"{self.version}.{self.checks}"

    async def refresh(self) -> None:
        """server.js `readSession`: the session, the sheet and the hands, side by side."""
        session, sheet, _ = await asyncio.gather(
            self.get("session", self.api),
            self.get("sheet", self.api + "sheet/"),
            self.get("hands", self.api + "hands/?page_size=200"),
        )
        if session is not None and session.status == 200:
            self.version = session.json()["version"]
        if sheet is not None and sheet.status == 200:
            self.sheet = sheet.json()

    async def load_checks(self) -> None:
        await self.get("checks", self.api + "checks/?page_size=200")

    async def run(self, stop: float) -> None:
        """The page's stream and its poll, until `stop`."""
        cookie = {"Cookie": self.cookie}
        await asyncio.gather(
            follow_stream(self.client, f"/live/sessions/{self.session}/", cookie, self.event, stop), self.poll(stop)
        )

    async def poll(self, stop: float) -> None:
        while time.monotonic() + self.POLL < stop:
            await asyncio.sleep(self.POLL)
            if not self.busy:
                await self.get("session", self.api)

    def event(self, kind: str, data: str) -> None:
        if kind != "change":
            return
        change = json.loads(data)
        if change.get("tag") in (None, self.tag):
            return
        self.tag = change["tag"]
        asyncio.get_running_loop().create_task(self.on_change(change))

    async def on_change(self, change: dict[str, Any]) -> None:
        """channel.js: the checks read again when they moved; the session when another phone moved it."""
        if change.get("checks") is not None and change["checks"] != self.checks:
            self.checks = change["checks"]
            await self.load_checks()
        if self.busy:
            return
        if change.get("version") is not None and change["version"] != self.version:
            await self.refresh()
            await self.load_checks()

    async def preview(self) -> None:
        """What the form's deal would pay, before Record (preview.js): the sheet with the deal, settled."""
        sheet = {k: v for k, v in self.sheet.items() if k != "close"}
        # the deals recorded (the page holds each 201's deal while its reads are on their way), and this one
        sheet["hands"] = self.hands[: self.done + 1]
        await self.client.fetch("preview", "POST", "/api/v1/settle/", self.auth, sheet)

    async def record(self) -> Recorded | None:
        """Record (record.js `flush`), then the page's reads after the 201 (`after_record`)."""
        number = self.done + 1
        hand = {**self.hands[self.done], "number": number}
        headers = {**self.auth, "Idempotency-Key": str(uuid.uuid4())}
        self.busy = True
        sent = time.monotonic()
        answer = await self.client.fetch("record", "POST", self.api + "hands/", headers, hand)
        answered = time.monotonic()
        self.busy = False
        if answer is None or answer.status != 201:
            self.client.failures.append(f"record deal {number}: {answer.status if answer else 'no answer'}")
            return None
        self.done += 1
        previous = self.version
        self.version = answer.json().get("version", self.version + 1)
        self.followed = self.version == previous + 1  # the 201 is the page's next change: nothing to read
        deal = Recorded(self.session, number, sent, answered)
        self.recorded.append(deal)
        # Record is free again once the 201 is in (record.js: `sending` ends before the reads): the next
        # deal does not wait for this one's reads.
        task = asyncio.get_running_loop().create_task(self.after(deal))
        self._after.add(task)
        task.add_done_callback(self._after.discard)
        return deal

    def behind(self) -> bool:
        """Whether the page's reads after a 201 are still on their way."""
        return bool(self._after)

    async def after(self, deal: Recorded) -> None:
        async with self.reading:
            await self.after_record()
        deal.page_done = time.monotonic()

    async def after_record(self) -> None:
        """record.js after a 201: the tag seen (`caughtUp`); the page reads (`refresh()` then
        `loadChecks()`) only when the 201 did not follow the session it showed (a gap: another phone's
        deal came between), as it no longer re-reads what its 201 said (issue 38, item 12)."""
        if not self.followed:
            await self.refresh()
            await self.load_checks()
        self.tag = f"{self.version}.{self.checks}"
