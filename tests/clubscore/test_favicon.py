"""`/favicon.ico` (issue 39, item 13): the site's icon, never a 404, and the pages link the same file."""

from __future__ import annotations

import struct

import pytest
from django.contrib.staticfiles import finders
from django.test import Client

pytestmark = pytest.mark.django_db


def test_the_icon_is_a_real_icon() -> None:
    response = Client().get("/favicon.ico")
    assert response.status_code == 200
    assert response["Content-Type"] == "image/vnd.microsoft.icon"
    assert "max-age=86400" in response["Cache-Control"]
    body = response.content
    reserved, kind, count = struct.unpack("<HHH", body[:6])
    assert (reserved, kind) == (0, 1) and count >= 1  # an ICO header with at least one image
    assert body[6 + 16 * count : 6 + 16 * count + 8] == b"\x89PNG\r\n\x1a\n"


def test_the_pages_link_the_same_icon() -> None:
    page = Client().get("/login/").content.decode()
    assert 'rel="icon" href="/static/clubscore/favicon.ico"' in page
    found = finders.find("clubscore/favicon.ico")
    assert found is not None
    with open(found, "rb") as served:
        assert served.read() == Client().get("/favicon.ico").content
