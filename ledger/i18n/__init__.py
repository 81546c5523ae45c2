"""The engine's words in the request's language (docs/i18n.md, "The engine's refusals and the API").

The engine stays pure and English: a `Message` carries its id and parameters, a `Term` a word of a
variant's declaration with its context, `Words` a list joined. Here, at the edge, each is looked up in
this package's own catalog (`ledger/i18n/locale`): the entry of an id is `pgettext(id, ENGLISH[id])`,
of a declaration's word `pgettext(variant name, english)`. `engine_messages.py` lists them all for
`makemessages` (generated: `manage.py engine_messages`). With no translation the English comes back.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from django.utils.functional import lazy
from django.utils.translation import pgettext

from ledger.engine.messages import ENGLISH, Message, Term, Words

if TYPE_CHECKING:
    from ledger.engine import EngineError
    from ledger.engine.variants.declaration import Declaration


def say(message: Any) -> str:
    """A `Message`, `Term` or `Words` (or any value: a code, a number) in the active language."""
    if isinstance(message, Message):
        template = pgettext(message.id, ENGLISH[message.id])
        return template.format(**{name: say(value) for name, value in message.params.items()})
    if isinstance(message, Term):
        word = pgettext(message.context, message.source)
        return word[:1].lower() + word[1:] if message.lowered else word
    if isinstance(message, Words):
        return ", ".join(say(item) for item in message.items)
    return str(message)


def label(message_id: str, **params: Any) -> str:
    """The text of an id of `ENGLISH` (a bid's, an option's label or help, a field's name) in the active language."""
    return say(Message(message_id, **params))


def prose(context: str, english: str) -> str:
    """A declaration's own English (a table's title, a fact, a title) in the active language.

    `context` is the variant's name (`declaration.name`), as `engine_messages.py` lists it.
    """
    return pgettext(context, english)


def field_label(declaration: Declaration, name: str) -> str:
    """A hand field's label as the variant names it ("♦J", "Buyer"), in the active language."""
    own = declaration.field_labels.get(name)
    return prose(declaration.name, own) if own else label(f"field.{name}")


def join(messages: Iterable[Any]) -> str:
    """Several messages as one sentence: "a; b"."""
    return "; ".join(say(m) for m in messages)


def _said(message: Any) -> str:
    """An engine refusal's message; a plain string is one the ledger raised in the engine's type."""
    if isinstance(message, Message | Term | Words):
        return say(message)
    from .refusals import ledger_text

    return ledger_text(str(message))


def error_body(error: EngineError) -> dict[str, Any]:
    """An engine refusal as the API's body, in the active language: `code`, `hand`, the field keys unchanged."""
    fields = {name: [_said(m) for m in messages] for name, messages in error.fields.items()}
    text = "; ".join(m for messages in fields.values() for m in messages)
    if error.hand is not None:
        text = pgettext("api", "hand {hand}: {text}").format(hand=error.hand, text=text)
    body: dict[str, Any] = {"code": error.code, "message": text, "fields": fields}
    if error.hand is not None:
        body["hand"] = error.hand
    return {"error": body}


label_lazy = lazy(label, str)
prose_lazy = lazy(prose, str)
