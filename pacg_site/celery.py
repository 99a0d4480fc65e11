"""The Celery app. Without a broker (the embedded default) settings make every task eager."""

import importlib
import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pacg_site.settings")

app = Celery("pacg_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


def enqueue(task: str, *args: object, countdown: float | None = None, queue: str | None = None) -> None:
    """Run the task named `task` ("cards.tasks.rebuild_card_index") on a worker, or at once when
    tasks are eager. By name, so that a service can schedule a task without importing the
    tasks module, which imports the services: tasks call services, never the other way."""
    # Imported first: a task the app has not registered yet would be sent to a broker even when
    # tasks are eager (Celery's send_task ignores task_always_eager).
    importlib.import_module(task.rpartition(".")[0])
    app.tasks[task].apply_async(args=args, countdown=countdown, queue=queue)
