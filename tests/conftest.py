"""Shared fixtures. The project's own copy of the spec's examples lives in tests/data; the rules are
read from the spec itself (`../shared/spec/rules.md`, beside the repository), never from a copy."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

DATA = Path(__file__).parent / "data"
EXAMPLES = DATA / "examples"
RULES_MD = Path(__file__).resolve().parents[2] / "shared" / "spec" / "rules.md"


@pytest.fixture(autouse=True)
def _no_language_left_from_the_last_test() -> Iterator[None]:
    """A request activates its language (LocaleMiddleware) and it stays active in the thread, where a
    test's own code then runs: after each test the thread is back to the default language, so that
    what a test formats does not depend on which test its worker ran before (xdist orders vary)."""
    yield
    from django.utils import translation

    translation.deactivate()


@pytest.fixture(autouse=True, scope="session")
def _no_mail_server(django_test_environment: None) -> None:
    """As on a server whose env file names no SMTP server: an evening closed sends no mail (issue 41).
    pytest-django's in-memory backend (set up by `django_test_environment`) would have every test that
    closes an evening draw a PDF of its sheet and send it; the mail's own tests point Django at a real
    SMTP server through the `settings` fixture (tests/mail/smtp.py, `inbox`), which puts this back after."""
    from django.conf import settings

    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST = ""


def load_json(path: Path) -> Any:
    """Parsed JSON: the tests index it as the spec says it is shaped."""
    return json.loads(path.read_text(encoding="utf-8"))


def example_names(variant: str | None = None, kind: str = "settlement") -> list[str]:
    """Names of the example sheets (with an expected settlement, or `kind="error"`)."""
    names = []
    for sheet in sorted(EXAMPLES.glob("*.sheet.json")):
        name = sheet.name.removesuffix(".sheet.json")
        if not (EXAMPLES / f"{name}.{kind}.json").exists():
            continue
        if variant is None or load_json(sheet)["variant"] == variant:
            names.append(name)
    return names


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """The figure issue 18 asks for: how many requests schemathesis tried (tests/api/test_schemathesis.py)."""
    import sys

    module = sys.modules.get("tests.api.test_schemathesis")
    if module is not None and module.REQUESTS["count"]:
        terminalreporter.write_line(f"schemathesis: {module.REQUESTS['count']} requests against /api/schema/")
