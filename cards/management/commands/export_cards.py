from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from cards.models import CardSet
from cards.services import export_sets


class Command(BaseCommand):
    help = "Export sets as canonical card data files (one YAML file per set) into a directory."

    def add_arguments(self, parser):  # type: ignore[no-untyped-def]
        parser.add_argument("directory", type=Path)
        parser.add_argument("--set", dest="sets", action="append", help="only this set code (repeatable)")

    def handle(self, *args, **options):  # type: ignore[no-untyped-def]
        codes = options["sets"]
        if codes:
            missing = set(codes) - set(CardSet.objects.filter(code__in=codes).values_list("code", flat=True))
            if missing:
                raise CommandError(f"no set has the code(s): {', '.join(sorted(missing))}")
        written = export_sets(directory=options["directory"], codes=codes)
        self.stdout.write(f"wrote {len(written)} file(s) to {options['directory']}")
