"""Views that answer JSON or CSV (`?format=csv` or `Accept: text/csv`); refusals and OPTIONS are always JSON."""

from __future__ import annotations

from typing import Any

from rest_framework.exceptions import ValidationError
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

FORMATS = ("json", "csv")


class JsonOrCsvView(APIView):
    """Subclasses set `renderer_classes = [JSONRenderer, <their CSV renderer>]`."""

    def perform_content_negotiation(self, request: Request, force: bool = False) -> Any:
        fmt = request.query_params.get("format")
        if not force and fmt is not None and fmt not in FORMATS:
            raise ValidationError({"format": ["`format` must be json or csv"]})
        return super().perform_content_negotiation(request, force)

    def finalize_response(self, request: Request, response: Any, *args: Any, **kwargs: Any) -> Any:
        response = super().finalize_response(request, response, *args, **kwargs)
        # Only GET answers rows; a refusal, or OPTIONS's description of the view, is a JSON object.
        if isinstance(response, Response) and (response.status_code >= 400 or request.method not in ("GET", "HEAD")):
            response.accepted_renderer = JSONRenderer()
            response.accepted_media_type = JSONRenderer.media_type
            response.content_type = None
        return response


def for_people(request: Request | None) -> bool:
    """Whether a CSV is for a person's spreadsheet (issue 38): a request that says its language
    (`Accept-Language`, as every browser does) gets the pages' CSV in that language (byte-order mark,
    `;` and a decimal comma in French and Russian, headers in words, amounts in money, figures rounded);
    one without (a script) gets the data CSV of `docs/stats.md` and `api.md`, unchanged."""
    return request is not None and bool(request.META.get("HTTP_ACCEPT_LANGUAGE", "").strip())
