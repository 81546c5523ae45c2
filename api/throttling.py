"""Rate limits (429 `throttled` with `Retry-After`). The rates are read at each request from the
settings (`REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]`), so a deployment or a test may change them.

A client's window is an atomic counter in the cache (`ledger.login_limits.window_hit`: `add` then
`incr`, Redis SET NX and INCR across the web workers; a mutex in the local-memory cache): requests at
once each get their own number, so a burst never passes beyond its limit, and nothing waits or polls in
the request thread. The window starts at a client's first request and lasts the rate's period (a fixed
window: right after it ends, the client may spend its whole limit again).

A client is the connection's address (`NUM_PROXIES`: `X-Forwarded-For` only through trusted proxies),
or its user once logged in. The login limits (per address, and failures per username and address) are
`ledger.login_limits`, shared with the page logins; they count in the database while Redis is down,
where the other scopes let requests through (a table keeps scoring).
"""

from __future__ import annotations

import logging
from typing import Any

from rest_framework import throttling
from rest_framework.exceptions import Throttled
from rest_framework.settings import api_settings

from ledger import login_limits
from ledger.login_limits import CACHE_DOWN, window_hit

logger = logging.getLogger(__name__)


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
    """Logins, per client address: a brake on password guessing (`ledger.login_limits`, never off)."""

    scope = "login"

    def allow_request(self, request: Any, view: Any) -> bool:
        if self.window() is None:
            return True
        self._wait = login_limits.address_attempt(login_limits.client_address(request.META))
        return self._wait is None


class LoginUsernameThrottle:
    """A login's failure windows (`ledger.login_limits.Login`: per username and address, and per
    username from untrusted clients or per trusted device), as DRF's 429."""

    def __init__(self, request: Any) -> None:
        self.address = login_limits.client_address(request.META)
        self.device_cookie = request.META.get("HTTP_DEVICE_COOKIE")

    def attempt(self, username: str) -> login_limits.Login:
        """Take this attempt's slots, or raise 429 while one of its windows is full."""
        login = login_limits.Login(username, self.address, self.device_cookie)
        try:
            login.attempt()
        except login_limits.LoginRefused as refused:
            raise Throttled(refused.wait) from None
        return login
