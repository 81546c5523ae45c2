"""The web pages (`../shared/ui.md`): server-rendered Django templates, a small script per page that talks to
the REST API. The views read through `ledger.selectors` (and `reads`, which composes them) and write
through `ledger.services`; `catalog` presents the engine's own variant data. Not all are thin yet: docs/web.md
names the ones that still query or handle forms at length."""
