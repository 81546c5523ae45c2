"""The room board's words for where a table's game is (issue 38): "deal n of N" when the variant's
declaration gives the game's end (a limit, or a partie's last double), "deal n, past the partie's N"
once a partie plays on past it, and a count with no end, in the three languages."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest
from django.template.loader import render_to_string
from django.utils import translation


def _words(language: str, hands: int, of: int | None) -> str:
    table: dict[str, Any] = {
        "session": SimpleNamespace(pk=1),
        "title": "French",
        "seats": [],
        "pools": [],
        "pool_label": "Pool",
        "hands": hands,
        "of": of,
        "fit": 8,
        "next_dealer": None,
        "disputes": 0,
    }
    with translation.override(language):
        html = render_to_string("web/_board_tables.html", {"tables": [table], "tag": "t", "tonight": None})
    return html.split('<span class="deal-of">', 1)[1].split("</span>", 1)[0]


@pytest.mark.parametrize(
    ("language", "hands", "of", "words"),
    [
        ("en", 0, 40, "deal 0 of 40"),
        ("en", 43, 40, "deal 43, past the partie's 40"),
        ("en", 0, None, "no deal yet"),
        ("en", 5, None, "5 deals played"),
        ("fr", 0, 40, "donne 0 sur 40"),
        ("fr", 43, 40, "donne 43, au-delà des 40 de la partie"),
        ("fr", 0, None, "pas encore de donne"),
        ("fr", 5, None, "5 donnes jouées"),
        ("ru", 0, 40, "сдача 0 из 40"),
        ("ru", 43, 40, "сдача 43, после 40 сдач партии"),
        ("ru", 0, None, "ещё ни одной сдачи"),
        ("ru", 5, None, "сыграно 5 сдач"),
    ],
)
def test_the_board_says_where_the_game_is(language: str, hands: int, of: int | None, words: str) -> None:
    assert _words(language, hands, of) == words
