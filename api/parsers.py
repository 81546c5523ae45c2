"""The API's one parser: JSON, and nothing a database cannot store or Python cannot nest."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext
from rest_framework import parsers
from rest_framework.exceptions import ParseError

# NUL (no database text type takes it) and lone UTF-16 surrogates (JSON's "\ud800" escapes: not
# text, so neither PostgreSQL nor the UTF-8 encoder of the answer can take them).
UNSTORABLE = re.compile("[\x00\ud800-\udfff]")


def has_unstorable_text(value: Any) -> bool:
    """True when a string anywhere in the parsed JSON (keys included) holds NUL or a lone surrogate."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if UNSTORABLE.search(item):
                return True
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return False


def _not_json(cause: BaseException | None) -> str:
    """DRF's 'JSON parse error - Expecting value: line 1 column 2' in the request's language."""
    if isinstance(cause, json.JSONDecodeError):
        return gettext("JSON parse error - the body is not JSON: see line %(line)d, column %(column)d") % {
            "line": cause.lineno,
            "column": cause.colno,
        }
    return gettext("JSON parse error - the body is not JSON text in UTF-8")


class JSONParser(parsers.JSONParser):
    def parse(self, stream: Any, media_type: str | None = None, parser_context: Mapping[str, Any] | None = None) -> Any:
        try:
            data = super().parse(stream, media_type, parser_context)
        except ParseError as refused:  # DRF words it in English with Python's own message
            raise ParseError(_not_json(refused.__context__)) from None
        except RecursionError:
            raise ParseError(gettext("JSON parse error - the document is nested too deeply")) from None
        if has_unstorable_text(data):
            raise ParseError(
                gettext("JSON parse error - strings must not contain NUL or lone surrogates (\\u0000, \\ud800)")
            )
        return data
