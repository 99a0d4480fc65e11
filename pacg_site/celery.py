"""The Celery app. Without a broker (the embedded default) settings make every task eager."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pacg_site.settings")

app = Celery("pacg_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
