"""Rate limits (429 `throttled` with `Retry-After`). The rates are read at each request from the
settings (`REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]`), so a deployment or a test may change them.

A client's window is an atomic counter in the cache (`add` then `incr`: Redis SET NX and INCR across
the web workers; a mutex in the local-memory cache): requests at once each get their own number, so a
burst never passes beyond its limit, and nothing waits or polls in the request thread. The window
starts at a client's first request and lasts the rate's period (a fixed window: right after it ends,
the client may spend its whole limit again).

A client is the connection's address (`NUM_PROXIES`: `X-Forwarded-For` only through trusted proxies),
or its user once logged in. Logins are also counted per username (`LoginUsernameThrottle`): every
attempt takes a slot, a successful one gives it back, so only failures fill the window.
"""

from __future__ import annotations

import hashlib
import logging
import time
from typing import Any

from django.core.cache import cache as default_cache
from redis.exceptions import RedisError
from rest_framework import throttling
from rest_framework.exceptions import Throttled
from rest_framework.settings import api_settings

CACHE_DOWN = (RedisError, OSError)
logger = logging.getLogger(__name__)


def window_hit(key: str, limit: int, duration: int) -> float | None:
    """Count one request in the client's window: None when it is within `limit`, else the seconds to wait."""
    now = time.time()
    default_cache.add(f"{key}:start", now, duration)
    default_cache.add(key, 0, duration)
    try:
        count = default_cache.incr(key)
    except ValueError:  # the window ended between the add and the incr
        default_cache.add(key, 0, duration)
        count = default_cache.incr(key)
    if count <= limit:
        return None
    start = default_cache.get(f"{key}:start")
    left = duration - (now - start) if isinstance(start, int | float) else duration
    return max(1.0, left)


class CountingThrottle(throttling.SimpleRateThrottle):
    """DRF's throttle with the atomic window above; fails open (Redis down: a table keeps scoring)."""

    scope: str
    cache_format = "throttle_%(scope)s_%(ident)s"

    def get_rate(self) -> str | None:
        rate = api_settings.DEFAULT_THROTTLE_RATES.get(self.scope)
        return None if rate is None else str(rate)  # "100/min" (the stubs type the rates as numbers)

    def window(self) -> tuple[int, int] | None:
        """This scope's limit as (requests, seconds), or None when the scope has no rate."""
        requests, seconds = self.parse_rate(self.rate)
        return None if requests is None or seconds is None else (requests, seconds)

    def allow_request(self, request: Any, view: Any) -> bool:
        window = self.window()
        if window is None:
            return True
        key = self.get_cache_key(request, view)
        if key is None:
            return True
        try:
            self._wait = window_hit(key, *window)
        except CACHE_DOWN:
            logger.warning("the throttle's cache is unreachable: request let through", exc_info=True)
            return True
        return self._wait is None

    def wait(self) -> float | None:
        return getattr(self, "_wait", None)


class UserThrottle(CountingThrottle):
    scope = "user"

    def get_cache_key(self, request: Any, view: Any) -> str | None:
        ident = request.user.pk if request.user and request.user.is_authenticated else self.get_ident(request)
        return self.cache_format % {"scope": self.scope, "ident": ident}


class AnonThrottle(CountingThrottle):
    scope = "anon"

    def get_cache_key(self, request: Any, view: Any) -> str | None:
        if request.user and request.user.is_authenticated:
            return None  # UserThrottle counts them
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


class LoginThrottle(CountingThrottle):
    """Logins, per client address: a brake on password guessing."""

    scope = "login"

    def get_cache_key(self, request: Any, view: Any) -> str | None:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


class LoginUsernameThrottle(CountingThrottle):
    """Failed logins per username, whatever the address (a guesser with many addresses)."""

    scope = "login_username"

    def key_for(self, username: str) -> str:
        digest = hashlib.sha256(username.casefold().encode("utf-8", "surrogatepass")).hexdigest()[:32]
        return self.cache_format % {"scope": self.scope, "ident": digest}

    def attempt(self, username: str) -> None:
        """Take a slot for this attempt, or raise 429 when the username's window is full."""
        window = self.window()
        if window is None:
            return
        try:
            wait = window_hit(self.key_for(username), *window)
        except CACHE_DOWN:
            logger.warning("the login throttle's cache is unreachable: attempt let through", exc_info=True)
            return
        if wait is not None:
            raise Throttled(wait)

    def succeeded(self, username: str) -> None:
        """A right password gives its slot back: only failures fill the window."""
        if self.rate is None:
            return
        try:
            default_cache.decr(self.key_for(username))
        except (ValueError, *CACHE_DOWN):
            pass
