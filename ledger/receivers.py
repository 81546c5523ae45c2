"""Django signals the ledger listens to: a password change revokes every device token of the user.

`pre_save` notes whether the password really changed: a new hash that still verifies the raw password
`set_password` was given is Django upgrading the hash at a login (a new release's iterations), not a
change, and must not log every phone out.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.hashers import check_password

_CHANGED = "_clubscore_password_changed"


def note_password_change(sender: Any, instance: Any, update_fields: Any = None, **kwargs: Any) -> None:
    if instance.pk is None or (update_fields is not None and "password" not in update_fields):
        return
    old = sender._default_manager.filter(pk=instance.pk).values_list("password", flat=True).first()
    if old is None or old == instance.password:
        return
    raw = getattr(instance, "_password", None)
    same = raw is not None and check_password(raw, old)
    setattr(instance, _CHANGED, not same)


def revoke_tokens_after_password_change(sender: Any, instance: Any, **kwargs: Any) -> None:
    if getattr(instance, _CHANGED, False):
        from .services.tokens import token_revoke_all

        token_revoke_all(user=instance)
        setattr(instance, _CHANGED, False)
