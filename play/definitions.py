"""Engine definitions from the card database, and the facts players enter where it is silent.

Every card reaches the engine as its canonical record (cards.dataformat.serialize_card) read by
play.engine.carddata, exactly as the starter pack's data file is: facts from the record, powers
from its `effects` section; a card without one is played by declaring its powers.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from cards.dataformat.fields import FieldError, format_skills, pacg_skills
from cards.dataformat.schema import serialize_card
from cards.models import Card

from .engine.carddata import definition_from_record
from .engine.cards import BOON_TYPES

FACTS = ("skills", "hand_size", "favored")


class MissingFacts(Exception):
    """Characters whose skills, hand size or favored card type the data lacks."""

    def __init__(self, missing: dict[str, list[str]]):
        super().__init__(missing)
        self.missing = missing


def engine_definition(card: Card) -> dict[str, Any]:
    """The engine's definition of a database card (before any entered facts): its canonical
    record, read as the engine reads every card file (play.engine.carddata)."""
    record = serialize_card(card.as_record() | {"set_language": card.language})
    return definition_from_record(card.uid, record)


def _engine_skills(skills: list[dict[str, Any]]) -> dict[str, str]:
    """Entered skills (the data format's form) as the engine writes them."""
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


@dataclass(frozen=True)
class ScenarioData:
    """A database scenario card read for setup: its engine definition with the story banes as
    card uids, what the data leaves unknown, and the card names it could not find."""

    uid: str
    name: str
    definition: dict[str, Any]
    card_set: int
    language: str
    unknown: list[str] = field(default_factory=list)  # "villains", "henchmen" the data does not give
    unfound: list[str] = field(default_factory=list)  # names of story banes not in the database


def scenario_data(uid: str) -> ScenarioData | None:
    """A scenario card of the database ready for setup, or None if there is no such card. The
    data format names the villains, henchmen, dangers and proxies; the engine wants card uids,
    looked up by name in the scenario's card set first, then among the cards of its language."""
    card = Card.objects.filter(uid=uid, type="scenario").select_related("card_set").first()
    if card is None:
        return None
    definition = engine_definition(card)
    record = serialize_card(card.as_record() | {"set_language": card.language})
    unknown = [key for key in ("villains", "henchmen") if key not in definition and record.get(key) is None]
    entries = [entry if isinstance(entry, Mapping) else {"name": entry} for entry in record.get("henchmen") or []]
    names = {*(record.get("villains") or []), *(record.get("dangers") or [])}
    names |= {entry[key] for entry in entries for key in ("name", "proxy") if entry.get(key)}
    found = _uids_by_name(names, card)
    if "villains" not in definition and record.get("villains") is not None:
        definition["villains"] = [found[name] for name in record["villains"] if name in found]
    if "henchmen" not in definition and record.get("henchmen") is not None:
        henchmen = []
        for entry in entries:
            if entry["name"] not in found:
                continue
            engine_entry: dict[str, Any] = {"card": found[entry["name"]], "closing": bool(entry.get("closing"))}
            if entry.get("proxy") in found:
                engine_entry["proxy"] = found[entry["proxy"]]
            henchmen.extend([engine_entry] * int(entry.get("count") or 1))
        definition["henchmen"] = henchmen
    if "dangers" not in definition:
        definition["dangers"] = [found[name] for name in record.get("dangers") or [] if name in found]
    return ScenarioData(
        uid=card.uid,
        name=card.name,
        definition=definition,
        card_set=card.card_set_id,
        language=card.language,
        unknown=unknown,
        unfound=sorted(names - set(found)),
    )


def _uids_by_name(names: set[str], scenario: Card) -> dict[str, str]:
    found: dict[str, str] = {}
    for cards in (
        Card.objects.filter(card_set=scenario.card_set, name__in=names),
        Card.objects.filter(language=scenario.language, name__in=names).order_by("card_set__code", "uid"),
    ):
        for name, uid in cards.values_list("name", "uid"):
            found.setdefault(name, uid)
    return found
