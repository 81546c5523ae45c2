"""The project's routes plus two views that exist only for the tests: one that fails (a 500 must be
JSON) and one that fails once, then answers (a 5xx must not be kept for an Idempotency-Key)."""

from __future__ import annotations

from typing import Any

from django.urls import path
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api.idempotency import idempotency_key, idempotent
from clubscore.urls import handler400, handler403, handler404, handler500
from clubscore.urls import urlpatterns as project

FAILURES: list[int] = []


class Boom(APIView):
    def get(self, request: Request) -> Response:
        raise RuntimeError("a bug")


class FlakyOnce(APIView):
    """POST with an Idempotency-Key: the first call dies (5xx), later ones answer 201."""

    def post(self, request: Request) -> Response:
        def handler(claim: Any) -> Response:
            if not FAILURES:
                FAILURES.append(1)
                raise RuntimeError("the first try dies")
            return Response({"calls": len(FAILURES)}, status=201)

        return idempotent(request, self, idempotency_key(request), handler)


urlpatterns = [
    path("api/v1/test/boom/", Boom.as_view()),
    path("api/v1/test/flaky/", FlakyOnce.as_view()),
    *project,
]

__all__ = ["handler400", "handler403", "handler404", "handler500", "urlpatterns"]
