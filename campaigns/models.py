from __future__ import annotations

from django.conf import settings
from django.db import models
from django.urls import reverse

from cards import vocabulary
from cards.models import Card, CardSet, OrderedJSONField

RULESETS = list(vocabulary.RULESETS.items())


class Party(models.Model):
    """A group playing a campaign. Its changing state (decks, feats, vault, progress) is not
    stored here: it is derived from the party's log (campaigns.log)."""

    name = models.CharField(max_length=120)
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="owned_parties")
    members = models.ManyToManyField(settings.AUTH_USER_MODEL, related_name="parties", blank=True)
    game = models.CharField(max_length=20, choices=list(vocabulary.GAME_NAMES.items()))
    ruleset = models.CharField(max_length=20, choices=RULESETS)
    adventure_path = models.ForeignKey(Card, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    products = models.ManyToManyField(CardSet, blank=True, related_name="+")
    notes = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name", "pk"]
        verbose_name_plural = "parties"

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("campaigns:party", args=[self.pk])


class Character(models.Model):
    """A character of a party: a character card (or Aventuria hero) played by a member."""

    party = models.ForeignKey(Party, on_delete=models.CASCADE, related_name="characters")
    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="characters")
    player_name = models.CharField(max_length=80, blank=True)
    card = models.ForeignKey(Card, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["party", "pk"]

    def __str__(self) -> str:
        return f"{self.card.name} ({self.player_name or self.player.username})"

    def get_absolute_url(self) -> str:
        return reverse("campaigns:character", args=[self.pk])


class LogEvent(models.Model):
    """One entry of a party's append-only campaign log. A mistake is undone by a `revert`
    event naming it, so history stays visible."""

    party = models.ForeignKey(Party, on_delete=models.CASCADE, related_name="log")
    seq = models.PositiveIntegerField()
    kind = models.CharField(max_length=40)
    character = models.ForeignKey(Character, null=True, blank=True, on_delete=models.CASCADE, related_name="+")
    data = OrderedJSONField(default=dict)
    author = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["party", "seq"]
        constraints = [models.UniqueConstraint(fields=["party", "seq"], name="log_seq_unique_in_party")]

    def __str__(self) -> str:
        return f"#{self.seq} {self.kind}"
