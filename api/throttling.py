"""Rate limits (429 `throttled` with `Retry-After`). The rates are read at each request from the
settings (`REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]`), so a deployment or a test may change them."""

from __future__ import annotations

from rest_framework import throttling
from rest_framework.settings import api_settings


class _LiveRate:
    scope: str

    def get_rate(self) -> str | None:
        return api_settings.DEFAULT_THROTTLE_RATES.get(self.scope)


class UserThrottle(_LiveRate, throttling.UserRateThrottle):
    scope = "user"


class AnonThrottle(_LiveRate, throttling.AnonRateThrottle):
    scope = "anon"


class LoginThrottle(_LiveRate, throttling.AnonRateThrottle):
    """Logins, per client address: a brake on password guessing."""

    scope = "login"
