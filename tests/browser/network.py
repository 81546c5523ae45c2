"""A phone's own network for the browser tests: a forwarding HTTP proxy between one browser context
and the live server, that can be cut.

Chromium's offline emulation (`context.set_offline`) is what makes `navigator.onLine` false, but it
does not cover every path a request can take from a page a service worker controls (a request the
worker lets through to the network was seen reaching the server while "offline"). Cut here, the
phone reaches nothing at all, whatever sent the request: the proxy answers no request and closes
every connection, as a dead network does. It also notes every request the phone sent through it, so a
test sees how often each deal was sent.
"""

from __future__ import annotations

import contextlib
import http.client
import socket
import threading
import time
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import urlsplit

HOP_BY_HOP = {
    "connection",
    "keep-alive",
    "proxy-connection",
    "proxy-authorization",
    "te",
    "trailer",
    "transfer-encoding",
    "upgrade",
    "content-length",
}


@dataclass(frozen=True)
class Sent:
    """A request the phone sent while its network was up: it reached the server."""

    method: str
    path: str
    key: str | None  # its Idempotency-Key


class PhoneNetwork:
    def __init__(self, target: str) -> None:
        parts = urlsplit(target)
        self.host = parts.hostname or "localhost"
        self.port = parts.port or 80
        self.up = True
        self.sent: list[Sent] = []
        self.refused: list[str] = []  # what the phone tried while its network was cut
        self.cut_after: tuple[str, str] | None = None  # (method, path): cut once its answer is relayed
        self._lock = threading.Lock()
        self._connections: set[socket.socket] = set()
        self._server = _Server(("127.0.0.1", 0), _Relay)
        self._server.network = self
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()

    @property
    def proxy(self) -> dict[str, str]:
        """The context option that sends the phone's every request through this network."""
        return {"server": f"http://127.0.0.1:{self._server.server_address[1]}"}

    def cut(self) -> None:
        with self._lock:
            self.up = False
            connections = list(self._connections)
        for connection in connections:  # the connections kept alive die with the network
            with contextlib.suppress(OSError):
                connection.shutdown(socket.SHUT_RDWR)

    def restore(self) -> None:
        with self._lock:
            self.up = True

    def posted(self, path: str) -> list[str | None]:
        """The Idempotency-Keys of the POSTs that reached `path`, in the order they were sent."""
        return [s.key for s in self.sent if s.method == "POST" and s.path == path]

    def close(self) -> None:
        self.cut()
        self._server.shutdown()
        self._server.server_close()

    def track(self, connection: socket.socket, alive: bool) -> None:
        with self._lock:
            if alive:
                self._connections.add(connection)
            else:
                self._connections.discard(connection)


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    network: PhoneNetwork


class _Relay(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: _Server

    @property
    def network(self) -> PhoneNetwork:
        return self.server.network

    def setup(self) -> None:
        # Not one of the live server's own threads, which conftest.settle_requests waits for.
        threading.current_thread().name = "phone network relay"
        super().setup()
        self.network.track(self.connection, alive=True)
        if not self.network.up:
            self.close_connection = True

    def finish(self) -> None:
        self.network.track(self.connection, alive=False)
        with contextlib.suppress(OSError):
            super().finish()

    def handle_one_request(self) -> None:
        if not self.network.up:
            self.close_connection = True
            return
        try:
            super().handle_one_request()
        except OSError:
            self.close_connection = True

    def relay(self) -> None:
        network = self.network
        url = urlsplit(self.path)
        path = url.path + (f"?{url.query}" if url.query else "")
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else None
        if not network.up:  # cut while the request came in: it goes nowhere
            network.refused.append(f"{self.command} {url.path}")
            self.close_connection = True
            return
        network.sent.append(Sent(self.command, url.path, self.headers.get("Idempotency-Key")))
        if "text/event-stream" in (self.headers.get("Accept") or ""):
            # This relay reads an answer to its end, and a live stream has none: relayed, it held one of
            # the live server's threads until the network closed (10 s of teardown after each test). The
            # phone's stream waits unanswered instead, as behind a proxy that buffers, until the network
            # is cut; the page then polls (static/clubscore/live.js). No test sees a live event through it.
            while network.up:
                time.sleep(0.05)
            self.close_connection = True
            return
        headers = {k: v for k, v in self.headers.items() if k.lower() not in HOP_BY_HOP}
        upstream = http.client.HTTPConnection(network.host, network.port, timeout=60)
        try:
            upstream.request(self.command, path, body=body, headers=headers)
            response = upstream.getresponse()
            data = response.read()
        finally:
            upstream.close()
        self.send_response_only(response.status, response.reason)
        for name, value in response.getheaders():
            if name.lower() not in HOP_BY_HOP:
                self.send_header(name, value)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(data)
        if network.cut_after == (self.command, url.path):  # the answer got through; nothing after it does
            network.cut_after = None
            network.cut()

    do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = do_HEAD = do_OPTIONS = relay

    def log_message(self, format: str, *args: Any) -> None:
        pass
