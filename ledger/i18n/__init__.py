"""The engine's words in the request's language (docs/i18n.md, "The engine's refusals and the API").

The engine stays pure and English: a `Message` carries its id and parameters, a `Term` a word of a
variant's declaration with its context, `Words` a list joined. Here, at the edge, each is looked up in
this package's own catalog (`ledger/i18n/locale`): the entry of an id is `pgettext(context_of(id),
ENGLISH[id])` (the context its variant registered it under: the word's meaning, docs/i18n.md), of a
declaration's word `pgettext("game", english)`, of a house rule's choice `pgettext("house rule,
choice", english)`: one entry per word, whichever variant says it. `engine_messages.py` lists them all for
`makemessages` (generated: `manage.py engine_messages`). With no translation the English comes back.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from django.utils.functional import lazy
from django.utils.translation import pgettext

from ledger.engine.messages import CHOICE, ENGLISH, GAME_WORDS, Message, Term, Words, context_of, with_article

if TYPE_CHECKING:
    from ledger.engine import EngineError
    from ledger.engine.variants.declaration import Declaration


def say(message: Any) -> str:
    """A `Message`, `Term` or `Words` (or any value: a code, a number) in the active language."""
    if isinstance(message, Message):
        english = ENGLISH[message.id]
        template = pgettext(context_of(message.id), english)
        params = {name: say(value) for name, value in message.params.items()}
        if template == english:  # untranslated: English's article; a translation words its own
            template = with_article(template, params.get("bid"))
        return template.format(**params)
    if isinstance(message, Term):
        word = pgettext(message.context, message.source)
        return word[:1].lower() + word[1:] if message.lowered else word
    if isinstance(message, Words):
        return ", ".join(say(item) for item in message.items)
    return str(message)


def label(message_id: str, **params: Any) -> str:
    """The text of an id of `ENGLISH` (a bid's, an option's label or help, a field's name) in the active language."""
    return say(Message(message_id, **params))


def prose(english: str) -> str:
    """A declaration's own English (a table's title, a fact, a title) in the active language: one entry
    of context "game" per word, whichever variant declares it (`engine_messages.py`)."""
    return pgettext(GAME_WORDS, english)


def choice_word(english: str) -> str:
    """One of a house rule's `choice_labels` in the active language ("American" order, not the title)."""
    return pgettext(CHOICE, english)


def field_label(declaration: Declaration, name: str) -> str:
    """A hand field's label as the variant names it ("♦J", "Buyer"), in the active language."""
    own = declaration.field_labels.get(name)
    return prose(own) if own else label(f"field.{name}")


def declaration_json(declaration: Declaration) -> dict[str, Any]:
    """`Declaration.as_json()` in the active language: every label, help, title and line of prose said
    by the catalogs, as the rules pages say them; codes, keys, numbers and the shape stay as they are."""
    out = declaration.as_json()
    out["title"] = prose(declaration.title)
    out["source"] = prose(declaration.source)
    for shown, option in zip(out["options"], declaration.options, strict=True):
        shown["label"], shown["help"] = label(option.label), label(option.help)
    for shown, bid in zip(out["bids"], declaration.bids, strict=True):
        shown["label"] = label(bid.label)
    out["deals"]["ante"] = label(declaration.deals.ante)
    for shown, table in zip(out["tables"], declaration.tables, strict=True):
        shown["title"] = prose(table.title)
        shown["caption"] = prose(table.caption) if table.caption else ""
        shown["columns"] = [prose(column) for column in table.columns]
        for row in shown["rows"]:
            row["heading"] = prose(row["heading"])
        for note in shown["notes"]:
            note["note"] = prose(note["note"])
    out["pool_label"] = prose(declaration.pool_label)
    out["field_labels"] = {field: field_label(declaration, field) for field in out["field_labels"]}
    return out


def bids_said(declaration: Declaration, bids: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """`legal_bids`' entries with each bid's label in the active language (a session's `next_legal`,
    the scorer's deal table); the codes, fields and trumps stay as they are."""
    for entry in bids:
        entry["label"] = label(declaration.bid[entry["code"]].label)
    return bids


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
