"""Everything a fresh checkout needs before it can serve: idempotent, and fast the second time."""

from pathlib import Path

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand

from cards.services import import_card_files, rebuild_index
from pacg_site import textindex

CARD_DATA = Path(settings.BASE_DIR) / "cards" / "data"


class Command(BaseCommand):
    help = "Migrate, load every bundled data file, and build the search indexes."

    def handle(self, *args, **options):  # type: ignore[no-untyped-def]
        call_command("migrate", interactive=False, verbosity=0)
        self.stdout.write("database migrated")
        call_command("collectstatic", interactive=False, verbosity=0)

        files = sorted(CARD_DATA.glob("*.yaml"))
        summary = import_card_files(paths=files, prune=True)
        self.stdout.write(
            f"cards: {len(files)} files, {summary.created} created, {summary.updated} updated, "
            f"{summary.unchanged} unchanged, {summary.deleted} deleted"
        )
        if summary.changed or not textindex.exists("cards"):
            self.stdout.write(f"cards index: {rebuild_index()} cards indexed")
        else:
            self.stdout.write("cards index: up to date")
