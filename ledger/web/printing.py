"""The printed sheets (issue 41): the score sheet, the settlement and a player's statement as PDF, drawn by
WeasyPrint from the pages' own templates, with the pages' stylesheet and its print rules
(`static/clubscore/app.css`, `@media print`) plus the paper's `@page` rule, on A4 or Letter, black on white.

Nothing is fetched over the network: the stylesheets are read from the static files (`STATIC_URL`),
every other address (scripts, icons) is refused, and WeasyPrint runs no script.

The pages' stylesheet is parsed once a process (`PARSED`): WeasyPrint gets it as a stylesheet of its own
(`write_pdf(stylesheets=...)`, the "user" origin), and the document's link to it is answered with an
empty sheet. The printed pages have no style of their own (no `<style>`, no `style=`) for the origin to
matter, except the paper's `@page` rule, an author's rule, which wins over the user's `@page` of app.css
as it did when it came last (tests/mail/test_printed_sheets.py compares the two ways).
"""

from __future__ import annotations

import functools
import mimetypes
from collections.abc import Collection
from pathlib import Path
from typing import Any
from urllib.parse import urljoin, urlsplit

from django.conf import settings
from django.contrib.staticfiles import finders
from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.utils.text import slugify

PAPERS = {"a4": "A4", "letter": "Letter"}
BASE = "http://clubscore.invalid/"  # the documents' address: their /static/ links resolve under it


PARSED = ("clubscore/app.css",)  # the stylesheets parsed once a process; base.html links it on every page


def fetcher(parsed: Collection[str] = PARSED) -> Any:
    """Serves the static files from disk, an empty sheet for those in `parsed` (given apart, already
    parsed); refuses every other address."""
    from weasyprint.urls import URLFetcher, URLFetcherResponse

    class StaticFetcher(URLFetcher):
        def fetch(self, url: str, headers: Any = None) -> Any:
            path = urlsplit(url).path
            prefix = "/" + settings.STATIC_URL.strip("/") + "/"
            name = path.removeprefix(prefix)
            found = finders.find(name) if path.startswith(prefix) else None
            if not found or url.startswith("data:"):
                raise ValueError(f"not fetched for a printed sheet: {url[:80]}")
            kind = mimetypes.guess_type(str(found))[0] or "application/octet-stream"
            body = b"" if name in parsed else Path(str(found)).read_bytes()
            return URLFetcherResponse(url, body=body, headers={"Content-Type": kind})

    return StaticFetcher()


# Parsed once a process, keyed by the file's path and modification time (an edited static file is read
# again). app.css took 0.2-0.35 s of CPU to parse for every PDF: bench/pdf.py, 2026-12-07, 10 runs each way
# interleaved, load 3 on 2 cores: an 8-deal score sheet 322 ms of CPU against 540 (0.60), a 40-deal one on
# two pages 1,510 against 1,874 (0.81). (A profile had it at 70 % of a PDF: cProfile inflates tinycss2's
# many small calls.) Its ~20 warnings of rules WeasyPrint does not support are logged once, not per PDF.
@functools.lru_cache(maxsize=8)
def _parsed(name: str, path: str, mtime_ns: int) -> Any:
    from weasyprint import CSS

    text = Path(path).read_text(encoding="utf-8")
    if "@font-face" in text:  # its fonts would belong to one document's FontConfiguration, not to every one
        raise ValueError(f"{name}: a stylesheet with @font-face cannot be parsed once for every document")
    return CSS(string=text, base_url=urljoin(BASE, static(name)), url_fetcher=fetcher(parsed=()), media_type="print")


def stylesheets() -> list[Any]:
    """The `PARSED` stylesheets as WeasyPrint's CSS objects, each parsed once while its file is unchanged."""
    sheets = []
    for name in PARSED:
        found = finders.find(name)
        if not found:
            raise ValueError(f"static file not found: {name}")
        path = str(found)
        sheets.append(_parsed(name, path, Path(path).stat().st_mtime_ns))
    return sheets


def paper(request: HttpRequest | None) -> str:
    """The paper a request asks for (`?paper=letter`), A4 by default."""
    asked = request.GET.get("paper", "a4").lower() if request is not None else "a4"
    return PAPERS.get(asked, "A4")


def html_pdf(html: str, *, size: str = "A4") -> bytes:
    """A page's HTML as a PDF on `size` paper: the paper's `@page` rule comes last, so its size wins."""
    from weasyprint import HTML

    document = HTML(string=with_paper(html, size), base_url=BASE, url_fetcher=fetcher())
    return bytes(document.write_pdf(stylesheets=stylesheets()))


def with_paper(html: str, size: str) -> str:
    """The page's HTML with the paper's `@page` rule last in its head."""
    page = f"<style>@page {{ size: {size}; margin: 12mm 10mm; }}</style>"
    return html.replace("</head>", page + "</head>", 1)


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
