"""Login limits (issue 29): the one brake on password guessing, for the API's token endpoint
(`api/auth.py`) and the page logins (`/login/`, `/admin/login/`, `ledger/web/login.py`).

Two windows, with the API's rates (`REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]`, read at each attempt):
- `login` (`THROTTLE_LOGIN`, 20 a minute): every attempt from one client address, whatever the username;
- `login_username` (`THROTTLE_LOGIN_USERNAME`, 10 a minute): failed attempts for one username from one
  address. Every attempt takes a slot and a right password gives it back, so concurrent guesses cannot
  slip past the count and only failures fill the window. Counting per username *and* address means a
  stranger's failures fill the stranger's window only: the member's right password from any other
  address still logs in (docs/decisions.md, issue 29).

A window is an atomic counter in the cache (in Redis, across the web workers: SET NX and INCR in one
script, one round trip; in the local-memory cache, `add` then `incr` under its mutex), so a burst never
passes beyond its limit. When the shared cache is unreachable (Redis down) the login windows are
counted in the database instead (`LoginWindow`, an UPDATE ... count + 1 per attempt, issue 39, item 7),
so the limit stays the same across every web process and server: counted in each process's memory, as
before, a guesser got the limit once per process (28-30 of 30 wrong logins through, limit 10).

The username is counted as the login compares it: NFKC-normalised (what Django's login form and
`create_user` do) and otherwise exact, so `PA-TREAS` and `pa-treas` are two windows, as they are two
accounts. An IPv6 client counts by its /64 (one host is given a whole /64).
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import ipaddress
import logging
import time
import unicodedata
from collections.abc import Mapping
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.core.cache import DEFAULT_CACHE_ALIAS, BaseCache, caches
from django.core.cache.backends.redis import RedisCache
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone
from redis.exceptions import RedisError

from .models import LoginWindow

CACHE_DOWN = (RedisError, OSError)
PERIODS = {"s": 1, "m": 60, "h": 3600, "d": 86400}
logger = logging.getLogger(__name__)


class LoginRefused(Exception):
    """Too many login attempts: try again after `wait` seconds."""

    def __init__(self, wait: float) -> None:
        super().__init__(f"too many login attempts: try again in {wait:.0f} s")
        self.wait = wait


# A window in Redis, in one round trip: both keys made with the window's length when missing, the count
# taken, and the start read, atomically (a script runs alone in Redis, so no window ends between its
# steps). Through the cache's API (add, add, exists and incr: Django's incr checks the key first) it
# took four round trips and four new clients, on every request of the API (bench/README.md "round 5").
_WINDOW_SCRIPT = """
redis.call('SET', KEYS[2], ARGV[1], 'NX', 'EX', ARGV[2])
redis.call('SET', KEYS[1], 0, 'NX', 'EX', ARGV[2])
return {redis.call('INCR', KEYS[1]), redis.call('GET', KEYS[2])}
"""


_GIVE_BACK_SCRIPT = """
if redis.call('EXISTS', KEYS[1]) == 1 then redis.call('DECR', KEYS[1]) end
"""


def _location() -> str:
    """The shared cache's Redis: the windows live beside its keys, so `cache.clear()` empties them too."""
    return str(settings.CACHES[DEFAULT_CACHE_ALIAS]["LOCATION"])


@functools.cache
def _redis_scripts(url: str) -> tuple[Any, Any]:
    """The window's scripts (hit, give back) on a client of their own for this Redis: one per
    process, thread-safe."""
    import redis

    client = redis.Redis.from_url(url)
    return client.register_script(_WINDOW_SCRIPT), client.register_script(_GIVE_BACK_SCRIPT)


def window_hit(key: str, limit: int, duration: int, cache: BaseCache | None = None) -> float | None:
    """Count one request in the client's window (in the shared cache by default): None when it is within
    `limit`, else the seconds to wait."""
    now = time.time()
    if cache is None:
        cache = caches[DEFAULT_CACHE_ALIAS]
    if type(cache) is RedisCache:
        count, start_text = _redis_scripts(_location())[0](
            keys=[f"window:{key}", f"window:{key}:start"], args=[now, duration]
        )
        if int(count) <= limit:
            return None
        try:
            start = float(start_text)
        except (TypeError, ValueError):
            return float(duration)
        return max(1.0, duration - (now - start))
    cache.add(f"{key}:start", now, duration)
    cache.add(key, 0, duration)
    try:
        count = cache.incr(key)
    except ValueError:  # the window ended between the add and the incr
        cache.add(key, 0, duration)
        count = cache.incr(key)
    if count <= limit:
        return None
    start = cache.get(f"{key}:start")
    left = duration - (now - start) if isinstance(start, int | float) else duration
    return max(1.0, left)


