"""Issue 29, point 9: a strict Content-Security-Policy on every answer (clubscore/csp.py), and nothing in
the templates or the pages' scripts that such a policy would block, so that it can stay strict.

The browser tests (tests/browser/test_csp.py) load each kind of page under the policy and count the
violations; the authorization matrix (tests/api/test_authorization_matrix.py) checks that every cell's
answer carries the header. Here: the header's text, and a grep that fails the day a template grows an
inline script, an inline event handler, a `javascript:` URL or a `style=` attribute again."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.test import Client

ROOT = Path(settings.BASE_DIR)
POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
    "frame-ancestors 'none'; base-uri 'self'; form-action 'self'; object-src 'none'"
)

# What a policy without 'unsafe-inline' / 'unsafe-eval' blocks, as it is written in a template or a script.
INLINE_SCRIPT = re.compile(r"<script\b(?![^>]*\bsrc=)(?![^>]*type=\"application/(?:ld\+)?json\")[^>]*>", re.I)
HANDLER = re.compile(r"""<[a-z][^>]*\son[a-z]+\s*=""", re.I | re.S)
JS_URL = re.compile(r"""(?:href|src|action|formaction)\s*=\s*["']?\s*javascript:""", re.I)
STYLE_ATTRIBUTE = re.compile(r"""<[a-z][^>]*\sstyle\s*=""", re.I | re.S)
STYLE_ELEMENT = re.compile(r"<style\b", re.I)
# In a script: a style= attribute or a handler set as markup (CS.el's attributes too), eval and its kin;
# a style set through the element's `style` property is allowed.
SCRIPT_BLOCKED = re.compile(
    r"""setAttribute\(\s*['"](?:style|on[a-z]+)['"]|\bel\(\s*'\w+'\s*,\s*\{[^}]*\bstyle\s*:|\beval\(|new Function\("""
    r"""|set(?:Timeout|Interval)\(\s*['"]|\bon[a-z]+=\\?["']""",
)


# A mail's body is read in the player's mail program, never served under the site's policy, and mail
# programs drop a <style> block: its styles are inline (issue 41). The opt-out page of templates/mail is a
# page, and is checked.
MAIL_BODIES = {ROOT / "templates" / "mail" / "evening.html"}


def templates() -> list[Path]:
    found = sorted(p for p in (ROOT / "templates").rglob("*.html") if p not in MAIL_BODIES)
    assert len(found) > 20 and set((ROOT / "templates").rglob("*.html")) >= MAIL_BODIES
    return found


def scripts() -> list[Path]:
    found = sorted((ROOT / "static" / "clubscore").rglob("*.js"))
    assert found
    return found


def findings(pattern: re.Pattern[str], files: list[Path]) -> list[str]:
    out = []
    for path in files:
        text = path.read_text(encoding="utf-8")
        text = re.sub(r"{% comment %}.*?{% endcomment %}|{#.*?#}", "", text, flags=re.S)
        out += [f"{path.relative_to(ROOT)}: {m[0][:60]!r}" for m in pattern.finditer(text)]
    return out


@pytest.mark.parametrize(
    "pattern",
    [INLINE_SCRIPT, HANDLER, JS_URL, STYLE_ATTRIBUTE, STYLE_ELEMENT],
    ids=["inline script", "inline handler", "javascript: URL", "style attribute", "style element"],
)
def test_no_template_holds_what_the_policy_blocks(pattern: re.Pattern[str]) -> None:
    assert findings(pattern, templates()) == []


def test_no_page_script_sets_what_the_policy_blocks() -> None:
    assert findings(SCRIPT_BLOCKED, scripts()) == []


@pytest.mark.parametrize(
    "text",
    [
        '<button type="button" onclick="window.print()">',
        "<div\n  onmouseover='x()'>",
        "<script>alert(1)</script>",
        '<a href="javascript:void(0)">',
        '<caption style="text-align:left">',
        "<style>body{}</style>",
    ],
)
def test_the_grep_finds_each_kind_of_inline_code(text: str, tmp_path: Path) -> None:
    """The patterns above are not empty words: each finds its kind."""
    path = tmp_path / "t.html"
    path.write_text(text)
    patterns = [INLINE_SCRIPT, HANDLER, JS_URL, STYLE_ATTRIBUTE, STYLE_ELEMENT]
    assert any(pattern.search(path.read_text()) for pattern in patterns)


def test_the_grep_lets_data_and_external_scripts_through() -> None:
    assert not INLINE_SCRIPT.search('<script id="open-tables" type="application/json">[]</script>')
    assert not INLINE_SCRIPT.search('<script src="/static/clubscore/common.js"></script>')
    assert not HANDLER.search('<button data-action="dispute" aria-controls="why-1">')


@pytest.mark.parametrize(
    "script", ["node.setAttribute('style', 'x')", "el('div', { class: 'a', style: 'height:1px' })", "eval(code)"]
)
def test_the_script_grep_finds_each_kind(script: str) -> None:
    assert SCRIPT_BLOCKED.search(script)


@pytest.mark.django_db
@pytest.mark.parametrize("url", ["/login/", "/rules/", "/api/docs/", "/api/docs/?script=", "/nowhere/", "/jsi18n/"])
def test_every_answer_carries_the_strict_policy(url: str) -> None:
    response = Client().get(url)
    assert response["Content-Security-Policy"] == POLICY, url


@pytest.mark.django_db
def test_the_api_docs_page_has_no_inline_script_or_style() -> None:
    """drf-spectacular's Swagger UI page, split (its script at ?script) and with its style as a file."""
    page = Client().get("/api/docs/").content.decode()
    assert findings_in(page) == []
    script = Client().get("/api/docs/?script=")
    assert script.status_code == 200 and script["Content-Type"].startswith("application/javascript")
    assert "SwaggerUIBundle" in script.content.decode()


def findings_in(text: str) -> list[str]:
    return [m[0] for p in (INLINE_SCRIPT, HANDLER, JS_URL, STYLE_ATTRIBUTE, STYLE_ELEMENT) for m in p.finditer(text)]


@pytest.mark.django_db
def test_a_view_with_its_own_policy_keeps_it(settings: Any) -> None:
    from django.http import HttpRequest, HttpResponse

    from clubscore.csp import ContentSecurityPolicyMiddleware

    own = HttpResponse("x")
    own["Content-Security-Policy"] = "default-src 'none'"
    assert ContentSecurityPolicyMiddleware(lambda r: own)(HttpRequest())["Content-Security-Policy"] == (
        "default-src 'none'"
    )
    plain = ContentSecurityPolicyMiddleware(lambda r: HttpResponse("x"))(HttpRequest())
    assert plain["Content-Security-Policy"] == POLICY
