"""The web pages (`../shared/ui.md`): server-rendered Django templates, a small script per page that talks to
the REST API. Views are thin: they read through `ledger.selectors` (and `reads`, which composes them) and
write through `ledger.services`; `catalog` presents the engine's own variant data."""
