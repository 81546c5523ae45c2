"""Rate limits (429 `throttled` with `Retry-After`). The rates are read at each request from the
settings (`REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]`), so a deployment or a test may change them.

DRF's throttle reads a client's request history from the cache, decides, and writes it back: two
requests at once both read the same history and both pass, so a burst from one token went through
well beyond its limit. Here that read-decide-write runs under a short lock per client, taken with
the cache's atomic `add` (Redis SET NX across the web workers; a mutex in the local-memory cache).
"""

from __future__ import annotations

import logging
import time
import uuid
from typing import Any

from redis.exceptions import RedisError
from rest_framework import throttling
from rest_framework.settings import api_settings

LOCK_SECONDS = 5  # a lock outlives a holder that died by at most this long
LOCK_POLL = 0.002
CACHE_DOWN = (RedisError, OSError)
logger = logging.getLogger(__name__)


class _LiveRate:
    scope: str

    def get_rate(self) -> str | None:
        return api_settings.DEFAULT_THROTTLE_RATES.get(self.scope)


class _Atomic:
    """Check and record a request under a per-client lock, so concurrent requests count one by one."""

    def allow_request(self, request: Any, view: Any) -> bool:
        """Fails open: with the cache (Redis) down, a table keeps scoring instead of getting 500s."""
        try:
            return self._allow_request(request, view)
        except CACHE_DOWN:
            logger.warning("the throttle's cache is unreachable: request let through", exc_info=True)
            return True

    def _allow_request(self, request: Any, view: Any) -> bool:
        if self.rate is None:  # type: ignore[attr-defined]
            return True
        key = self.get_cache_key(request, view)  # type: ignore[attr-defined]
        if key is None:
            return True
        cache = self.cache  # type: ignore[attr-defined]
        lock, token = f"{key}:lock", uuid.uuid4().hex
        deadline = time.monotonic() + LOCK_SECONDS + 1
        locked = cache.add(lock, token, LOCK_SECONDS)
        while not locked and time.monotonic() < deadline:  # past the deadline, go on unlocked: never hang
            time.sleep(LOCK_POLL)
            locked = cache.add(lock, token, LOCK_SECONDS)
        try:
            return super().allow_request(request, view)  # type: ignore[misc]
        finally:
            if locked and cache.get(lock) == token:
                cache.delete(lock)


class UserThrottle(_LiveRate, _Atomic, throttling.UserRateThrottle):
    scope = "user"


class AnonThrottle(_LiveRate, _Atomic, throttling.AnonRateThrottle):
    scope = "anon"


class LoginThrottle(_LiveRate, _Atomic, throttling.AnonRateThrottle):
    """Logins, per client address: a brake on password guessing."""

    scope = "login"
