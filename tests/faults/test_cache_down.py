"""Redis down must not stop a table: the throttle's cache failing lets requests through (no 500)."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import override_settings

DEAD_REDIS = {
    "default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": "redis://127.0.0.1:1/0"}
}


@pytest.mark.django_db
def test_requests_pass_when_the_throttle_cache_is_unreachable(api: Any) -> None:
    with override_settings(CACHES=DEAD_REDIS):
        response = api.get("/api/v1/clubs/")
    assert response.status_code == 200, response.content
