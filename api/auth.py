"""Logins (`api.md`, "Who may do what", "Devices"): a device's token issued and revoked, the caller's
devices listed and logged out one by one. One class per operation."""

from __future__ import annotations

from django.contrib.auth import authenticate
from django.utils.translation import gettext
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.exceptions import AuthenticationFailed, ValidationError
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from ledger import selectors
from ledger.login_limits import login_username
from ledger.models import DeviceToken
from ledger.services.tokens import token_issue, token_revoke, token_revoke_by_id

from . import schema
from .authentication import DeviceTokenAuthentication
from .common import ListQuery, Route, Strict, Text, Timestamp, actor, paginated, query, valid
from .limits import DEVICE_MAX, PASSWORD_MAX, USERNAME_MAX
from .throttling import AnonThrottle, LoginThrottle, LoginUsernameThrottle


class LoginIn(Strict):
    username = Text(max_length=USERNAME_MAX)
    password = Text(max_length=PASSWORD_MAX, trim_whitespace=False)
    device = Text(max_length=DEVICE_MAX)


class TokenOut(serializers.Serializer):
    token = serializers.CharField(help_text="send it as `Authorization: Token <key>`")
    expires = Timestamp()


class LoginApi(APIView):
    """Log a device in: a new token for it (a user has one token per device)."""

    authentication_classes: list = []  # logging in needs no token (and an expired one must not stand in the way)
    permission_classes = [AllowAny]
    throttle_classes = [LoginThrottle, AnonThrottle]
    InputSerializer = LoginIn
    OutputSerializer = TokenOut

    def get_authenticate_header(self, request: Request) -> str:
        return DeviceTokenAuthentication.keyword  # a wrong password is 401 with `WWW-Authenticate: Token`

    @extend_schema(
        request=InputSerializer,
        responses={201: OutputSerializer},
        auth=[],
        parameters=[
            OpenApiParameter(
                "Device-Cookie",
                str,
                OpenApiParameter.HEADER,
                description="the device cookie this device was given at an earlier login of this user (the"
                " answer's `Device-Cookie` header): a device that has logged in as the user before passes"
                " while strangers' wrong passwords lock untrusted clients out of this username (429)",
            ),
            OpenApiParameter(
                "Device-Cookie",
                str,
                OpenApiParameter.HEADER,
                response=[201],
                description="keep it and send it with this user's next logins from this device",
            ),
        ],
    )
    def post(self, request: Request) -> Response:
        data = valid(self.InputSerializer, request.data)
        username = login_username(data["username"])  # compared as the page login compares it (NFKC)
        login = LoginUsernameThrottle(request).attempt(username)  # 429 while a failure window is full
        user = authenticate(request._request, username=username, password=data["password"])
        if user is None:
            raise AuthenticationFailed(gettext("wrong username or password"))
        device_cookie = login.succeeded()
        key, token = token_issue(user=user, device=data["device"])
        response = Response(self.OutputSerializer({"token": key, "expires": token.expires_at}).data, status=201)
        response["Device-Cookie"] = device_cookie
        return response


class LogoutApi(APIView):
    """Log this device out: revoke the token of this request."""

    throttle_classes: list = []

    @extend_schema(request=None, responses={204: None})
    def delete(self, request: Request) -> Response:
        if not isinstance(request.auth, DeviceToken):
            raise ValidationError({"Authorization": ["log out with the device's `Authorization: Token <key>`"]})
        token_revoke(token=request.auth)
        return Response(status=204)


class TokenRoute(Route):
    operations = {"post": LoginApi, "delete": LogoutApi}
    throttle_classes: list = []


class DeviceOut(serializers.Serializer):
    id = serializers.IntegerField()
    device = serializers.CharField()
    created = Timestamp(source="created_at")
    last_used = Timestamp(
        source="last_used_at", allow_null=True, help_text="to the minute; null until the token is used"
    )
    expires = Timestamp(source="expires_at")


class DeviceTokenListApi(APIView):
    """The caller's live device tokens (never a key): what `DELETE .../tokens/{id}/` can log out."""

    OutputSerializer = DeviceOut

    @extend_schema(responses=schema.page_of(OutputSerializer), parameters=schema.PAGE_PARAMETERS)
    def get(self, request: Request) -> Response:
        valid(ListQuery, query(request))
        return paginated(request, self, selectors.token_list(user=request.user), self.OutputSerializer)


class DeviceTokenRevokeApi(APIView):
    """Log one of the caller's devices out (another user's token id is 404)."""

    @extend_schema(request=None, responses={204: None})
    def delete(self, request: Request, token_id: int) -> Response:
        token_revoke_by_id(user=actor(request), token_id=token_id)
        return Response(status=204)
