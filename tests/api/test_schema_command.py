"""`manage.py spectacular` writes the schema that /api/schema/ serves (third-party scorer apps build
their clients from either)."""

from __future__ import annotations

import io
import json
from typing import Any

from django.core.management import call_command


def test_the_command_writes_the_served_schema_with_unique_operation_ids(client: Any) -> None:
    out = io.StringIO()
    call_command("spectacular", "--format", "openapi-json", "--validate", "--fail-on-warn", stdout=out)
    written = json.loads(out.getvalue())
    assert written == client.get("/api/schema/").json()
    ids = [op["operationId"] for path in written["paths"].values() for op in path.values() if "operationId" in op]
    assert len(ids) == len(set(ids))
    assert "v1_variants_list" in ids
