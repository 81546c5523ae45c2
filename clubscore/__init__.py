"""The clubscore project: settings, URLs, WSGI, and the Celery app (`clubscore.celery`).

The Celery app is not imported here, as Celery's Django guide does: every process would pay for it at
`django.setup()`. The task modules import it (`ledger.tasks`, `ledger.stats.tasks`), and a task is
only ever sent after its module is imported; `celery -A clubscore` finds `clubscore.celery` itself.
"""
