"""Celery application. Without REDIS_URL the tasks run eagerly in-process (see settings)."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino_compliance.settings")

app = Celery("casino_compliance")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
