from django.core.management.base import BaseCommand

from rules.assistant.vectors import embed_passages, progress, reporter


class Command(BaseCommand):
    help = (
        "Compute the vectors of every passage that lacks them, which the rules assistant needs for its full pipeline."
    )

    def handle(self, *args, **options):  # type: ignore[no-untyped-def]
        done = embed_passages(report=reporter(self.stdout.write))
        if done is None:
            self.stdout.write(f"rules vectors: another process is computing them; {progress()}")
        elif done.ready:
            self.stdout.write(f"rules vectors: {done}; the assistant uses its full pipeline")
