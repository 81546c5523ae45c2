"""The page logins (`/login/`, `/admin/login/`) under the API's login limits (`ledger.login_limits`,
issue 29): the same windows as `POST /api/v1/auth/token/`, and a refusal in the page's layout and
language that says when to try again (429 with `Retry-After`)."""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import wraps
from typing import Any

from django.conf import settings
from django.contrib.auth import views as auth_views
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import render

from ledger import login_limits

View = Callable[..., HttpResponseBase]


def refusal(request: HttpRequest, wait: float) -> HttpResponse:
    seconds = max(1, math.ceil(wait))
    response = render(request, "429.html", {"seconds": seconds}, status=429)
    response["Retry-After"] = str(seconds)
    return response


def throttled_login(view: View) -> View:
    """A login view whose POSTs count against the login limits: every attempt per address, failures
    per username and address, and per username from untrusted browsers or per trusted browser (a
    right password, which logs in and redirects, gives its slots back and leaves the browser a device
    cookie of this member, `ledger.login_limits.Login`)."""

    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        if request.method != "POST":
            return view(request, *args, **kwargs)
        address = login_limits.client_address(request.META)
        username = str(request.POST.get("username", ""))
        wait = login_limits.address_attempt(address)
        if wait is not None:
            return refusal(request, wait)
        login = login_limits.Login(username, address, request.COOKIES.get(login_limits.DEVICE_COOKIE))
        try:
            login.attempt()
        except login_limits.LoginRefused as refused:
            return refusal(request, refused.wait)
        response = view(request, *args, **kwargs)
        if request.user.is_authenticated and response.status_code in (301, 302, 303):
            response.set_cookie(
                login_limits.DEVICE_COOKIE,
                login.succeeded(),
                max_age=login_limits.DEVICE_MAX_AGE,
                secure=settings.SESSION_COOKIE_SECURE,
                httponly=True,
                samesite="Lax",
            )
        return response

    return wrapper


login = throttled_login(auth_views.LoginView.as_view(redirect_authenticated_user=True))


def clearing_site_data(view: View) -> View:
    """A logout that leaves nothing of the club on the browser (issue 29, point 6): its answer says
    `Clear-Site-Data: "cache", "storage"`, so the service worker's kept pages and reads and the scorer's
    queue go with the session. The page refuses the logout first while its queue holds deals not yet
    recorded (`static/clubscore/common.js`), so no deal is lost by it."""

    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        response = view(request, *args, **kwargs)
        if request.method == "POST":
            response["Clear-Site-Data"] = '"cache", "storage"'
        return response

    return wrapper


logout = clearing_site_data(auth_views.LogoutView.as_view())
