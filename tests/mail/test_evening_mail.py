"""The evening's mail (issue 41) through a real SMTP server: aiosmtpd in the test, Django's SMTP backend
pointed at it. Two evenings closed: each of four players gets one mail in his language with the amounts
of the settlement, the score sheet's PDF (its text read back with pypdf) and, for a debtor, the EPC code
(decoded with zxing-cpp) for the exact amount to the club's IBAN with the evening's reference. A reopen
and re-close sends one correction; an opted-out player gets none; a refused address none after."""

from __future__ import annotations

import io
import re
from datetime import timedelta
from email.message import EmailMessage
from typing import Any

import pypdf
import pytest
import zxingcpp
from django.test import Client
from django.utils import timezone
from PIL import Image

from ledger.mail.services import stop_token
from ledger.models import Club, EveningMail, Player, Session
from ledger.services.clubs import club_payment_set, player_mail_set
from ledger.services.hands import hand_undo
from ledger.stats import seasons
from tests.ledger_fixtures import AMERICAN_HANDS, fresh, open_session, record_all
from tests.mail.smtp import REFUSED, Inbox
from tests.money.helpers import close, reopen

pytestmark = pytest.mark.django_db

IBAN = "FR7630006000011234567890189"


@pytest.fixture
def euro_club(club: Club, admin: Any) -> Club:
    return club_payment_set(
        actor=admin,
        club_id=club.pk,
        details={"payee_name": "Cercle de Boston", "iban": "FR76 3000 6000 0112 3456 7890 189"},
    )


LANGUAGES = {"Ann": "en", "Ben": "fr", "Cleo": "ru", "Dan": "en"}


@pytest.fixture
def addressed(admin: Any, players: list[Player]) -> list[Player]:
    for p in players:
        player_mail_set(actor=admin, player_id=p.pk, email=f"{p.name.lower()}@example.org", language=LANGUAGES[p.name])
    return [Player.objects.get(pk=p.pk) for p in players]


def closed_evening(admin: Any, club: Club, players: list[Player], capture: Any, hands: list[dict[str, Any]]) -> Session:
    session = open_session(admin, club, players, stake={"currency": "EUR", "per_counter": "0.10"})
    record_all(admin, session, hands)
    with capture(execute=True):
        return close(admin, session)


def body(message: EmailMessage) -> str:
    part = message.get_body(preferencelist=("plain",))
    assert part is not None
    return str(part.get_content())


def pdf_text(message: EmailMessage) -> str:
    pdfs = [p for p in message.iter_attachments() if p.get_content_type() == "application/pdf"]
    assert len(pdfs) == 1
    return "\n".join(page.extract_text() for page in pypdf.PdfReader(io.BytesIO(pdfs[0].get_content())).pages)


def qr_payloads(message: EmailMessage) -> list[str]:
    images = [p for p in message.walk() if p.get_content_type() == "image/png"]
    return [r.text for p in images for r in zxingcpp.read_barcodes(Image.open(io.BytesIO(p.get_content())))]


