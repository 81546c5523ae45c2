"""The engine's one error type: a refusal that names the rule, the field and, for a hand, the deal.

Its JSON (`as_json`) is the API's error body (`api.md`, "Errors"), so the `settle` command, the
stateless endpoint and the ledger all answer a broken rule in the same words.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

INVALID_SHEET = "invalid_sheet"
INVALID_OPTION = "invalid_option"
OPTION_REQUIRED = "option_required"
INVALID_HAND = "invalid_hand"


@dataclass(frozen=True)
class EngineError(Exception):
    """A sheet or hand the rules refuse. `fields` maps each broken field to its messages."""

    code: str
    fields: dict[str, list[str]] = field(default_factory=dict)
    hand: int | None = None

    @property
    def message(self) -> str:
        text = "; ".join(msg for msgs in self.fields.values() for msg in msgs)
        return f"hand {self.hand}: {text}" if self.hand is not None else text

    def __str__(self) -> str:
        return f"{self.code}: {self.message}"

    def as_json(self) -> dict[str, Any]:
        body: dict[str, Any] = {
            "code": self.code,
            "message": self.message,
            "fields": {name: list(msgs) for name, msgs in self.fields.items()},
        }
        if self.hand is not None:
            body["hand"] = self.hand
        return {"error": body}


def sheet_error(field_name: str, message: str, code: str = INVALID_SHEET) -> EngineError:
    return EngineError(code, {field_name: [message]})


def hand_error(hand: int, field_name: str, message: str, code: str = INVALID_HAND) -> EngineError:
    return EngineError(code, {field_name: [message]}, hand)
