"""Every list: `{"count", "next", "previous", "results"}`, `page` and `page_size` (at most 200)."""

from __future__ import annotations

from typing import Any

from rest_framework.exceptions import ValidationError
from rest_framework.pagination import PageNumberPagination
from rest_framework.request import Request


def _positive(request: Request, name: str) -> None:
    value = request.query_params.get(name)
    if (
        value is not None
        # ASCII digits only ("²".isdigit() is true) and few of them (int() refuses over 4,300 digits)
        and not (value.isascii() and value.isdigit() and len(value) <= 9 and int(value) > 0)
        and not (name == "page" and value == "last")
    ):
        raise ValidationError({name: [f"`{name}` must be a whole number, 1 or more"]})


class Pagination(PageNumberPagination):
    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 200

    def count(self) -> int:
        """How many items the list has in all (after `paginate_queryset`)."""
        return self.page.paginator.count if self.page is not None else 0

    def paginate_queryset(self, queryset: Any, request: Request, view: Any = None) -> Any:
        _positive(request, "page")
        _positive(request, "page_size")
        return super().paginate_queryset(queryset, request, view)
