"""The API's limits on what a client sends (api.md, "Limits"); the `settle` command has none.

- A body over `MAX_REQUEST_BYTES`: 413, before parsing (`api.middleware.RequestSizeMiddleware`).
- More than `MAX_SESSION_HANDS` hands in a sheet (`settle`, `import`), or recorded in a session
  (`ledger.services.hands.hand_record`): 400 `invalid_request`, field `hands`.
- Free text: names (clubs, players, a sheet's players) at most `NAME_MAX` characters, an adjustment's
  `note` and a payment's `note` at most `NOTE_MAX`, a device at most `DEVICE_MAX`, a username
  `USERNAME_MAX`, a password `PASSWORD_MAX`, `X-Reason` is cut at `REASON_MAX`.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.utils.translation import gettext

from ledger.exceptions import InvalidRequest

NAME_MAX = 100
NOTE_MAX = 500
DEVICE_MAX = 100
USERNAME_MAX = 150
PASSWORD_MAX = 1024
REASON_MAX = 500
VARIANT_MAX = 32


def hand_limits(hand: Any, field: str = "adjustments") -> None:
    """An adjustment's `note` at most NOTE_MAX characters (the engine checks the rest of the hand)."""
    if not isinstance(hand, dict) or not isinstance(hand.get("adjustments"), list):
        return
    for i, item in enumerate(hand["adjustments"], 1):
        note = item.get("note") if isinstance(item, dict) else None
        if isinstance(note, str) and len(note) > NOTE_MAX:
            raise InvalidRequest.field(field, f"adjustment {i}: `note` has at most {NOTE_MAX} characters")


def sheet_limits(sheet: Any) -> None:
    """At most MAX_SESSION_HANDS hands, names of at most NAME_MAX characters, short notes."""
    if not isinstance(sheet, dict):
        return
    hands = sheet.get("hands")
    if isinstance(hands, list):
        if len(hands) > settings.MAX_SESSION_HANDS:
            raise InvalidRequest.field(
                "hands", gettext("a sheet has at most %(n)s hands here") % {"n": settings.MAX_SESSION_HANDS}
            )
        for hand in hands:
            hand_limits(hand, "hands")
    players = sheet.get("players")
    if isinstance(players, list) and any(isinstance(p, str) and len(p) > NAME_MAX for p in players):
        raise InvalidRequest.field("players", f"a name has at most {NAME_MAX} characters")
