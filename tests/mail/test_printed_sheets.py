"""The printed sheets (issue 41): a 40-deal French evening's score sheet fits on two A4 pages and its text
reads back (pypdf); the pages' PDF links answer A4 or Letter; the pages' stylesheet parsed once a process
prints the same pages as parsed from the document's link each time; a rouble club's payment code is GOST R
56042-2014's text with the sum in kopecks."""

from __future__ import annotations

import io
import os
import re
from pathlib import Path
from typing import Any

import pypdf
import pytest
import zxingcpp
from django.contrib.staticfiles import finders
from django.template.loader import render_to_string
from django.test import Client, override_settings
from PIL import Image

from ledger.models import Club, Player, Role
from ledger.paycode import gost_payload, payment_code, reference
from ledger.services.clubs import club_payment_set
from ledger.services.sessions import session_import
from ledger.web import printing
from ledger.web.views import sheet_context
from tests.ledger_fixtures import PASSWORD, long_sheet

pytestmark = pytest.mark.django_db

A4 = (595, 842)  # points, rounded
LETTER = (612, 792)


def pages(pdf: bytes) -> list[Any]:
    return list(pypdf.PdfReader(io.BytesIO(pdf)).pages)


def size(page: Any) -> tuple[int, int]:
    return round(float(page.mediabox.width)), round(float(page.mediabox.height))


def french_evening(admin: Any, club: Club) -> Any:
    sheet = long_sheet("french", seed=41, deals=40)
    assert len(sheet["hands"]) == 40
    sheet["players"] = ["Amélie", "Bérénice", "Céleste", "Dominique"]
    return session_import(actor=admin, club_id=club.pk, sheet=sheet)


def test_a_40_deal_french_sheet_fits_on_two_a4_pages(admin: Any, club: Club) -> None:
    session = french_evening(admin, club)
    context = sheet_context(session, Role.PLAYER)
    pdf = printing.template_pdf("web/sheet.html", context)
    printed = pages(pdf)
    assert len(printed) <= 2
    assert all(size(p) == A4 for p in printed)
    text = "\n".join(p.extract_text() for p in printed)
    for name in ("Amélie", "Bérénice", "Céleste", "Dominique"):
        assert name in text
    for deal in (1, 20, 40):
        assert f"\n{deal} " in text or f"{deal} " in text
    totals = context["settlement"]["balances"]
    for total in totals:
        assert f"{abs(total):,}" in text
    html = render_to_string("web/sheet.html", {**context, "printed": True})
    assert drawn(printed) == drawn(pages(parsed_each_time(html, "A4")))  # app.css parsed once: the same pages


def test_the_pages_pdf_links_answer_a4_and_letter(admin: Any, club: Club) -> None:
    session = french_evening(admin, club)
    player = Player.objects.get(club=club, name="Amélie")
    client = Client()
    assert client.login(username=admin.get_username(), password=PASSWORD)
    for url in (
        f"/sessions/{session.pk}/sheet.pdf",
        f"/sessions/{session.pk}/settlement.pdf",
        f"/players/{player.pk}/statement.pdf",
    ):
        a4 = client.get(url)
        assert a4.status_code == 200 and a4["Content-Type"] == "application/pdf", url
        assert size(pages(a4.content)[0]) == A4
        letter = client.get(url + "?paper=letter")
        assert size(pages(letter.content)[0]) == LETTER
    page = client.get(f"/sessions/{session.pk}/sheet/").content.decode()
    assert f'href="/sessions/{session.pk}/sheet.pdf"' in page


def parsed_each_time(html: str, size: str) -> bytes:
    """The way before the stylesheet was parsed once a process: WeasyPrint fetches the document's own link
    to app.css and parses it, as an author's sheet, for this PDF."""
    from weasyprint import HTML

    document = HTML(string=printing.with_paper(html, size), base_url=printing.BASE, url_fetcher=printing.fetcher(()))
    return bytes(document.write_pdf())


def drawn(printed: list[Any]) -> list[tuple[tuple[int, int], str, bytes]]:
    """Each page's size, text and drawing (its content stream, to the byte)."""
    return [(size(p), p.extract_text(), p.get_contents().get_data()) for p in printed]


