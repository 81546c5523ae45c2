"""Fixtures of the mail tests: the ledger's, and a real SMTP server (tests/mail/smtp.py)."""

from tests.ledger_fixtures import *  # noqa: F403
from tests.mail.smtp import inbox  # noqa: F401
