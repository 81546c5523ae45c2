"""The project's routes plus pages that exist only for the tests: one that fails (a 500 page) and one that
refuses what was sent (a 400 page)."""

from __future__ import annotations

from django.core.exceptions import SuspiciousOperation
from django.http import HttpRequest, HttpResponse
from django.urls import path

from clubscore.urls import handler400, handler403, handler404, handler500
from clubscore.urls import urlpatterns as project


def boom(request: HttpRequest) -> HttpResponse:
    raise RuntimeError("a bug, with a secret in its traceback: SECRET-TRACE")


def bad(request: HttpRequest) -> HttpResponse:
    raise SuspiciousOperation("a mangled request: SECRET-TRACE")


urlpatterns = [
    path("test/boom/", boom),
    path("test/bad/", bad),
    *project,
]

__all__ = ["handler400", "handler403", "handler404", "handler500", "urlpatterns"]
