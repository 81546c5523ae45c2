"""The user's remembered language, read before the cookie (docs/i18n.md, "How a request's language is chosen").

Placed after `AuthenticationMiddleware` (which comes after `LocaleMiddleware`): LocaleMiddleware has
chosen from the cookie or Accept-Language; a logged-in user's own choice overrides it. LocaleMiddleware's
response half then says that language (`Content-Language`).
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.utils import translation

from .account import language_of


class AccountLanguageMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        language = language_of(user=getattr(request, "user", None))
        if language and language != translation.get_language():
            translation.activate(language)
            request.LANGUAGE_CODE = language
        return self.get_response(request)
