from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models
from django.urls import reverse

from cards.models import OrderedJSONField
from cards.vocabulary import RULESETS


class GameSession(models.Model):
    """A scenario being played. The engine's state is stored whole; the seed never leaves the
    server (players get views, play.engine.view)."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    party = models.ForeignKey("campaigns.Party", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    scenario = models.CharField(max_length=200)
    ruleset = models.CharField(max_length=20)
    setup = OrderedJSONField(default=dict)
    initial_state = OrderedJSONField(default=dict)
    state = OrderedJSONField(default=dict)
    version = models.PositiveIntegerField(default=0)
    status = models.CharField(max_length=20, default="playing")
    # The party log entry the result was written to (POST .../finish/), once.
    logged_seq = models.PositiveIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.scenario} ({self.status})"

    def get_absolute_url(self) -> str:
        return reverse("play:table", args=[self.pk])

    @property
    def ruleset_name(self) -> str:
        """What pages show: "Core Set 2019", not core-2019."""
        return RULESETS.get(self.ruleset, self.ruleset)


class SessionPlayer(models.Model):
    """Which user answers for which of the engine's players."""

    session = models.ForeignKey(GameSession, on_delete=models.CASCADE, related_name="players")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    player = models.CharField(max_length=60)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["session", "player"], name="session_player_unique")]

    def __str__(self) -> str:
        return f"{self.player} = {self.user}"


class SessionAction(models.Model):
    """One applied action with the events it caused: the session's log, replayable."""

    session = models.ForeignKey(GameSession, on_delete=models.CASCADE, related_name="actions")
    number = models.PositiveIntegerField()
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    player = models.CharField(max_length=60)
    action = OrderedJSONField(default=dict)
    label = models.CharField(max_length=300, blank=True)  # the answer in words, for the log
    events = OrderedJSONField(default=list)
    version = models.PositiveIntegerField()  # the version the action was based on
    idempotency_key = models.CharField(max_length=100, null=True, blank=True)
    response = OrderedJSONField(default=dict)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["session", "number"]
        constraints = [
            models.UniqueConstraint(fields=["session", "number"], name="session_action_number_unique"),
            models.UniqueConstraint(fields=["session", "idempotency_key"], name="session_action_key_unique"),
        ]

    def __str__(self) -> str:
        return f"#{self.number} {self.player}"


class Simulation(models.Model):
    """A party's scenario auto-played `games` times (play.simulations): the games are split into
    chunks that Celery workers play; each chunk appends its outcomes, and the summary is rebuilt
    from all of them, in game order, so the result does not depend on who played what."""

    STATUSES = ("running", "done", "cancelled", "failed")

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    party = models.ForeignKey("campaigns.Party", on_delete=models.CASCADE, related_name="simulations")
    requested_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    scenario = models.CharField(max_length=200)
    scenario_name = models.CharField(max_length=200)  # as the party knew it then: pages show names
    mode = models.CharField(max_length=20)
    games = models.PositiveIntegerField()
    policy = models.CharField(max_length=20)
    seed = models.CharField(max_length=100)
    # The party's last log entry when it was asked: its decks, as the log gave them then.
    log_version = models.PositiveIntegerField()
    # The request and the setup it played, hashed: the same key is the same result (the cache).
    key = models.CharField(max_length=64, db_index=True)
    ruleset = models.CharField(max_length=20)
    setup = OrderedJSONField(default=dict)
    chunk_size = models.PositiveIntegerField()
    status = models.CharField(max_length=20, default="running")
    done = models.PositiveIntegerField(default=0)
    outcomes = OrderedJSONField(default=list)
    workers = OrderedJSONField(default=dict)  # which worker played how many chunks
    result = OrderedJSONField(default=dict)
    error = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.scenario} {self.mode} x{self.games} ({self.status})"
