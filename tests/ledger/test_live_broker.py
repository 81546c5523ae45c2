"""A stream whose follower left ends: the broker's async listen gives up its subscription when cancelled.

Django's ASGI handler cancels a streaming response's task when its client disconnects. On Python 3.11
(Debian 12's) `asyncio.wait_for` cancelled at the moment its message comes returns the message and drops
the cancel (CPython gh-86296), so a stream could go on with nobody reading it, holding its subscription.
Here messages come without a pause, so a cancel always lands as one is ready. A lost cancel listens on
for as long as messages come (here: until the test gives up), never cancelled; a kept one ends
cancelled, at once on a quiet machine. The test waits up to 10 s for that: CI once saw 1.9 s, with the
publishing thread holding the GIL beside two busy cores."""

from __future__ import annotations

import asyncio
import threading
import time

from ledger.live import LocalBroker

WAIT = 10.0  # how long the test waits for the cancel to end the listen


def test_a_listen_cancelled_while_messages_come_ends_at_once_and_unsubscribes() -> None:
    broker = LocalBroker()
    done = threading.Event()

    def flood() -> None:
        while not done.is_set():
            broker.publish("session-1", "change")

    async def rounds() -> None:
        async def follow(got: list[str | None]) -> None:
            async for message in broker.alisten(["session-1"], 5.0):
                got.append(message)

        for _ in range(20):
            got: list[str | None] = []
            task = asyncio.create_task(follow(got))
            while len(got) < 3:  # subscribed, and messages are coming
                await asyncio.sleep(0.001)
            task.cancel()
            began = time.monotonic()
            await asyncio.wait({task}, timeout=WAIT)
            waited = time.monotonic() - began
            assert task.cancelled(), f"a cancelled stream listened on for {waited:.1f} s"

    publisher = threading.Thread(target=flood, daemon=True)
    publisher.start()
    try:
        asyncio.run(rounds())
    finally:
        done.set()
        publisher.join()
    assert broker._subscribers.get("session-1", set()) == set()  # every stream gave its subscription up
