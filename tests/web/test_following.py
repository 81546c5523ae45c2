"""The players following a table, round two (issue 38, items 7-11 and 13), through Django's test client:
what the server puts on the follower's, the joining and the board's pages. What only a browser shows
(the watchdog, the sizes on the wall screen) is in tests/browser/test_following.py."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.utils import translation

from ledger.models import Club, Player
from ledger.services.sessions import session_close
from ledger.services.table import deal_check, dispute_settle, seat_link_issue
from tests.ledger_fixtures import AMERICAN_HANDS, example_sheet, fresh, open_session, record_all

pytestmark = pytest.mark.django_db


def seat_page(session: Any, scorer: Any, seat: int, language: str = "en") -> str:
    key, _ = seat_link_issue(actor=scorer, session_id=session.pk, seat=seat)
    page = Client().get(f"/s/{key}/", HTTP_ACCEPT_LANGUAGE=language)
    assert page.status_code == 200
    return str(page.content.decode())


def deal_card(html: str, number: int) -> str:
    return html.split(f'id="deal-{number}"', 1)[1].split("</li>\n", 1)[0].split('class="deal-actions"')[0]


@pytest.mark.parametrize(
    ("variant", "language", "words"),
    [
        # deal 1: the turned card is belle; deal 3: ♦J and honours, the turned card a petite under deal 1's belle
        ("french", "en", [["Turned card: ♥ (belle)", "♦J: Ben"], ["♦J: Cleo", "Honours: 3", "♠ (petite; belle ♥)"]]),
        ("french", "fr", [["Retourne : ♥ (belle)", "♦J : Ben"], ["♦J : Cleo", "Honneurs : 3", "♠ (petite ; belle ♥)"]]),
        ("russian", "ru", [["(старшая)", "Ben"], ["Cleo", "(младшая; старшая ♠)"]]),
    ],
)
def test_a_follower_sees_every_field_the_scorer_entered(
    admin: Any, club: Club, players: list[Player], variant: str, language: str, words: list[list[str]]
) -> None:
    """The jack's holder (♦J, бостон), the turned card (belle, старшая) and the honours were left off the
    follower's card: nobody but the scorer could check "Cleo had the jack"."""
    sheet = example_sheet(f"{variant}-partie-defaults")
    session = open_session(admin, club, players, variant=variant)
    record_all(admin, session, sheet["hands"][:3])
    html = seat_page(session, admin, 0, language)
    for number, said in ((1, words[0]), (3, words[1])):
        card = deal_card(html, number)
        for word in said:
            assert word in card, (number, word, card)


def test_the_heartbeat_is_an_event_the_page_sees(admin: Any, club: Club, players: list[Player], settings: Any) -> None:
    """A comment line is hidden from EventSource: the page's watchdog could not tell a quiet stream from a
    stalled one. The heartbeat is an event `ping` saying its period; the page's config says it too."""
    settings.LIVE_HEARTBEAT_SECONDS = 0.1
    settings.REDIS_URL = None
    session = open_session(admin, club, players)
    assert '"heartbeat": 100' in seat_page(session, admin, 0)
    key, _ = seat_link_issue(actor=admin, session_id=session.pk, seat=0)
    response = Client().get(f"/live/seat/{key}/")
    chunks = iter(response.streaming_content)  # type: ignore[attr-defined]
    beat = next(c for c in chunks if b"change" not in c and not c.startswith(b"retry")).decode()
    response.close()
    assert beat == 'event: ping\ndata: {"every": 100}\n\n'