def window_give_back(key: str, cache: BaseCache | None = None) -> None:
    """Take one back from the client's window (in the shared cache by default), if it has not ended."""
    if cache is None:
        cache = caches[DEFAULT_CACHE_ALIAS]
    if type(cache) is RedisCache:
        _redis_scripts(_location())[1](keys=[f"window:{key}"])
        return
    with contextlib.suppress(ValueError):  # the window has ended
        cache.decr(key)


def parse_rate(rate: Any) -> tuple[int, int] | None:
    """'20/min' as (20, 60); None for no rate."""
    if rate is None:
        return None
    count, period = str(rate).split("/")
    return int(count), PERIODS[period.strip()[0]]


def rate(scope: str) -> tuple[int, int] | None:
    rates = getattr(settings, "REST_FRAMEWORK", {}).get("DEFAULT_THROTTLE_RATES", {})
    return parse_rate(rates.get(scope))


def hit_with_fallback(key: str, limit: int, duration: int) -> float | None:
    """`window_hit` in the shared cache, or in the database while the shared cache is down."""
    try:
        return window_hit(key, limit, duration)
    except CACHE_DOWN:
        logger.warning("the login limits' cache is unreachable: counted in the database", exc_info=True)
        return database_hit(key, limit, duration)


def database_hit(key: str, limit: int, duration: int) -> float | None:
    """`window_hit` in the database (`LoginWindow`): an atomic UPDATE takes the slot (its row lock holds
    a concurrent attempt until this one's transaction ends); a missing or ended window starts anew."""
    now = timezone.now()
    with transaction.atomic():
        if not LoginWindow.objects.filter(pk=key, ends_at__gt=now).update(count=F("count") + 1):
            LoginWindow.objects.filter(ends_at__lte=now).delete()  # this one, if ended, and every other
            try:
                with transaction.atomic():
                    LoginWindow.objects.create(
                        key=key, count=1, started_at=now, ends_at=now + timedelta(seconds=duration)
                    )
            except IntegrityError:  # another process started it meanwhile
                LoginWindow.objects.filter(pk=key).update(count=F("count") + 1)
        count, ends_at = LoginWindow.objects.filter(pk=key).values_list("count", "ends_at").get()
    if count <= limit:
        return None
    return max(1.0, (ends_at - now).total_seconds())


def database_give_back(key: str) -> None:
    LoginWindow.objects.filter(pk=key, ends_at__gt=timezone.now(), count__gt=0).update(count=F("count") - 1)


def client_address(meta: Mapping[str, Any]) -> str:
    """The client's address, as the API's throttles name it (`NUM_PROXIES`: `X-Forwarded-For` only
    through trusted proxies); an IPv6 address as its /64."""
    num_proxies = getattr(settings, "REST_FRAMEWORK", {}).get("NUM_PROXIES")
    forwarded = meta.get("HTTP_X_FORWARDED_FOR")
    address = str(meta.get("REMOTE_ADDR") or "")
    if num_proxies is None:
        address = "".join(forwarded.split()) if forwarded else address
    elif num_proxies and forwarded:
        hops = forwarded.split(",")
        address = hops[-min(num_proxies, len(hops))].strip()
    try:
        parsed = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(parsed, ipaddress.IPv6Address):
        if parsed.ipv4_mapped is not None:
            return str(parsed.ipv4_mapped)
        return str(ipaddress.ip_network(f"{parsed}/64", strict=False))
    return str(parsed)


def login_username(value: str) -> str:
    """The username as the login compares it: NFKC (Django's login form and `create_user`), else exact."""
    return unicodedata.normalize("NFKC", value)


def _digest(*parts: str) -> str:
    joined = "\x00".join(parts).encode("utf-8", "surrogatepass")
    return hashlib.sha256(joined).hexdigest()[:32]


def address_key(address: str) -> str:
    return f"throttle_login_{_digest(address)}"


def username_key(username: str, address: str) -> str:
    return f"throttle_login_username_{_digest(login_username(username), address)}"


def address_attempt(address: str) -> float | None:
    """Count an attempt from this address: None, or the seconds to wait when its window is full."""
    window = rate("login")
    return None if window is None else hit_with_fallback(address_key(address), *window)


def username_attempt(username: str, address: str) -> None:
    """Take a slot for this username from this address, or raise LoginRefused while its window is full."""
    window = rate("login_username")
    if window is None:
        return
    wait = hit_with_fallback(username_key(username, address), *window)
    if wait is not None:
        raise LoginRefused(wait)


def username_succeeded(username: str, address: str) -> None:
    """A right password gives its slot back: only failures fill the window."""
    if rate("login_username") is None:
        return
    key = username_key(username, address)
    try:
        window_give_back(key)
    except CACHE_DOWN:  # counted in the database (`hit_with_fallback`)
        database_give_back(key)
