from __future__ import annotations

import json
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.db import models
from django.urls import reverse

from .dataformat.cardtypes import TYPES
from .dataformat.checks import format_check
from .dataformat.schema import SET_KINDS
from .vocabulary import GAMES


class OrderedJSONField(models.TextField):
    """JSON stored as text. PostgreSQL's jsonb sorts object keys, and their order is part of
    the data (a deck list reads weapon, spell, armor...; export must give back what was
    imported). Searches never look inside these values; CardTag holds the searchable facts."""

    # Tell django-stubs the attribute holds decoded JSON (any shape), not the str a TextField would.
    _pyi_private_set_type: Any
    _pyi_private_get_type: Any

    def from_db_value(self, value: str | None, expression: Any, connection: Any) -> Any:
        return None if value is None else json.loads(value)

    def to_python(self, value: Any) -> Any:
        if isinstance(value, str):
            try:
                return json.loads(value)
            except json.JSONDecodeError as error:
                raise ValidationError(f"not valid JSON: {error}") from error
        return value

    def get_prep_value(self, value: Any) -> str | None:
        return None if value is None else json.dumps(value, ensure_ascii=False)

    def value_to_string(self, obj: models.Model) -> str:
        return self.get_prep_value(self.value_from_object(obj)) or ""

    def formfield(self, **kwargs: Any) -> forms.Field:
        return forms.JSONField(required=not self.blank, **kwargs)


class CardSet(models.Model):
    """A product: a base set, an adventure deck, a class deck, a campaign box, or our homebrew."""

    code = models.SlugField(max_length=80, unique=True)
    name = models.CharField(max_length=200)
    game = models.CharField(max_length=20, choices=[(g, g) for g in sorted(GAMES)])
    kind = models.CharField(max_length=30, choices=[(k, k) for k in sorted(SET_KINDS)])
    language = models.CharField(max_length=5, default="en")
    ruleset = models.CharField(max_length=20, blank=True)
    parent = models.ForeignKey("self", null=True, blank=True, on_delete=models.SET_NULL, related_name="children")
    aliases = OrderedJSONField(default=list, blank=True)
    description = models.TextField(blank=True)
    homebrew = models.BooleanField(default=False)
    order = models.PositiveIntegerField(default=0)
    provenance = OrderedJSONField(default=list)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["game", "order", "name"]

    def __str__(self) -> str:
        return self.name


class Card(models.Model):
    """One card of one product. Common facts are columns; the rest of a type's facts are in
    `data`. None means the rulebooks do not state the fact (unknown), never "empty"."""

    uid = models.CharField(max_length=200, unique=True)  # "<set code>.<id>"
    card_set = models.ForeignKey(CardSet, on_delete=models.CASCADE, related_name="cards")
    slug = models.SlugField(max_length=120)  # the id inside its set
    name = models.CharField(max_length=200, db_index=True)
    name_folded = models.CharField(max_length=200, db_index=True)
    type = models.CharField(max_length=30, choices=[(t.name, t.label) for t in TYPES.values()], db_index=True)
    subtype = models.CharField(max_length=30, blank=True)
    level = models.PositiveSmallIntegerField(null=True, blank=True, db_index=True)
    level_code = models.CharField(max_length=5, blank=True)
    traits = OrderedJSONField(null=True, blank=True)
    check_data = OrderedJSONField(null=True, blank=True)  # the record's "check" (Model.check is taken)
    immune = OrderedJSONField(null=True, blank=True)
    vulnerable = OrderedJSONField(null=True, blank=True)
    resistant = OrderedJSONField(null=True, blank=True)
    owner = models.CharField(max_length=100, null=True, blank=True)
    powers = OrderedJSONField(null=True, blank=True)
    text = models.TextField(blank=True)
    aliases = OrderedJSONField(null=True, blank=True)
    language = models.CharField(max_length=5, default="en")
    notes = models.TextField(blank=True)
    incomplete = OrderedJSONField(default=list, blank=True)
    provenance = OrderedJSONField(default=list)
    data = OrderedJSONField(default=dict, blank=True)
    # Folded words between spaces (" ghoul | undead "), see cards.search.words: plain ORM
    # queries match whole words with them, exactly as the search index does.
    name_words = models.TextField(blank=True)  # name and aliases
    power_words = models.TextField(blank=True)  # powers, text and the type's other text fields
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["name", "uid"]
        constraints = [models.UniqueConstraint(fields=["card_set", "slug"], name="card_slug_unique_in_set")]

    def __str__(self) -> str:
        return f"{self.name} ({self.card_set.name})"

    def get_absolute_url(self) -> str:
        return reverse("cards:detail", args=[self.uid])

    @property
    def game(self) -> str:
        return self.card_set.game

    @property
    def type_label(self) -> str:
        return TYPES[self.type].label

    @property
    def group(self) -> str:
        return TYPES[self.type].group

    @property
    def level_display(self) -> str:
        if self.level_code:
            return self.level_code
        return "" if self.level is None else str(self.level)

    @property
    def check_text(self) -> str:
        return format_check(self.check_data) if self.check_data else ""

    def as_record(self) -> dict[str, Any]:
        """The stored form the data format serializes (see cards.dataformat.schema)."""
        return {
            "id": self.slug,
            "name": self.name,
            "type": self.type,
            "subtype": self.subtype,
            "level": self.level,
            "level_code": self.level_code,
            "traits": self.traits,
            "check": self.check_data,
            "immune": self.immune,
            "vulnerable": self.vulnerable,
            "resistant": self.resistant,
            "owner": self.owner,
            "powers": self.powers,
            "text": self.text,
            "aliases": self.aliases,
            "language": self.language,
            "notes": self.notes,
            "incomplete": self.incomplete,
            "provenance": self.provenance,
            "data": self.data,
        }


class CardTag(models.Model):
    """One searchable fact of a card (a trait, an immunity, a check skill, a difficulty, ...),
    folded, derived from the card on every write (cards.search.facts). The search index holds
    the same facts; these rows let the plain-ORM baseline filter with indexed lookups."""

    card = models.ForeignKey(Card, on_delete=models.CASCADE, related_name="tags")
    kind = models.CharField(max_length=10)
    value = models.CharField(max_length=100)
    number = models.IntegerField(null=True)

    class Meta:
        indexes = [models.Index(fields=["kind", "value"]), models.Index(fields=["kind", "number"])]
        constraints = [models.UniqueConstraint(fields=["card", "kind", "value"], name="card_tag_unique")]

    def __str__(self) -> str:
        return f"{self.kind}={self.value}"


class ImportJob(models.Model):
    """A bulk import run by a Celery task; the admin page polls its progress."""

    class Status(models.TextChoices):
        PENDING = "pending"
        RUNNING = "running"
        DONE = "done"
        FAILED = "failed"

    created_by = models.ForeignKey("auth.User", null=True, on_delete=models.SET_NULL)
    created_at = models.DateTimeField(auto_now_add=True)
    filename = models.CharField(max_length=255)
    upload = models.FileField(upload_to="imports/")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    total = models.PositiveIntegerField(default=0)
    processed = models.PositiveIntegerField(default=0)
    summary = OrderedJSONField(default=dict, blank=True)
    errors = OrderedJSONField(default=list, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.filename} ({self.status})"

    @property
    def percent(self) -> int:
        if self.status == self.Status.DONE:
            return 100
        return int(100 * self.processed / self.total) if self.total else 0
