from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from cards.services import CardImportError, import_card_files


class Command(BaseCommand):
    help = "Import card data files (YAML, JSON or CSV; docs/card-data-format.md). All or nothing."

    def add_arguments(self, parser):  # type: ignore[no-untyped-def]
        parser.add_argument("paths", nargs="+", type=Path, help="files, or directories of .yaml/.json/.csv files")
        parser.add_argument(
            "--prune", action="store_true", help="delete cards of the imported sets that the files no longer contain"
        )

    def handle(self, *args, **options):  # type: ignore[no-untyped-def]
        paths = expand(options["paths"])
        try:
            summary = import_card_files(paths=paths, prune=options["prune"])
        except CardImportError as error:
            for problem in error.errors:
                self.stderr.write(str(problem))
            raise CommandError(f"{len(error.errors)} problem(s); nothing was imported") from error
        self.stdout.write(
            f"{len(paths)} file(s): {summary.created} created, {summary.updated} updated, "
            f"{summary.unchanged} unchanged, {summary.deleted} deleted; "
            f"sets: {summary.sets_created} created, {summary.sets_updated} updated"
        )


def expand(paths: list[Path]) -> list[Path]:
    files: list[Path] = []
    for path in paths:
        if path.is_dir():
            files += sorted(p for p in path.iterdir() if p.suffix.lower() in {".yaml", ".yml", ".json", ".csv"})
        else:
            files.append(path)
    return files
