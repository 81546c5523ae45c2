"""The service's settings as `bench/api.py` runs it: the project's (production, from the environment),
with the bench's URL configuration, which adds the floor (`bench/floor.py`)."""

from clubscore.settings import *  # noqa: F403

ROOT_URLCONF = "bench.urls"
