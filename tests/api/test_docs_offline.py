"""The API docs work on a club's closed network: Swagger UI comes from our own static files."""

from __future__ import annotations

import pytest
from django.test import Client


@pytest.mark.django_db
def test_docs_page_loads_swagger_ui_from_our_static_files() -> None:
    response = Client().get("/api/docs/")
    assert response.status_code == 200
    page = response.content.decode()
    assert "drf_spectacular_sidecar" in page
    assert "cdn.jsdelivr" not in page and "unpkg.com" not in page
