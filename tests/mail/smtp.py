"""A real SMTP server for the mail tests (aiosmtpd, in a thread of the test), Django's SMTP backend pointed
at it: the messages are read back as the server received them."""

from __future__ import annotations

import email
import email.policy
import socket
from collections.abc import Iterator
from email.message import EmailMessage
from typing import Any

import pytest
from aiosmtpd.controller import Controller

REFUSED = "nobody@refused.example"


class Inbox:
    """aiosmtpd's handler: keeps each message it accepts; refuses one address at RCPT, as a server does
    for a mailbox that does not exist."""

    def __init__(self) -> None:
        self.messages: list[EmailMessage] = []

    async def handle_RCPT(self, server: Any, session: Any, envelope: Any, address: str, options: Any) -> str:
        if address == REFUSED:
            return "550 5.1.1 no such mailbox"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        parsed = email.message_from_bytes(envelope.content, policy=email.policy.default)
        assert isinstance(parsed, EmailMessage)
        self.messages.append(parsed)
        return "250 Message accepted"

    def to(self, address: str) -> list[EmailMessage]:
        return [m for m in self.messages if m["To"] == address]


@pytest.fixture
def inbox(settings: Any) -> Iterator[Inbox]:
    yield from smtp_server(settings)


def smtp_server(settings: Any) -> Iterator[Inbox]:
    """Start the server, point Django's SMTP backend at it (pytest-django's `settings`), yield its inbox."""
    handler = Inbox()
    with socket.socket() as probe:  # a free port (aiosmtpd's ready check cannot connect to port 0)
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    controller = Controller(handler, hostname="127.0.0.1", port=port)
    controller.start()
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST = "127.0.0.1"
    settings.EMAIL_PORT = port
    settings.EMAIL_USE_TLS = settings.EMAIL_USE_SSL = False
    settings.EMAIL_HOST_USER = settings.EMAIL_HOST_PASSWORD = ""
    settings.SITE_URL = "https://scores.example.org"
    yield handler
    controller.stop()
