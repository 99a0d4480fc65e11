"""The campaign rules as the rulebooks state them, each with its book and section: a refusal
(RuleViolation) quotes the rule it applies."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pacg_site.errors import DomainError


@dataclass(frozen=True)
class Rule:
    id: str
    text: str
    book: str
    section: str


RULES = {
    rule.id: rule
    for rule in [
        Rule(
            "deck-list",
            "The deck has exactly the number of each card type the deck list and the checked card feats allow; "
            "Loot counts as its type.",
            "core",
            "Rebuilding",
        ),
        Rule(
            "deck-list-classic",
            "The deck meets the Cards List; loot cards count as cards of their type.",
            "wotr",
            "Between Games",
        ),
        Rule(
            "card-level",
            "You may not keep cards whose level is higher than the most recently played scenario's "
            "adventure number, except Loot; an Owner may treat the card as level 0.",
            "core",
            "Rebuilding",
        ),
        Rule(
            "vault-level",
            "Cards you need from the vault have a level of at most the most recently played scenario's "
            "adventure number minus 2 (minimum 0).",
            "core",
            "Rebuilding",
        ),
        Rule(
            "basic-only",
            "Extra cards from the box must have the Basic trait until the adventure Demon's Heresy begins; "
            "then cards at least 2 adventure deck numbers below the current adventure.",
            "wotr",
            "Between Games",
        ),
        Rule(
            "new-character",
            "A new character builds a deck of level 0 cards; after a death, of cards up to the most "
            "recently played scenario's adventure number minus 2.",
            "core",
            "Dying",
        ),
        Rule(
            "new-character-classic",
            "A new character builds a deck of cards with the Basic trait.",
            "wotr",
            "Setting Up",
        ),
        Rule(
            "feat-order",
            "Adjacent feat boxes are checked left to right; a box inside a power needs the power's own box first.",
            "core",
            "Rules: Feats",
        ),
        Rule(
            "feat-limit",
            "For each type of feat, the maximum number you may check is the adventure number of the last "
            "scenario you completed.",
            "core",
            "Rules: Feats",
        ),
        Rule(
            "feat-by-hero-point",
            "You can only spend a hero point to gain a feat when it is awarded to you.",
            "core",
            "Rules: Hero Points",
        ),
        Rule(
            "feat-by-reward",
            "Classic rewards name the feat they give; a feat is gained only from such a reward.",
            "wotr",
            "Feats",
        ),
        Rule(
            "feat-swap",
            "When your character completes all of the scenarios in an adventure in Heroic or Legendary "
            "mode, you may erase 1 feat then gain 1 feat of the same type.",
            "core",
            "Normal, Heroic, and Legendary Modes",
        ),
        Rule("hero-points", "Hero points are spent one at a time and never below zero.", "core", "Rules: Hero Points"),
        Rule(
            "return-from-death",
            "To return from death after the scenario, you spend all of your hero points (minimum 1).",
            "core",
            "Dying",
        ),
        Rule(
            "role",
            "When you are rewarded with a role, select one of the two sides; feats already checked carry over, "
            "and later power feats come from that side.",
            "core",
            "Roles",
        ),
        Rule(
            "mythic-path",
            "A mythic path is chosen once, at the end of The Worldwound Incursion, and cannot change.",
            "wotr",
            "Support Cards (Cohort, Mythic Path, and Redemption)",
        ),
        Rule(
            "reward-once",
            "You may not earn the reward from a given scenario, adventure, or Adventure Path more than once "
            "unless the reward specifically says otherwise.",
            "core",
            "Ending a Scenario, Adventure, or Adventure Path",
        ),
        Rule("physical-copy", "A card is in one place: the vault, or one character's deck.", "core", "Build the Vault"),
        Rule("loot-level", "A Loot card's level is the adventure number plus 1.", "core", "Rules: Loot"),
        Rule("alive", "Dead or retired characters take no part in the campaign until they return.", "core", "Dying"),
        Rule(
            "aventuria-deck",
            "A hero deck is exactly 30 Action Cards plus any Disadvantage Cards, within the category "
            "limits of the Skill Card.",
            "aventuria",
            "Restrictions",
        ),
        Rule(
            "aventuria-ap",
            "Adventure Points buy reward cards (2 AP), upgrades (level 1 to 2 and 2 to 3: 3 AP for a hero "
            "or skill card, 1 AP for an action card, never 1 to 3 directly, at least one adventure between) and "
            "recovery (1 AP removes all disadvantage cards).",
            "aventuria",
            "Spending Adventure Points",
        ),
    ]
}


class RuleViolation(DomainError):
    code = "rule_violation"

    def __init__(self, rule_id: str, message: str, **details: Any):
        rule = RULES[rule_id]
        super().__init__(
            f"{message} — {rule.text} ({rule.book}, “{rule.section}”)",
            details={"rule": rule.id, "source": {"book": rule.book, "section": rule.section}, **details},
        )
