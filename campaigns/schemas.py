"""What the campaign API answers, as OpenAPI components (the bodies are built in api.py)."""

from __future__ import annotations

from rest_framework import serializers

from cards.vocabulary import GAMES
from cards.vocabulary import RULESETS as RULESET_NAMES
from pacg_site.api import StrictSerializer

RULESETS = list(RULESET_NAMES)
STATUSES = ["alive", "dead", "retired"]


class Party(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    game = serializers.ChoiceField(choices=GAMES)
    ruleset = serializers.ChoiceField(choices=RULESETS)
    owner = serializers.CharField(help_text="username")
    members = serializers.ListField(child=serializers.CharField(), help_text="usernames")
    adventure_path = serializers.CharField(allow_null=True, help_text="card id of the adventure path")
    products = serializers.ListField(child=serializers.CharField(), help_text="card set codes")
    notes = serializers.CharField(allow_blank=True)
    url = serializers.CharField(help_text="the party's page")


class CharacterSummary(serializers.Serializer):
    card = serializers.CharField()
    status = serializers.ChoiceField(choices=STATUSES)
    hero_points = serializers.IntegerField()
    feats = serializers.IntegerField(help_text="how many feats are checked")


class PartyStateSummary(serializers.Serializer):
    adventure = serializers.IntegerField(help_text="the adventure being played (0: before the first)")
    last_played_adventure = serializers.IntegerField()
    last_completed_adventure = serializers.IntegerField()
    completed = serializers.DictField(
        child=serializers.ListField(child=serializers.CharField()), help_text="scenario card id: modes won"
    )
    vault_size = serializers.IntegerField()
    characters = serializers.DictField(child=CharacterSummary(), help_text="per character id")


class PartyDetail(Party):
    state = PartyStateSummary(help_text="derived from the campaign log")


class Character(serializers.Serializer):
    """A character sheet; only id, card and name while its creation is reverted in the log."""

    id = serializers.IntegerField()
    party = serializers.IntegerField(required=False)
    card = serializers.CharField(help_text="the character card's id")
    name = serializers.CharField()
    player = serializers.CharField(required=False, help_text="username")
    player_name = serializers.CharField(required=False, allow_blank=True)
    status = serializers.ChoiceField(choices=STATUSES, required=False)
    hero_points = serializers.IntegerField(required=False)
    role = serializers.ListField(
        child=serializers.CharField(), allow_null=True, required=False, help_text="[role card id, side]"
    )
    mythic_path = serializers.CharField(allow_null=True, required=False)
    cohort_removed = serializers.BooleanField(required=False)
    skills = serializers.ListField(child=serializers.CharField(), required=False)
    hand_size = serializers.IntegerField(allow_null=True, required=False)
    deck_list = serializers.DictField(child=serializers.IntegerField(), required=False, help_text="per card type")
    feats = serializers.ListField(child=serializers.CharField(), required=False)
    powers = serializers.ListField(child=serializers.CharField(), required=False)
    deck = serializers.DictField(child=serializers.IntegerField(), required=False, help_text="card id: copies")
    adventure_points = serializers.IntegerField(required=False)
    url = serializers.CharField(required=False)


class Deck(serializers.Serializer):
    deck = serializers.DictField(child=serializers.IntegerField(), help_text="card id: copies")


class DeckRebuilt(Deck):
    valid = serializers.BooleanField()
    dry_run = serializers.BooleanField()
    event = serializers.IntegerField(allow_null=True, help_text="the log entry's number; null on a dry run")


class LogEntry(serializers.Serializer):
    seq = serializers.IntegerField(help_text="its number in the party's log, from 1")
    kind = serializers.CharField()
    character = serializers.IntegerField(allow_null=True)
    data = serializers.DictField()
    author = serializers.CharField(allow_null=True)
    created_at = serializers.DateTimeField()


class LogListEntry(LogEntry):
    reverted = serializers.BooleanField()


class LogAppended(serializers.Serializer):
    dry_run = serializers.BooleanField()
    state = PartyStateSummary()
    event = LogEntry(required=False, help_text="absent on a dry run")


class Reverted(serializers.Serializer):
    event = LogEntry()
    state = PartyStateSummary()


class VaultLine(serializers.Serializer):
    card = serializers.CharField()
    name = serializers.CharField()
    count = serializers.IntegerField()


class Vault(serializers.Serializer):
    vault = VaultLine(many=True)
    removed_from_game = VaultLine(many=True)
    future_adventures = VaultLine(many=True)


class DocumentParty(StrictSerializer):
    name = serializers.CharField()
    game = serializers.ChoiceField(choices=GAMES)
    ruleset = serializers.ChoiceField(choices=RULESETS)
    adventure_path = serializers.CharField(allow_null=True, required=False)
    products = serializers.ListField(child=serializers.CharField(), required=False)
    notes = serializers.CharField(allow_blank=True, required=False)


class DocumentCharacter(StrictSerializer):
    id = serializers.IntegerField(help_text="the character's number within this document")
    card = serializers.CharField()
    player = serializers.CharField(help_text="username; the importer stands in for one this server lacks")
    player_name = serializers.CharField(allow_blank=True, required=False)


class DocumentEntry(StrictSerializer):
    seq = serializers.IntegerField(min_value=1)
    kind = serializers.CharField()
    character = serializers.IntegerField(allow_null=True, required=False)
    data = serializers.DictField(required=False)
    author = serializers.CharField(allow_null=True, required=False)


class PartyDocument(StrictSerializer):
    """A whole party as one document: what `export` answers and `import` takes."""

    format = serializers.ChoiceField(choices=["pacg-party/1"])
    party = DocumentParty()
    owner = serializers.CharField(required=False)
    members = serializers.ListField(child=serializers.CharField(), required=False)
    characters = DocumentCharacter(many=True)
    log = DocumentEntry(many=True)