def test_the_stylesheet_parsed_once_prints_the_same_pages_on_a4_and_letter(admin: Any, club: Club) -> None:
    """Given apart (the user's origin) and not fetched from the link again, app.css draws the same pages as
    before on A4 as on Letter: the paper's @page rule still wins. (The 40-deal sheet above: the same.)"""
    sheet = long_sheet("french", seed=41, deals=8)
    session = session_import(actor=admin, club_id=club.pk, sheet=sheet)
    html = render_to_string("web/sheet.html", {**sheet_context(session, Role.PLAYER), "printed": True})
    printing._parsed.cache_clear()
    for paper, expected in (("A4", A4), ("Letter", LETTER)):
        after = pages(printing.html_pdf(html, size=paper))
        assert [size(p) for p in after] == [expected]
        assert drawn(after) == drawn(pages(parsed_each_time(html, paper))), paper
    info = printing._parsed.cache_info()
    assert (info.misses, info.hits) == (1, 1)  # parsed for the first PDF, reused for the second
    link = f"{printing.BASE}static/clubscore/app.css"
    assert printing.fetcher().fetch(link).read() == b""  # the document's own link parses nothing
    assert len(printing.fetcher(()).fetch(link).read()) > 10_000


def test_the_stylesheet_is_parsed_again_when_its_file_changes(tmp_path: Path) -> None:
    original = Path(str(finders.find("clubscore/app.css")))
    copy = tmp_path / "clubscore" / "app.css"
    copy.parent.mkdir()
    copy.write_bytes(original.read_bytes())
    with override_settings(STATICFILES_DIRS=[tmp_path]):
        first = printing.stylesheets()
        assert printing.stylesheets()[0] is first[0]
        copy.write_text(copy.read_text() + "\n.printed-later { color: #000; }\n")
        stamp = copy.stat().st_mtime_ns + 1_000_000_000
        os.utime(copy, ns=(stamp, stamp))
        again = printing.stylesheets()
        assert again[0] is not first[0]
        assert printing.stylesheets()[0] is again[0]


def test_a_rouble_club_pays_by_the_gost_code(admin: Any, club: Club) -> None:
    club = club_payment_set(
        actor=admin,
        club_id=club.pk,
        details={
            "payee_name": "Клуб Бостон",
            "ru_account": "40702810900000012345",
            "ru_bank_name": "ПАО Банк",
            "ru_bik": "044525225",
            "ru_corresp_account": "30101810400000000225",
        },
    )
    ref = reference(session_id=7, day="2026-12-07", name="Иван")
    code = payment_code(club=club, currency="RUB", cents=123456, ref=ref)
    expected = (
        "ST00012|Name=Клуб Бостон|PersonalAcc=40702810900000012345|BankName=ПАО Банк|BIC=044525225"
        "|CorrespAcc=30101810400000000225|Sum=123456|Purpose=Boston #7 2026-12-07 Иван"
    )
    assert code.kind == "gost"
    assert (
        gost_payload(
            name="Клуб Бостон",
            account="40702810900000012345",
            bank_name="ПАО Банк",
            bik="044525225",
            corresp_account="30101810400000000225",
            kopecks=123456,
            purpose=ref,
        )
        == expected
    )
    decoded = zxingcpp.read_barcodes(Image.open(io.BytesIO(code.png())))
    assert [d.text for d in decoded] == [expected]


def test_another_currency_is_paid_by_the_clubs_words(admin: Any, club: Club) -> None:
    club = club_payment_set(actor=admin, club_id=club.pk, details={"payment_instructions": "Cash to Mia."})
    code = payment_code(club=club, currency="USD", cents=500, ref="Boston #1 2026-12-07 Ann")
    assert (code.kind, code.has_code, code.instructions) == ("words", False, "Cash to Mia.")


def test_the_settlement_page_and_its_pdf_carry_the_debtors_codes(
    admin: Any, club: Club, players: list[Player], background_work_in_process: None
) -> None:
    from tests.ledger_fixtures import AMERICAN_HANDS, open_session, record_all
    from tests.money.helpers import close

    club_payment_set(actor=admin, club_id=club.pk, details={"iban": "FR7630006000011234567890189"})
    session = open_session(admin, club, players, stake={"currency": "EUR", "per_counter": "0.10"})
    record_all(admin, session, AMERICAN_HANDS)
    session = close(admin, session)
    owed: dict[int, int] = {}
    for p in session.closing["payments"]:
        owed[p["from"]] = owed.get(p["from"], 0) + p["cents"]
    assert owed
    client = Client()
    assert client.login(username=admin.get_username(), password=PASSWORD)
    page = client.get(f"/sessions/{session.pk}/settlement/").content.decode()
    figures = re.findall(r'<figure class="pay-code" data-kind="epc" data-amount="(\d+)">\s*<svg', page)
    assert sorted(int(f) for f in figures) == sorted(owed.values())
    pdf = client.get(f"/sessions/{session.pk}/settlement.pdf")
    text = "\n".join(p.extract_text() for p in pages(pdf.content))
    day = session.closed_at.date().isoformat()
    for seat in owed:
        assert f"Boston #{session.pk} {day} {players[seat].name}" in text