@pytest.mark.parametrize("language", ["en", "fr", "ru"])
def test_after_the_close_a_follower_sees_the_closes_result(
    admin: Any, club: Club, players: list[Player], language: str
) -> None:
    """The page kept the counters the last deal left (the pools not divided), no money, no payments, and
    "tap ✓" and "Live" on a closed table. It shows the close's result now."""
    session = open_session(admin, club, players, stake={"currency": "EUR", "per_counter": "0.05"})
    record_all(admin, session, AMERICAN_HANDS[:3])
    key, _ = seat_link_issue(actor=admin, session_id=session.pk, seat=2)
    _, settlement = session_close(actor=admin, session_id=session.pk, expected_version=fresh(session).version)
    close = settlement["close"]
    assert close["division"] != [0, 0, 0, 0]  # the pools were divided: the close's counters differ
    html = Client().get(f"/s/{key}/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    result = html.split('id="follow-result"', 1)[1].split("</section>", 1)[0]
    with translation.override(language):
        for name, final, money in zip(["Ann", "Ben", "Cleo", "Dan"], close["final"], close["money"], strict=True):
            item = result.split(f'<span class="who">{name}</span>', 1)[1].split("</li>", 1)[0]
            assert f'data-n="{final}"' in item and f'data-cents="{money}"' in item, (name, item)
        payments = result.split('id="follow-payments"', 1)[1]
        for payment in close["payments"]:
            assert f'data-cents="{payment["cents"]}"' in payments, (payment, payments)
        assert payments.split("</ol>")[0].count("<li>") == len(close["payments"]) > 0
        assert translation.gettext("Who pays whom") in result
        assert translation.gettext("The result at the close") in result
    assert 'data-action="confirm"' not in html
    assert 'id="follow-hint" hidden' in html
    assert 'data-status="closed"' in html


def test_the_club_page_leads_to_the_room_board(admin: Any, club: Club, players: list[Player]) -> None:
    """No page linked to the board: a club had to be told its address."""
    client = Client()
    client.force_login(admin)
    page = client.get(f"/clubs/{club.pk}/").content.decode()
    assert f'href="/clubs/{club.pk}/board/" id="board-link"' in page
    assert f'href="/clubs/{club.pk}/board/links/"' in page  # the admin's links for a wall screen
    board = client.get(f"/clubs/{club.pk}/board/").content.decode()
    assert 'class="top"' not in board and "lang-select" not in board  # a wall screen: no header, no language form


@pytest.mark.parametrize("language", ["en", "fr", "ru"])
def test_the_tables_code_names_the_table_to_a_player_with_no_login(
    admin: Any, club: Club, players: list[Player], language: str
) -> None:
    """The table's QR code led a player with no account to a bare login page that never named the table.
    With the code's key it names the table and its players and tells him how to follow: his seat's code
    on the scorer's phone, or a login. Without the key (a guessed number) it names nothing."""
    session = open_session(admin, club, players, variant="russian")
    scorer = Client()
    scorer.force_login(admin)
    join = scorer.get(f"/sessions/{session.pk}/join/").content.decode()
    short = join.split('id="short-link" lang="zxx">', 1)[1].split("<", 1)[0]
    assert f"/t/{session.pk}/?k=" in short
    page = Client().get(short.split("testserver", 1)[1], HTTP_ACCEPT_LANGUAGE=language)
    text = page.content.decode()
    assert page.status_code == 200
    with translation.override(language):
        assert translation.gettext("No account?") in text
        assert translation.gettext("Log in to follow this table") in text
    assert f"№ {session.pk}" in text or f"#{session.pk}" in text or f"nº {session.pk}" in text
    assert "Ann, Ben, Cleo, Dan" in text and club.name in text
    assert f'href="/login/?next=/t/{session.pk}/"' in text
    guessed = Client().get(f"/t/{session.pk}/")
    assert guessed.status_code == 302 and guessed["Location"].startswith("/login/")
    assert Client().get(f"/t/{session.pk}/?k=0000000000000000").status_code == 302
    assert scorer.get(short.split("testserver", 1)[1])["Location"] == f"/sessions/{session.pk}/follow/"


def test_every_seats_code_shows_at_once_and_again(admin: Any, club: Club, players: list[Player]) -> None:
    """A seat's code showed once, one seat at a time: the scorer issued four times and could not show a
    code again. One tap shows all four; they show again on the scorer's phone; a link issued elsewhere is
    listed by name."""
    session = open_session(admin, club, players)
    scorer = Client()
    scorer.force_login(admin)
    scorer.post(f"/sessions/{session.pk}/join/", {"action": "issue-all"})
    again = scorer.get(f"/sessions/{session.pk}/join/").content.decode()
    for seat in range(4):
        assert f'class="qr seat-code" data-seat="{seat}"' in again
    assert again.count("<svg") == 5 and 'id="issue-all"' not in again  # the table's and four seats'
    url = again.split('data-seat="2"', 1)[1].split('class="seat-code-link" lang="zxx">', 1)[1].split("<", 1)[0]
    assert "You follow as Cleo" in Client().get(url.split("testserver", 1)[1]).content.decode()
    elsewhere = Client()
    elsewhere.force_login(admin)
    assert elsewhere.get(f"/sessions/{session.pk}/join/").content.decode().count("its code is not on this phone") == 4


def test_a_second_phone_on_one_seat_link_is_told(admin: Any, club: Club, players: list[Player]) -> None:
    session = open_session(admin, club, players)
    key, _ = seat_link_issue(actor=admin, session_id=session.pk, seat=3)
    first, second = Client(), Client()
    assert 'id="shared-seat"' not in first.get(f"/s/{key}/").content.decode()
    assert 'id="shared-seat"' not in first.get(f"/s/{key}/").content.decode()  # the same phone again
    told = second.get(f"/s/{key}/").content.decode()
    assert 'id="shared-seat"' in told and "both follow as Dan" in told


def test_the_seat_api_names_no_login(admin: Any, club: Club, players: list[Player]) -> None:
    """A seat link's holder may have no account: the seat API gave him the scorer's login name."""
    session = open_session(admin, club, players)
    record_all(admin, session, AMERICAN_HANDS[:1])
    key, link = seat_link_issue(actor=admin, session_id=session.pk, seat=3)
    deal_check(session_id=session.pk, number=1, state="disputed", reason="no", link=link)
    dispute_settle(actor=admin, session_id=session.pk, number=1, seat=3, outcome="overruled", note="")
    answer = Client().get(f"/api/v1/seat/{key}/")
    assert answer.status_code == 200
    assert admin.username not in answer.content.decode()
    confirmed = Client().post(f"/api/v1/seat/{key}/hands/1/confirm/", {}, content_type="application/json")
    assert confirmed.status_code == 200 and admin.username not in confirmed.content.decode()


@pytest.mark.parametrize("language", ["en", "fr", "ru"])
def test_the_treasurer_judges_a_dispute_by_its_deal_and_is_not_offered_a_close_that_fails(
    admin: Any, club: Club, players: list[Player], language: str
) -> None:
    """The dispute named the deal's number only; "Resolved" changed nothing and led nowhere; the close
    form was offered and failed after the click with a message naming no deal. Now the deal shows as
    recorded, "Amend" leads to the scorer's page, and the close waits, naming the deal and linking it."""
    sheet = example_sheet("french-partie-defaults")
    session = open_session(admin, club, players, variant="french")
    record_all(admin, session, sheet["hands"][:3])
    _, link = seat_link_issue(actor=admin, session_id=session.pk, seat=2)
    deal_check(session_id=session.pk, number=3, state="disputed", reason="I had the jack", link=link)
    client = Client()
    client.force_login(admin)
    page = client.get(f"/sessions/{session.pk}/settlement/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    entry = page.split('id="dispute-3-2"', 1)[1].split("</li>", 1)[0]
    assert "4 · 5 · 2 · 2" in entry and "Cleo" in entry and "Ben" in entry and "♦J" in entry  # the deal itself
    assert f'href="/sessions/{session.pk}/score/#amend-3"' in entry  # that deal's amend: test_dispute_amend.py
    assert 'value="resolved"' not in entry and 'value="overruled"' in entry
    assert 'name="confirm"' not in page.split('id="disputes"', 1)[1]  # no close form
    waits = page.split('id="close-waits"', 1)[1].split("</p>", 1)[0]
    assert " 3" in waits and 'href="#dispute-3-2"' in waits
    refused = client.post(
        f"/sessions/{session.pk}/settlement/",
        {"action": "close", "confirm": "yes", "version": str(fresh(session).version)},
        HTTP_ACCEPT_LANGUAGE=language,
        follow=True,
    ).content.decode()
    message = refused.split('class="message error"', 1)[1].split("</p>", 1)[0]
    assert " 3 " in message, message  # the refusal names the deal
    with translation.override(language):
        assert (
            translation.ngettext(
                "Not closed: deal %(deals)s is disputed. Amend it, or overrule its dispute below.",
                "Not closed: deals %(deals)s are disputed. Amend them, or overrule their disputes below.",
                1,
            )
            % {"deals": "3"}
            in refused
        )
