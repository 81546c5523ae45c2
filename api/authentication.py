"""`Authorization: Token <key>`: a device token (`ledger.models.DeviceToken`), kept only as its hash."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext
from rest_framework import authentication, exceptions
from rest_framework.request import Request

from ledger.selectors import token_get
from ledger.services.tokens import token_touch


class DeviceTokenAuthentication(authentication.BaseAuthentication):
    keyword = "Token"

    def authenticate(self, request: Request) -> tuple[Any, Any] | None:
        parts = authentication.get_authorization_header(request).split()
        if not parts or parts[0].lower() != self.keyword.lower().encode():
            return None
        if len(parts) != 2:
            raise exceptions.AuthenticationFailed(gettext("the header must be `Authorization: Token <key>`"))
        try:
            key = parts[1].decode("ascii")
        except UnicodeDecodeError:
            raise exceptions.AuthenticationFailed(gettext("invalid token")) from None
        token = token_get(key=key)
        if token is None:
            raise exceptions.AuthenticationFailed(gettext("invalid, expired or revoked token"))
        token_touch(token=token)  # `last_used` of the devices list, to the minute
        return token.user, token

    def authenticate_header(self, request: Request) -> str:
        return self.keyword
