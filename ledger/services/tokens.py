"""Device tokens: issued per device, kept hashed, revoked, touched at most once a minute."""

from __future__ import annotations

import secrets
from datetime import timedelta

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from ledger.exceptions import (
    NotFound,
)
from ledger.models import (
    DeviceToken,
)
from ledger.names import clean_name
from ledger.selectors import (
    token_hash,
)

# --- device tokens ---------------------------------------------------------------------------------


def token_issue(*, user: User, device: str, key: str | None = None) -> tuple[str, DeviceToken]:
    """A new key for the user on this device (replacing the device's previous one); only its hash is kept.

    `key` is for the demo command only, whose users keep the same token across restarts.
    """
    device = clean_name(device, "device")
    key = key or secrets.token_urlsafe(32)
    now = timezone.now()
    with transaction.atomic(durable=True):
        token, _ = DeviceToken.objects.update_or_create(
            user=user,
            device=device,
            defaults={
                "key_hash": token_hash(key),
                "created_at": now,
                "expires_at": now + timedelta(days=settings.CLUBSCORE_TOKEN_DAYS),
                "revoked_at": None,
            },
        )
    return key, token


def token_revoke(*, token: DeviceToken) -> None:
    with transaction.atomic(durable=True):
        DeviceToken.objects.filter(pk=token.pk, revoked_at__isnull=True).update(revoked_at=timezone.now())


def token_revoke_by_id(*, user: User, token_id: int) -> None:
    """Log one of the user's devices out (a lost phone, from another); another user's token is NotFound."""
    with transaction.atomic(durable=True):
        revoked = DeviceToken.objects.filter(
            pk=token_id, user_id=user.pk, revoked_at__isnull=True, expires_at__gt=timezone.now()
        ).update(revoked_at=timezone.now())
    if not revoked:
        raise NotFound("no such device token")


def token_revoke_all(*, user: User) -> int:
    """Every live token of the user (a password change). One UPDATE, atomic by itself; not durable,
    because it runs from the user's `post_save`, inside whatever transaction saved the user."""
    return DeviceToken.objects.filter(user_id=user.pk, revoked_at__isnull=True).update(revoked_at=timezone.now())


TOKEN_TOUCH_SECONDS = 60


def token_touch(*, token: DeviceToken) -> None:
    """Note the token's use, to the minute: at most one UPDATE a minute per device on the hot path."""
    now = timezone.now()
    if token.last_used_at is not None and now - token.last_used_at < timedelta(seconds=TOKEN_TOUCH_SECONDS):
        return
    DeviceToken.objects.filter(pk=token.pk).update(last_used_at=now)  # autocommitted: one statement
    token.last_used_at = now
