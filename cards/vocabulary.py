"""The games' shared words, defined once: games, rules generations and boon types. The card data
format, the models, the campaign log and the API take them from here; the pure engine keeps its
own copy (play/engine/), which a test checks against this one."""

from __future__ import annotations

GAMES = ("pacg", "aventuria")
GAME_NAMES = {"pacg": "PACG", "aventuria": "Aventuria"}
# The rules generations, as pages name them: the Core Set (2019), the classic rules of Wrath of
# the Righteous and Rise of the Runelords, and Aventuria.
RULESETS = {"core-2019": "Core Set 2019", "classic": "Classic (WotR, RotR)", "aventuria": "Aventuria"}
# A rulebook's edition (rules/data/rulebooks/MANIFEST.yaml) -> its rules generation.
EDITIONS = {"core-2019": "core-2019", "classic-2015": "classic", "classic-2013": "classic", "aventuria": "aventuria"}
# PACG's boon types in the order a deck list gives them (Core Set, "Deck List").
BOON_TYPES = ("weapon", "spell", "armor", "item", "ally", "blessing")
