from pathlib import Path

import numpy as np
import yaml
from django.core.management.base import BaseCommand, CommandError

from pacg_site import yamltext
from rules import search
from rules.assistant import question_adapter
from rules.assistant.vectors import cached_encode
from rules.models import Passage
from rules.services import MANIFEST, RulebookImportError, read_manifest, read_questions


class Command(BaseCommand):
    help = (
        "Train the map that brings questions nearer their passages' windows (rules.assistant.question_adapter) on the "
        "imported books' own questions (not the development sets'), and write it."
    )

    def add_arguments(self, parser):  # type: ignore[no-untyped-def]
        parser.add_argument("--output", type=Path, default=question_adapter.ADAPTER)
        parser.add_argument("--epochs", type=int, default=question_adapter.EPOCHS)

    def handle(self, *args, **options):  # type: ignore[no-untyped-def]
        if options["epochs"] < 1:
            raise CommandError("--epochs must be at least 1")
        rows = Passage.objects.exclude(embedding=None).values_list("book__slug", "anchor", "embedding")
        position = {(book, anchor): index for index, (book, anchor, _) in enumerate(rows)}
        if not position:
            raise CommandError("no rulebook is imported: run `manage.py bootstrap` first")
        pairs = [
            (position[book, anchor], text) for book, anchor, text in self._questions() if (book, anchor) in position
        ]
        if not pairs:
            raise CommandError("the imported books have no questions of their own to learn from")
        windows = question_adapter.Windows(search.Vectors.of([bytes(blob) for *_, blob in rows]))
        asked = cached_encode([text for _, text in pairs], query=True)
        answers = np.array([index for index, _ in pairs])
        weights, figures = question_adapter.train(asked, answers, windows, epochs=options["epochs"])
        options["output"].parent.mkdir(parents=True, exist_ok=True)
        with options["output"].open("wb") as handle:
            np.save(handle, question_adapter.blended(weights))
        self.stdout.write(
            f"trained on {len(pairs) - figures['held back']} questions of {len(windows.counts)} passages; "
            f"of {figures['held back']} held back, at rank 1 {figures['rank 1 before']:.3f} -> "
            f"{figures['rank 1 after']:.3f}, in the top five {figures['top five before']:.3f} -> "
            f"{figures['top five after']:.3f}; wrote {options['output']}"
        )

    def _questions(self):  # type: ignore[no-untyped-def]
        """(book, anchor, question) for each bundled book's own questions, in file order."""
        for entry in read_manifest():
            try:
                found = read_questions(entry, MANIFEST.parent)
            except RulebookImportError as error:
                raise CommandError(error.message) from error
            if found is None:
                continue
            text = found.path.read_text(encoding="utf-8")
            lines = text.splitlines()
            for key, value in yamltext.compose(text).value:
                assert isinstance(value, yaml.SequenceNode)  # read_questions checked the file
                items = [(item.start_mark.line, " ".join(item.value.split())) for item in value.value]
                for question in question_adapter.own_questions(lines, items):
                    yield entry["slug"], key.value, question
