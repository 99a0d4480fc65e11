from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from rules.assistant.vectors import embed_passages, reporter
from rules.services import MANIFEST, RulebookImportError, import_rulebook, read_manifest, read_questions


class Command(BaseCommand):
    help = "Import a rulebook from plain text, described by its entry in a manifest (by slug)."

    def add_arguments(self, parser):  # type: ignore[no-untyped-def]
        parser.add_argument("path", type=Path, help="the rulebook as plain UTF-8 text")
        parser.add_argument("--slug", required=True, help="the book's slug in the manifest")
        parser.add_argument("--manifest", type=Path, default=MANIFEST, help="manifest YAML (default: the bundled one)")

    def handle(self, *args, **options):  # type: ignore[no-untyped-def]
        try:
            entries = read_manifest(options["manifest"])
            entry = next((e for e in entries if e["slug"] == options["slug"]), None)
            if entry is None:
                raise CommandError(f"{options['manifest']}: no book has the slug {options['slug']!r}")
            try:
                text = options["path"].read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError) as error:
                raise CommandError(f"{options['path']}: cannot read the text: {error}") from error
            questions = read_questions(entry, options["manifest"].parent)
            result = import_rulebook(entry=entry, text=text, order=entries.index(entry), questions=questions)
        except RulebookImportError as error:
            raise CommandError(error.message) from error
        state = "imported" if result.changed else "unchanged"
        self.stdout.write(
            f"{result.slug}: {state}, {result.passages} passages; kept {result.kept_chars} characters, "
            f"dropped {result.dropped_chars} as noise and {result.duplicate_chars} as repeats"
        )
        done = embed_passages(report=reporter(self.stdout.write))
        if done is None:
            self.stdout.write(
                "rules vectors: another process is computing them; the assistant uses them once it is done"
            )
