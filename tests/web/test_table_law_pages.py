"""Table law on the pages besides the follower's card (issue 42, rules.md §0.11), through Django's test
client: the score sheet's row note (the printed sheet is the same page) and the deals' CSV, the room board,
and the treasurer's disputes under claims lapse. The words come from `ledger.web.deal_notes` (its own tests:
tests/web/test_deal_notes.py); the browser's view is tests/browser/test_table_law_follow.py."""

from __future__ import annotations

import csv
import io
import re
from typing import Any

import pytest
from django.test import Client

from ledger.models import Club, Player
from ledger.services.table import deal_check, seat_link_issue
from tests.ledger_fixtures import open_session, record_all

pytestmark = pytest.mark.django_db

# American, Ann deals first (worked in tests/browser/test_table_law_follow.py): a revoke by Ben, a misdeal
# by Ben, Dan's boston paid instead of playing (deal 2 of the game).
HANDS: list[dict[str, Any]] = [
    {"bid": "seven", "bidder": 1, "trump": "hearts", "tricks": [2, 6, 2, 2], "revoke": 1},
    {"bid": "misdeal"},
    {"bid": "boston", "bidder": 3, "trump": "spades", "conceded": "bidder"},
]
NOTES = {
    1: "Revoke by Ben — Ben −65 · Ann +20 · Cleo +20 · Dan +20 · pools +5",
    2: "Misdeal by Ben: the deal passes to Cleo — Ben −10 · pools +10",
    3: "Dan pays instead of playing: as a failure by 1 trick — Dan −55 · Ann +10 · Ben +10 · Cleo +10 · pools +25",
}


def get(admin: Any, url: str, language: str = "en") -> str:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(admin)
    response = client.get(url)
    assert response.status_code == 200
    return str(response.content.decode("utf-8")).replace("\u00a0", " ")  # "Ann\u00a0+20": compared plain


def text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def test_the_score_sheet_notes_each_event_under_its_row(admin: Any, club: Club, players: list[Player]) -> None:
    """The sheet said "misdeal" and nothing of a revoke or of paying instead; a printed sheet, the same."""
    session = open_session(admin, club, players)
    record_all(admin, session, HANDS)
    html = get(admin, f"/sessions/{session.pk}/sheet/")
    for number, note in NOTES.items():
        row = html.split(f'data-note="{number}"', 1)[1].split("</tr>", 1)[0]
        assert note in row, (number, row)
    deal_3 = html.split('data-deal="3"', 1)[1].split("</tr>", 1)[0]
    assert "(deal 2 of the game)" in deal_3
    assert 'class="badge conceded"' not in deal_3  # paying instead is no concession of the adversaries
    assert get(admin, f"/sessions/{session.pk}/sheet/rows/").count('class="sheet-note"') == 3


def test_the_deals_csv_has_a_note_column(admin: Any, club: Club, players: list[Player]) -> None:
    session = open_session(admin, club, players)
    record_all(admin, session, [*HANDS, {"bid": "six", "bidder": 0, "trump": "clubs", "tricks": [6, 3, 2, 2]}])
    body = get(admin, f"/sessions/{session.pk}/export.csv")
    rows = list(csv.reader(io.StringIO(body.removeprefix("\ufeff"))))
    assert rows[0][-1] == "Note"
    assert [r[-1].replace("\u00a0", " ") for r in rows[1:]] == [NOTES[1], NOTES[2], NOTES[3], ""]


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("en", ["deal 2 of 12", "Deal 3: Dan pays instead of playing: as a failure by 1 trick"]),
        ("fr", ["Donne 3 : Dan paie au lieu de jouer : comme une chute de 1 levée"]),
        ("ru", ["Сдача 3: Dan платит, не играя: как ремиз без 1 взятки"]),
    ],
)
def test_the_room_board_counts_the_game_s_deals_and_says_the_last_event(
    admin: Any, club: Club, players: list[Player], language: str, said: list[str]
) -> None:
    """The board said "deal 3 of 12" after a misdeal (the sheet's hands, not the game's deals) and nothing
    of what happened: from 3 m, the last deal's event, in words."""
    session = open_session(admin, club, players)
    record_all(admin, session, HANDS)
    board = text(get(admin, f"/clubs/{club.pk}/board/", language))
    for words in said:
        assert words in board, (words, board)
    record_all(admin, session, [{"bid": "six", "bidder": 0, "trump": "clubs", "tricks": [6, 3, 2, 2]}])
    board = text(get(admin, f"/clubs/{club.pk}/board/"))
    assert "deal 3 of 12" in board and "Deal 4:" not in board  # an ordinary deal: nothing to say


@pytest.mark.parametrize("language", ["en", "fr", "ru"])
def test_a_lapsed_claim_s_dispute_says_why_and_what_the_treasurer_can_do(
    admin: Any, club: Club, players: list[Player], language: str
) -> None:
    """Claims lapse (002:189): the close page offered "Amend deal 1 on the scorer's page", which the amend
    then refused (409 claim_lapsed). It now says why, and the adjustment into the basket the treasurer can
    record instead; a dispute on the last deal keeps its amend link."""
    session = open_session(admin, club, players, variant="russian", rules={"claims_lapse": True, "remiz": 2})
    record_all(admin, session, [{"bid": "pass", "turned": "hearts", "ace_turned": True}, {"bid": "misdeal"}])
    for number in (1, 2):
        _key, link = seat_link_issue(actor=admin, session_id=session.pk, seat=number)
        deal_check(session_id=session.pk, number=number, state="disputed", reason="no", link=link)
    html = get(admin, f"/sessions/{session.pk}/settlement/", language)
    one = html.split('id="dispute-1-1"', 1)[1].split("</li>", 1)[0]
    two = html.split('id="dispute-2-2"', 1)[1].split("</li>", 1)[0]
    lapsed = {
        "en": "Claims on deal 1 lapsed when deal 2 was recorded",
        "fr": "Les réclamations sur la donne 1 sont closes depuis que la donne 2 est notée",
        "ru": "Претензии по сдаче 1 закрыты: записана сдача 2",
    }[language]
    basket = {"en": "adjustment into the basket", "fr": "ajustement versé à la corbeille", "ru": "поправкой в корзину"}
    assert lapsed in one and basket[language] in one
    assert 'id="amend-1-1"' not in one
    assert 'id="amend-2-2"' in two and 'id="lapsed-2-2"' not in two
    # The dispute's deal is shown with its event, as the followers saw it.
    ace = {
        "en": "The dealer turned an ace: remiz into the basket — Ann −2 · basket +2",
        "fr": "Le donneur a retourné un as : remiz dans la corbeille — Ann −2 · corbeille +2",
        "ru": "Сдатчик открыл туза: ремиз в корзину — Ann −2 · корзина +2",
    }[language]
    assert ace in one
