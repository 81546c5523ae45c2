"""axe-core inside the browser tests: the vendored static/vendor/axe.min.js is injected into the page under
test (no page loads it) and its serious and critical findings are returned."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.conf import settings

AXE = Path(settings.BASE_DIR) / "static" / "vendor" / "axe.min.js"
BLOCKING = ("serious", "critical")


def axe_violations(page: Any) -> list[dict[str, Any]]:
    """The serious and critical violations on the page as it stands, each with the nodes it found."""
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        # From its URL, not inlined: the pages' Content-Security-Policy runs no inline script (issue 29).
        page.add_script_tag(url=f"/{settings.STATIC_URL.strip('/')}/vendor/{AXE.name}")
    found = page.evaluate(
        """async () => {
            const result = await axe.run(document, { resultTypes: ['violations'] });
            return result.violations.map(v => ({
                id: v.id, impact: v.impact, help: v.help,
                nodes: v.nodes.map(n => n.target.join(' ') + ' :: ' + n.failureSummary).slice(0, 5),
            }));
        }"""
    )
    return [v for v in found if v["impact"] in BLOCKING]
