"""The switcher's target (`/i18n/setlang/`): Django's `set_language`, and for a logged-in user the choice
remembered on the account too (ledger.i18n.account)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.views.decorators.csrf import csrf_protect
from django.views.i18n import LANGUAGE_QUERY_PARAMETER
from django.views.i18n import set_language as django_set_language

from .account import language_remember


@csrf_protect
def set_language(request: HttpRequest) -> HttpResponse:
    response = django_set_language(request)
    if request.method == "POST" and request.user.is_authenticated:
        language_remember(user=request.user, language=request.POST.get(LANGUAGE_QUERY_PARAMETER, ""))
    return response
