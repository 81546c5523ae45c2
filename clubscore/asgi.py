"""ASGI entry point (production: gunicorn's uvicorn workers, bin/production).

Django's own ASGI handler runs a chain of sync middleware and a sync view in three hops between the
event loop and the request's thread: into the thread for the middleware, back to the loop for the
view's handler, and into the thread again for the view. Every view of this project is sync (the live
channel's views too: they return a response whose stream is async), so here the whole chain runs in
one hop, in the request's thread, as under WSGI; the event loop only reads the request, sends the
answer and streams. A hop is a hand-over between two threads, each a wait for the GIL under load
(bench/README.md "round 5").
"""

import os
from typing import Any

import django
from asgiref.sync import sync_to_async
from django.core.handlers.asgi import ASGIHandler

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "clubscore.settings")


class OneHopASGIHandler(ASGIHandler):
    """Django's ASGI handler with the middleware chain loaded sync and entered once (see above)."""

    def load_middleware(self, is_async: bool = False) -> None:
        super().load_middleware(is_async=False)
        # Thread-sensitive: the request's own thread (Django's ThreadSensitiveContext per request),
        # where its signals' receivers ran (close_old_connections) and its database connection lives.
        self._middleware_chain: Any = sync_to_async(self._middleware_chain, thread_sensitive=True)


django.setup(set_prefix=False)  # as django.core.asgi.get_asgi_application()
application = OneHopASGIHandler()
