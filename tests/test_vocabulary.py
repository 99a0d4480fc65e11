"""The games' words are defined once (cards/vocabulary.py); the pure engine keeps its own copy,
which must say the same."""

from __future__ import annotations

from campaigns.state import RULESETS as LOG_RULESETS
from cards import vocabulary
from play import engine
from play.engine.cards import BOON_TYPES as ENGINE_BOON_TYPES
from rules.models import Rulebook
from rules.services import read_manifest


def test_the_engine_plays_the_pacg_rulesets_with_the_same_boon_types():
    assert set(engine.RULESETS) == set(vocabulary.RULESETS) - {"aventuria"}
    # The engine also treats loot as a boon type of its own: loot is a boon the books list apart.
    assert (*vocabulary.BOON_TYPES, "loot") == ENGINE_BOON_TYPES


def test_the_campaign_log_has_rules_for_every_ruleset():
    assert set(LOG_RULESETS) == set(vocabulary.RULESETS)


def test_every_rulebook_edition_maps_to_a_ruleset():
    editions = {entry["ruleset"] for entry in read_manifest()}
    assert editions <= set(vocabulary.EDITIONS)
    assert {Rulebook(ruleset=edition).edition for edition in editions} <= set(vocabulary.RULESETS)
