"""The project's routes plus the benchmarks' floor, `POST /api/v1/bench/floor/` (as `tests/api/urls.py`
adds its test-only views): production's URL configuration never has it."""

from __future__ import annotations

from django.urls import path

from clubscore.urls import handler400, handler403, handler404, handler500
from clubscore.urls import urlpatterns as project

from .floor import FloorView

urlpatterns = [
    path("api/v1/bench/floor/", FloorView.as_view(), name="bench-floor"),
    *project,
]

__all__ = ["handler400", "handler403", "handler404", "handler500", "urlpatterns"]
