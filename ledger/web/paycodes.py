"""The settlement page's payment codes (issue 41): one for each player who owes, for the exact amount, to
the club's account (`ledger.paycode`), drawn as inline SVG (black on white, printable)."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.safestring import SafeString, mark_safe

from ledger.models import Player, Session
from ledger.paycode import PaymentCode, evening_code


@dataclass(frozen=True)
class SeatCode:
    name: str
    code: PaymentCode

    @property
    def svg(self) -> SafeString:
        return mark_safe(self.code.svg())  # segno's own markup: no text of anyone's in it but the payload


def evening_codes(session: Session, players: list[Player]) -> list[SeatCode]:
    """The debtors' codes in seat order (none for a session without a stake)."""
    found = [(p.name, evening_code(session, seat, p.name)) for seat, p in enumerate(players)]
    return [SeatCode(name, code) for name, code in found if code is not None]