def test_two_evenings_a_correction_an_opt_out_and_a_bounce(
    inbox: Inbox,
    admin: Any,
    euro_club: Club,
    addressed: list[Player],
    background_work_in_process: None,
    django_capture_on_commit_callbacks: Any,
) -> None:
    today = timezone.now().date()
    seasons.season_create(
        actor=admin,
        club_id=euro_club.pk,
        name="Advent",
        starts_on=(today - timedelta(days=30)).isoformat(),
        ends_on=(today + timedelta(days=30)).isoformat(),
        variants=["american"],
    )
    first = closed_evening(admin, euro_club, addressed, django_capture_on_commit_callbacks, AMERICAN_HANDS)
    second = closed_evening(admin, euro_club, addressed, django_capture_on_commit_callbacks, AMERICAN_HANDS[:2])
    assert len(inbox.messages) == 8
    # Worked by hand (tests/browser/test_books.py works the same four deals at €0.01 a counter: Ben pays
    # Cleo 60 and Dan 55, Ann pays Cleo 30): at €0.10, Ann pays €3.00 and Ben €11.50, Cleo and Dan nothing.
    owed_by_hand = {"Ann": 300, "Ben": 1150, "Cleo": 0, "Dan": 0}
    first_payments = fresh(first).closing["payments"]
    assert {p.name: sum(t["cents"] for t in first_payments if t["from"] == i) for i, p in enumerate(addressed)} == (
        owed_by_hand
    )
    assert "You pay the club €3.00." in body(next(m for m in inbox.to("ann@example.org")))
    assert re.search(r"Your place in the season: number \d in Advent", body(inbox.to("dan@example.org")[0]))
    assert "Вы платите клубу" not in body(next(m for m in inbox.to("ann@example.org")))
    for evening in (first, second):
        close_json = fresh(evening).closing
        final, money, payments = close_json["final"], close_json["money"], close_json["payments"]
        # By hand: one counter is €0.10, so each seat's money is its final counters × 10 cents, the table's
        # money adds up to zero, and what a seat pays is minus its money (a debtor only pays).
        assert money == [f * 10 for f in final]
        assert sum(money) == 0
        for seat, player in enumerate(addressed):
            mails = [m for m in inbox.to(player.email) if m["X-Clubscore-Evening"].startswith(f"{evening.pk}.")]
            assert len(mails) == 1, (player.name, evening.pk)
            mail = mails[0]
            assert mail["Content-Language"] == LANGUAGES[player.name]
            text = body(mail)
            words = {"en": "Your evening at", "fr": "Votre soirée", "ru": "Ваш вечер"}[LANGUAGES[player.name]]
            assert words in text
            sheet = pdf_text(mail)
            for total in final:
                assert f"{total:+d}".replace("-", "−").replace("+0", "0") in sheet or str(abs(total)) in sheet
            owes = sum(p["cents"] for p in payments if p["from"] == seat)
            codes = qr_payloads(mail)
            if owes:
                assert -money[seat] == owes
                assert len(codes) == 1
                lines = codes[0].split("\n")
                assert lines[:4] == ["BCD", "002", "1", "SCT"]
                assert lines[5:8] == ["Cercle de Boston", IBAN, f"EUR{owes / 100:.2f}".rstrip("0").rstrip(".")]
                assert lines[-1] == f"Boston #{evening.pk} {evening.closed_at.date().isoformat()} {player.name}"
            else:
                assert codes == []
    assert EveningMail.objects.filter(state="sent").count() == 8

    # Ben opts out through his link (no login); Dan's address now bounces.
    client = Client(enforce_csrf_checks=True)  # a mail reader's one-click POST carries no CSRF token
    header = str(inbox.to("ben@example.org")[0]["List-Unsubscribe"]).strip()
    assert header.startswith("<https://scores.example.org/mail/stop/") and header.endswith("/>")
    link = header[len("<https://scores.example.org") : -1]  # the link as the mail carries it
    assert link in body(inbox.to("ben@example.org")[0])
    assert client.get(f"/mail/stop/{stop_token(addressed[1].pk)}x/").status_code == 404  # a key tampered with
    assert client.get(link).status_code == 200
    assert Player.objects.get(pk=addressed[1].pk).mail_stopped == ""  # opening the link stops nothing
    assert client.post(link).status_code == 200
    assert Player.objects.get(pk=addressed[1].pk).mail_stopped == "opted_out"
    player_mail_set(actor=admin, player_id=addressed[3].pk, email=REFUSED, language="en")

    # The first evening reopened, its last deal undone, closed again: one correction each, saying what changed.
    before = fresh(first).closing
    reopen(admin, first)
    hand_undo(actor=admin, session_id=first.pk, number=4, expected_version=fresh(first).version, reason="x")
    with django_capture_on_commit_callbacks(execute=True):
        close(admin, first)
    after = fresh(first).closing
    assert after["money"] != before["money"]
    ann = [m for m in inbox.to("ann@example.org") if m["X-Clubscore-Kind"] == "correction"]
    assert len(ann) == 1
    assert str(ann[0]["Subject"]).strip().startswith("Correction:")
    euros = lambda cents: ("−" if cents < 0 else "") + f"€{abs(cents) / 100:.2f}"  # noqa: E731
    assert f"Money: {euros(before['money'][0])} → {euros(after['money'][0])}" in body(ann[0])
    cleo = [m for m in inbox.to("cleo@example.org") if m["X-Clubscore-Evening"].startswith(f"{first.pk}.")]
    assert [m["X-Clubscore-Kind"] for m in cleo] == ["result", "correction"]
    assert str(cleo[1]["Subject"]).strip().startswith("Исправление")
    assert len(inbox.to("ben@example.org")) == 2  # the two first mails, no correction
    assert inbox.to(REFUSED) == []
    assert (
        EveningMail.objects.get(session=first, player=addressed[3], close_version=fresh(first).version).state
        == "bounced"
    )
    assert Player.objects.get(pk=addressed[3].pk).mail_stopped == "bounced"

    # A retry of the same close sends nothing twice; another close sends Dan nothing after the bounce.
    count = len(inbox.messages)
    from ledger.mail.services import evening_mail_send

    evening_mail_send(session_id=first.pk, close_version=fresh(first).version)
    assert len(inbox.messages) == count
    reopen(admin, second)
    with django_capture_on_commit_callbacks(execute=True):
        close(admin, second)
    assert len(inbox.messages) == count + 2  # Ann and Cleo only
    assert inbox.to(REFUSED) == []


def test_a_wrong_iban_is_refused_in_words(admin: Any, club: Club) -> None:
    from ledger.exceptions import InvalidRequest

    with pytest.raises(InvalidRequest) as refused:
        club_payment_set(actor=admin, club_id=club.pk, details={"iban": "FR7630006000011234567890188"})
    assert refused.value.fields == {
        "iban": ["the IBAN is not valid: check its country, its length and its check digits"]
    }
    assert Club.objects.get(pk=club.pk).iban == ""


def test_the_player_gives_his_address_on_his_page(admin: Any, club: Club, players: list[Player]) -> None:
    from tests.ledger_fixtures import PASSWORD, member

    user = member(club, admin, "ann-login", "player")
    Player.objects.filter(pk=players[0].pk).update(user=user, mail_stopped="bounced")
    client = Client()
    assert client.login(username="ann-login", password=PASSWORD)
    page = client.post(f"/players/{players[0].pk}/mail/", {"email": "not an address", "language": "fr"}, follow=True)
    assert "the e-mail address is not valid" in page.content.decode()
    client.post(f"/players/{players[0].pk}/mail/", {"email": "ann@example.org", "language": "fr"})
    ann = Player.objects.get(pk=players[0].pk)
    assert (ann.email, ann.language, ann.mail_stopped) == ("ann@example.org", "fr", "")  # a new address: mail again
    other = client.post(f"/players/{players[1].pk}/mail/", {"email": "ben@example.org", "language": ""})
    assert other.status_code == 403
