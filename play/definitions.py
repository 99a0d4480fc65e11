"""Engine definitions from the card database: the play layer's one reader of card facts.

A card record's facts (type, traits, check, immunities, skills, hand size, favored type, deck
list) become the engine's definition; its `effects` section (docs/card-data-format.md), when it
has one, is its powers in the engine's vocabulary. A boon, character or location with no
`effects` is played by declaring its powers (play/engine/declared.py); a card whose check the
data leaves unknown has it entered by the player who meets it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from cards.dataformat.schema import FieldError, format_skills, pacg_skills
from cards.models import Card

from .engine import EngineError
from .engine.cards import BOON_TYPES, validate_definition
from .engine.checks import parse_check

# Cards that are encountered with a check (to defeat or to acquire).
CHECKED_TYPES = {"monster", "barrier", "henchman", "villain", *BOON_TYPES}
DECLARED_TYPES = {"character", "location", "cohort", *BOON_TYPES}
FACTS = ("skills", "hand_size", "favored")


class MissingFacts(Exception):
    """Characters whose skills, hand size or favored card type the data lacks."""

    def __init__(self, missing: dict[str, list[str]]):
        super().__init__(missing)
        self.missing = missing


def engine_definition(card: Card) -> dict[str, Any]:
    """The engine's definition of a database card (before any entered facts)."""
    data = card.data or {}
    definition: dict[str, Any] = {
        "type": card.type,
        "name": card.name,
        "traits": list(card.traits or []),
        "immune": list(card.immune or []),
        "vulnerable": list(card.vulnerable or []),
        "resistant": list(card.resistant or []),
    }
    if card.subtype:
        definition["subtype"] = card.subtype
    if card.level is not None:
        definition["level"] = card.level
    check = _check(card)
    if check:
        definition["check"] = check
    elif card.type in CHECKED_TYPES:
        definition["check_unknown"] = True
    if card.type == "character":
        definition.update(_character_facts(card))
    effects = data.get("effects")
    if effects:
        definition.update(effects)
    elif card.type in DECLARED_TYPES:
        definition["declare"] = True
    return validate_definition(card.uid, definition)


def _check(card: Card) -> str | None:
    text = card.check_text
    if not text:
        return None
    try:
        parse_check(text)
    except EngineError:
        return None  # written in words the engine cannot read: the player enters it
    return text


def _character_facts(card: Card) -> dict[str, Any]:
    data = card.data or {}
    facts: dict[str, Any] = {}
    if data.get("skills") and "skills" not in (card.incomplete or []):
        facts["skills"] = _engine_skills(data["skills"])
    if data.get("hand_size"):
        facts["hand_size"] = int(data["hand_size"])
    if data.get("favored") and not str(data["favored"]).lower().startswith("any"):
        facts["favored"] = str(data["favored"]).lower()  # "any card type": the player chooses
    return facts


def _engine_skills(skills: list[dict[str, Any]]) -> dict[str, str]:
    """The data format's skills (feat boxes included) as the engine writes them."""
    return {name: value.split("[", 1)[0].strip() for name, value in format_skills(skills).items()}


def missing_facts(definition: Mapping[str, Any]) -> list[str]:
    return [fact for fact in FACTS if not definition.get(fact)]


def entered_facts(name: str, given: Any) -> dict[str, Any]:
    """Facts a player entered for a character, checked: `skills` as on the card
    ({Strength: d12, Melee: Strength +2} or "Strength d12, Melee: Strength +2"), `hand_size`,
    `favored` (a card type). Raises ValueError naming what is wrong."""
    if not isinstance(given, Mapping):
        raise ValueError(f"{name}: facts are a mapping of skills, hand_size and favored")
    unknown = sorted(set(given) - set(FACTS))
    if unknown:
        raise ValueError(f"{name}: {unknown[0]!r} is not a fact that can be entered (use {', '.join(FACTS)})")
    facts: dict[str, Any] = {}
    if "skills" in given:
        raw = given["skills"]
        if isinstance(raw, str):
            raw = _skills_from_text(name, raw)
        try:
            facts["skills"] = _engine_skills(pacg_skills(raw))
        except FieldError as error:
            raise ValueError(f"{name}'s skills: {error.message}") from None
    if "hand_size" in given:
        size = given["hand_size"]
        if isinstance(size, str) and size.strip().isdigit():
            size = int(size)
        if isinstance(size, bool) or not isinstance(size, int) or not 1 <= size <= 10:
            raise ValueError(f"{name}'s hand size must be a whole number from 1 to 10")
        facts["hand_size"] = size
    if "favored" in given:
        favored = str(given["favored"]).strip().lower()
        if favored not in BOON_TYPES:
            raise ValueError(f"{name}'s favored card type must be one of {', '.join(BOON_TYPES)}")
        facts["favored"] = favored
    return facts


def _skills_from_text(name: str, text: str) -> dict[str, str]:
    """ "Strength d12, Dexterity d8, Melee: Strength +2" -> {Strength: d12, ...}."""
    skills = {}
    for part in text.replace(";", ",").replace("\n", ",").split(","):
        part = part.strip()
        if not part:
            continue
        skill, sep, value = part.partition(":")
        if not sep:
            skill, _, value = part.partition(" ")
        if not value.strip():
            raise ValueError(f"{name}'s skills: write each as 'Strength d12' or 'Melee: Strength +2', not {part!r}")
        skills[skill.strip()] = value.strip()
    return skills


def with_feats(definition: dict[str, Any], feats: Iterable[str]) -> dict[str, Any]:
    """Checked feats on top of the card: a skill feat raises that skill by its highest checked
    box (`skill:Strength:+2`), a hand-size feat sets the hand size (`hand:5`)."""
    skills = dict(definition.get("skills") or {})
    hand_size = definition.get("hand_size")
    bonus: dict[str, int] = {}
    for feat in feats:
        parts = feat.split(":")
        if parts[0] == "skill" and len(parts) == 3 and parts[1] in skills:
            bonus[parts[1]] = max(bonus.get(parts[1], 0), int(parts[2].lstrip("+")))
        elif parts[0] == "hand" and len(parts) == 2 and parts[1].isdigit():
            hand_size = max(int(hand_size or 0), int(parts[1]))
    for skill, plus in bonus.items():
        value = skills[skill]
        die, _, modifier = value.partition("+") if value.startswith("d") else (value, "", "")
        if value.startswith("d"):
            skills[skill] = f"{die.strip()}+{int(modifier or 0) + plus}"
        else:
            base, _, number = value.rpartition(" ")
            skills[skill] = f"{base} +{int(number) + plus}" if number.lstrip("+-").isdigit() else f"{value} +{plus}"
    return {**definition, "skills": skills, **({"hand_size": hand_size} if hand_size else {})}


def definitions_for(uids: Iterable[str]) -> dict[str, dict[str, Any]]:
    """Engine definitions for these database cards, keyed by uid."""
    cards = Card.objects.filter(uid__in=set(uids)).select_related("card_set")
    return {card.uid: engine_definition(card) for card in cards}
