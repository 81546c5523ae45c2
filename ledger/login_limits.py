"""Login limits (issue 29): the one brake on password guessing, for the API's token endpoint
(`api/auth.py`) and the page logins (`/login/`, `/admin/login/`, `ledger/web/login.py`).

Windows, with the API's rates (`REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]`, read at each attempt):
- `login` (`THROTTLE_LOGIN`, 20 a minute): every attempt from one client address, whatever the username;
- `login_username` (`THROTTLE_LOGIN_USERNAME`, 10 a minute): failed attempts for one username from one
  address, and failed attempts from one trusted device. Every attempt takes a slot and a right
  password gives it back, so concurrent guesses cannot slip past the count and only failures fill
  the window;
- `login_untrusted` (`THROTTLE_LOGIN_UNTRUSTED`, 20 an hour): failed attempts for one username from
  every client without a device cookie of that member, whatever its address (issue 39, item 12: one
  password guessed from 40 addresses met no brake). A device that logged in as the member before
  carries a signed device cookie (OWASP's device cookies: the pages' cookie `clubscore_device`, the
  API's `Device-Cookie` header) and is not counted there, so a stranger's failures lock untrusted
  clients out, never the member's own devices (docs/decisions.md, issues 29 and 39).

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
import secrets
import time
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.core import signing
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


def untrusted_key(username: str) -> str:
    return f"throttle_login_untrusted_{_digest(login_username(username))}"


def device_key(nonce: str) -> str:
    return f"throttle_login_device_{_digest(nonce)}"


# --- device cookies (OWASP, "Slow Down Online Guessing Attacks with Device Cookies"; issue 39, item 12) --

DEVICE_COOKIE = "clubscore_device"  # the pages' cookie; the API's header is `Device-Cookie`
DEVICE_SALT = "ledger.login_limits.device"
DEVICE_MAX_AGE = 365 * 86400


def device_cookie_issue(username: str) -> str:
    """A device cookie for this member: signed (the site's SECRET_KEY), naming the member by a digest of
    the username and the device by a random nonce of its own."""
    payload = {"u": _digest(login_username(username)), "n": secrets.token_urlsafe(12)}
    return signing.dumps(payload, salt=DEVICE_SALT)


def device_nonce(cookie: str | None, username: str) -> str | None:
    """The device's nonce when `cookie` is a valid device cookie of this member (younger than a year),
    else None: the client is untrusted for this username."""
    if not cookie or len(cookie) > 500:
        return None
    try:
        payload = signing.loads(cookie, salt=DEVICE_SALT, max_age=DEVICE_MAX_AGE)
    except signing.BadSignature:
        return None
    if not isinstance(payload, dict) or payload.get("u") != _digest(login_username(username)):
        return None
    nonce = payload.get("n")
    return nonce if isinstance(nonce, str) else None


def _take(scope: str, key: str) -> None:
    window = rate(scope)
    if window is None:
        return
    wait = hit_with_fallback(key, *window)
    if wait is not None:
        raise LoginRefused(wait)


def _give_back(scope: str, key: str) -> None:
    if rate(scope) is None:
        return
    try:
        window_give_back(key)
    except CACHE_DOWN:  # counted in the database (`hit_with_fallback`)
        database_give_back(key)


@dataclass(frozen=True)
class Login:
    """One login attempt's windows (the per-address one is counted first, `address_attempt`):

    - failures for this username from this address (`login_username`), whatever the device;
    - from a client with no device cookie of this member (untrusted): failures for this username from
      every untrusted client together (`login_untrusted`), the brake on one password guessed from many
      addresses; when it is full, untrusted clients are refused for this member until it ends;
    - from a trusted device (its cookie): that device's own failures (`login_username`'s rate), so a
      stolen cookie is braked too, and the member's own device passes whatever strangers did.

    Each attempt takes a slot in its windows and a right password gives them back (`succeeded`, which
    also hands the device a fresh cookie), so concurrent guesses cannot slip past the count."""

    username: str
    address: str
    device_cookie: str | None = None

    def windows(self) -> list[tuple[str, str]]:
        name = login_username(self.username)
        nonce = device_nonce(self.device_cookie, name)
        second = ("login_untrusted", untrusted_key(name)) if nonce is None else ("login_username", device_key(nonce))
        return [("login_username", username_key(name, self.address)), second]

    def attempt(self) -> None:
        """Take this attempt's slots, or raise LoginRefused while one of its windows is full."""
        for scope, key in self.windows():
            _take(scope, key)

    def succeeded(self) -> str:
        """A right password: the slots given back, and a device cookie for this member (to keep)."""
        for scope, key in self.windows():
            _give_back(scope, key)
        return device_cookie_issue(self.username)
