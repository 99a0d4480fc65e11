"""Everything a fresh checkout needs before it can serve: idempotent, and fast the second time."""

from django.core.management import call_command
from django.core.management.base import BaseCommand

from cards.services import import_bundled_cards, rebuild_index
from pacg_site import textindex
from rules.assistant.vectors import embed_passages, progress, reporter
from rules.services import import_bundled_rulebooks, rebuild_rules_index

# The passages' vectors take minutes on a new machine (an empty embedding cache) and seconds from
# the cache: bootstrap spends this long on them and the server computes the rest as it serves.
VECTOR_SECONDS = 10


class Command(BaseCommand):
    help = "Migrate, load every bundled data file, and build the search indexes."

    def handle(self, *args, **options):  # type: ignore[no-untyped-def]
        call_command("migrate", interactive=False, verbosity=0)
        self.stdout.write("database migrated")
        call_command("collectstatic", interactive=False, verbosity=0)

        summary = import_bundled_cards()
        self.stdout.write(
            f"cards: {len(summary.files)} files, {summary.created} created, {summary.updated} updated, "
            f"{summary.unchanged} unchanged, {summary.deleted} deleted"
        )
        # Imports that change anything rebuild their index themselves (a task on commit).
        if not textindex.exists("cards"):
            self.stdout.write(f"cards index: {rebuild_index()} cards indexed")

        books = import_bundled_rulebooks()
        for book in books:
            state = "imported" if book.changed else "unchanged"
            self.stdout.write(f"rulebook {book.slug}: {state}, {book.passages} passages")
        if not textindex.exists("rules"):
            self.stdout.write(f"rules index: {rebuild_rules_index()} passages indexed")
        self.vectors()

    def vectors(self) -> None:
        if progress().ready:
            self.stdout.write(f"rules assistant: full pipeline, {progress()}")
            return
        done = embed_passages(seconds=VECTOR_SECONDS, report=reporter(self.stdout.write)) or progress()
        if done.ready:
            self.stdout.write("rules assistant: full pipeline")
        else:
            self.stdout.write(
                f"rules assistant: word search until the server has computed the other "
                f"{done.total - done.embedded:,} passages' vectors in the background (minutes; "
                "progress on /rules/), or run `python manage.py embed_passages` now"
            )
