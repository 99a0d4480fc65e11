from __future__ import annotations

from django.db import models
from django.urls import reverse

from cards.models import OrderedJSONField
from cards.vocabulary import EDITIONS


class RulebookManager(models.Manager["Rulebook"]):
    def get_queryset(self) -> models.QuerySet[Rulebook]:
        # The source text (megabytes a book) is kept, not shown: no page or answer reads it.
        return super().get_queryset().defer("source")


class Rulebook(models.Model):
    """A rulebook as its manifest describes it, with its source text and what the split kept."""

    slug = models.SlugField(max_length=40, unique=True)
    title = models.CharField(max_length=300)
    game = models.CharField(max_length=20)
    ruleset = models.CharField(max_length=30)
    language = models.CharField(max_length=5)
    notes = models.TextField(blank=True)
    filename = models.CharField(max_length=200)
    source = models.TextField()
    source_sha256 = models.CharField(max_length=64)
    layout = models.CharField(max_length=10)
    kept_chars = models.PositiveIntegerField(default=0)
    dropped_chars = models.PositiveIntegerField(default=0)
    duplicate_chars = models.PositiveIntegerField(default=0)
    order = models.PositiveSmallIntegerField(default=0)
    imported_at = models.DateTimeField(auto_now=True)

    objects = RulebookManager()

    class Meta:
        ordering = ["order", "slug"]

    def __str__(self) -> str:
        return self.title

    def get_absolute_url(self) -> str:
        return reverse("rules:book", args=[self.slug])

    @property
    def edition(self) -> str:
        """core-2019, classic or aventuria: the rules generation the book belongs to."""
        return EDITIONS.get(self.ruleset, self.ruleset)


class PassageQuerySet(models.QuerySet["Passage"]):
    def shown(self) -> PassageQuerySet:
        """With their books, as pages and answers show them: not their vectors nor the book's
        whole source text (megabytes a row, read for nothing)."""
        return self.select_related("book").defer("embedding", "question_embedding", "book__source")


class Passage(models.Model):
    """One section, sidebar, step, glossary entry, reference item or example (or one part of a
    long section), quoted exactly as the book has it after noise removal."""

    KINDS = ["section", "step", "rules", "strategy", "example", "new", "glossary", "reference", "play-example"]

    book = models.ForeignKey(Rulebook, on_delete=models.CASCADE, related_name="passages")
    anchor = models.SlugField(max_length=120)
    order = models.PositiveIntegerField()
    kind = models.CharField(max_length=20, choices=[(k, k) for k in KINDS])
    heading = models.CharField(max_length=300)
    path = OrderedJSONField(default=list)
    part = models.PositiveSmallIntegerField(default=0)
    text = models.TextField()
    concepts = OrderedJSONField(default=list)
    # Cross-references found in the text: [{"start", "end", "anchor"}] ("see Dying on page 13").
    links = OrderedJSONField(default=list)
    # Embeddings of the passage's sentence windows (n x 384 float32, rules.assistant.embeddings), from import.
    embedding = models.BinaryField(null=True, editable=False)
    # Questions players ask that the passage answers (the book's questions file, written from the
    # passage): indexed beside its words and embedded, so that a player's wording finds the rule.
    questions = OrderedJSONField(default=list)
    question_embedding = models.BinaryField(null=True, editable=False)

    objects = PassageQuerySet.as_manager()

    class Meta:
        ordering = ["book", "order"]
        constraints = [models.UniqueConstraint(fields=["book", "anchor"], name="passage_anchor_unique_in_book")]

    def __str__(self) -> str:
        return f"{self.book.slug}: {self.title}"

    def get_absolute_url(self) -> str:
        return reverse("rules:passage", args=[self.book.slug, self.anchor])

    @property
    def title(self) -> str:
        suffix = f" ({self.part})" if self.part else ""
        return " › ".join([*self.path, self.heading]) + suffix
