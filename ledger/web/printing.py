"""The printed sheets (issue 41): the score sheet, the settlement and a player's statement as PDF, drawn by
WeasyPrint from the pages' own templates, with the pages' stylesheet and its print rules
(`static/clubscore/app.css`, `@media print`) plus `print.css`, on A4 or Letter, black on white.

Nothing is fetched over the network: the stylesheets are read from the static files (`STATIC_URL`),
every other address (scripts, icons) is refused, and WeasyPrint runs no script.
"""

from __future__ import annotations

import mimetypes
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.contrib.staticfiles import finders
from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.utils.text import slugify

PAPERS = {"a4": "A4", "letter": "Letter"}
BASE = "http://clubscore.invalid/"  # the documents' address: their /static/ links resolve under it


def _fetcher() -> Any:
    from weasyprint.urls import URLFetcher, URLFetcherResponse

    class StaticFetcher(URLFetcher):
        """Serves the static files from disk; refuses every other address."""

        def fetch(self, url: str, headers: Any = None) -> Any:
            path = urlsplit(url).path
            prefix = "/" + settings.STATIC_URL.strip("/") + "/"
            found = finders.find(path.removeprefix(prefix)) if path.startswith(prefix) else None
            if not found or url.startswith("data:"):
                raise ValueError(f"not fetched for a printed sheet: {url[:80]}")
            body = Path(str(found)).read_bytes()
            kind = mimetypes.guess_type(str(found))[0] or "application/octet-stream"
            return URLFetcherResponse(url, body=body, headers={"Content-Type": kind})

    return StaticFetcher()


def paper(request: HttpRequest | None) -> str:
    """The paper a request asks for (`?paper=letter`), A4 by default."""
    asked = request.GET.get("paper", "a4").lower() if request is not None else "a4"
    return PAPERS.get(asked, "A4")


def html_pdf(html: str, *, size: str = "A4") -> bytes:
    """A page's HTML as a PDF on `size` paper: the print stylesheet comes last, so its page size wins."""
    from weasyprint import HTML

    page = f"<style>@page {{ size: {size}; margin: 12mm 10mm; }}</style>"
    html = html.replace("</head>", page + "</head>", 1)
    return bytes(HTML(string=html, base_url=BASE, url_fetcher=_fetcher()).write_pdf())


def template_pdf(
    template: str, context: dict[str, Any], *, request: HttpRequest | None = None, size: str = "A4"
) -> bytes:
    """A page's template, rendered as the page is (with the request when there is one), as a PDF."""
    html = render_to_string(template, {**context, "printed": True}, request=request)
    return html_pdf(html, size=size)


def pdf_response(pdf: bytes, name: str) -> HttpResponse:
    """A PDF download named after its page (`score-sheet-12.pdf`), never kept by a shared cache."""
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{slugify(name)}.pdf"'
    response["Cache-Control"] = "no-store"
    return response
