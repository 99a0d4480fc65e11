"""What a party's log folds into: the cards as the rules see them, each edition's campaign rules,
and the state of the party and of each character."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class CardInfo:
    """What the rules need to know about a card, as plain data (from the card database)."""

    uid: str
    name: str
    type: str
    subtype: str = ""
    level: int | None = None
    traits: tuple[str, ...] = ()
    owner: str | None = None
    data: Mapping[str, Any] = field(default_factory=dict)

    @property
    def is_loot(self) -> bool:
        return self.type == "loot" or "Loot" in self.traits

    @property
    def deck_type(self) -> str:
        """The deck-list type a card fills: loot counts as its boon type."""
        return self.subtype if self.type == "loot" and self.subtype else self.type

    @property
    def basic(self) -> bool:
        return any(t in {"Basic", "Básico"} for t in self.traits)


@dataclass(frozen=True)
class Ruleset:
    """The places where the editions' campaign rules differ."""

    name: str
    levels: str  # "level": level caps (core-2019); "basic": the Basic trait, then levels (classic)
    basic_until: int  # classic: the adventure from which the Basic-only rule ends
    feat_limit_per_type: bool  # core: at most the last completed adventure number of each feat type
    feats_from: str  # "hero_point" (core) or "reward" (classic)


RULESETS = {
    "core-2019": Ruleset("core-2019", "level", 0, True, "hero_point"),
    "classic": Ruleset("classic", "basic", 3, False, "reward"),
    "aventuria": Ruleset("aventuria", "level", 0, False, "reward"),
}


@dataclass
class CharacterState:
    id: int
    card: str
    status: str = "alive"  # alive, dead, retired
    hero_points: int = 0
    unspent_award: bool = False  # a hero point awarded by the last event, spendable on a feat
    feats: list[str] = field(default_factory=list)
    role: tuple[str, str] | None = None  # (role card uid, side name)
    mythic_path: str | None = None
    cohort_removed: bool = False
    deck: Counter[str] = field(default_factory=Counter)
    adventure_points: int = 0
    upgrades: dict[str, tuple[int, int]] = field(default_factory=dict)  # card -> (level, adventure upgraded)
    died_after_adventure: int | None = None


@dataclass
class PartyState:
    ruleset: str
    adventure: int = 0  # the adventure being played (0: before the first)
    last_played: int = 0  # adventure number of the most recently played scenario
    last_completed: int = 0  # adventure number of the last scenario completed (won)
    completed: dict[str, set[str]] = field(default_factory=dict)  # scenario -> modes won
    rewards: set[str] = field(default_factory=set)  # rewards earned (scenario/adventure/path ids)
    vault: Counter[str] = field(default_factory=Counter)
    removed: Counter[str] = field(default_factory=Counter)  # removed from the game
    future: Counter[str] = field(default_factory=Counter)  # waiting for a later adventure
    characters: dict[int, CharacterState] = field(default_factory=dict)
    reverted: set[int] = field(default_factory=set)
    applied: int = 0
    scenarios_by_adventure: dict[int, set[str]] = field(default_factory=dict)  # won scenarios
    swaps: int = 0  # feat swaps earned by adventures completed in Heroic or Legendary mode
