"""The Celery app: configured from Django's settings (CELERY_*), tasks found in the apps."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "clubscore.settings")

app = Celery("clubscore")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
