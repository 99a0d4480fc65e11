"""Checks as written on cards, and skills as written on characters.

`Combat 13 + 2AN or Arcane or Knowledge 7 + AN` is a list of alternatives; `then` chains
alternatives into a sequence ("or" binds tighter than "then"). AN is the adventure number.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from .errors import EngineError

SKILLS = (
    "Strength", "Dexterity", "Constitution", "Intelligence", "Wisdom", "Charisma", "Melee", "Ranged", "Arcane",
    "Divine", "Knowledge", "Perception", "Acrobatics", "Stealth", "Disable", "Diplomacy", "Fortitude", "Survival",
    "Craft", "Combat",
)  # fmt: skip
COMBAT = "Combat"
# "if you aren't using such a power, use your Strength or Melee skill for your combat check"
COMBAT_DEFAULT_SKILLS = ("Strength", "Melee")
UNSKILLED_DIE = 4

_DIFFICULTY = re.compile(r"(\d+)((?:\s*[+-]\s*\d*\s*AN\b)*)", re.IGNORECASE)
_AN_TERM = re.compile(r"([+-])\s*(\d*)\s*AN", re.IGNORECASE)
_DIE = re.compile(r"^d(\d+)\s*([+-]\s*\d+)?")
_DERIVED = re.compile(r"^([A-Za-z]+)\s*([+-]\s*\d+)?$")


def _alternatives(text: str) -> list[dict[str, Any]]:
    alternatives: list[dict[str, Any]] = []
    skills: list[str] = []
    position = 0
    for match in _DIFFICULTY.finditer(text):
        words = re.split(r"[\s,]+", text[position : match.start()])
        skills.extend(word for word in words if word and word.lower() != "or")
        if not skills:
            raise EngineError(f"a difficulty without a skill in the check {text!r}")
        unknown = [skill for skill in skills if skill not in SKILLS]
        if unknown:
            raise EngineError(f"unknown skill {unknown[0]!r} in the check {text!r}")
        an = sum((-1 if sign == "-" else 1) * int(count or 1) for sign, count in _AN_TERM.findall(match.group(2)))
        alternatives.append({"skills": skills, "base": int(match.group(1)), "an": an})
        skills = []
        position = match.end()
    if text[position:].strip(" ,") or not alternatives:
        raise EngineError(f"cannot read the check {text!r}")
    return alternatives


@lru_cache(maxsize=1024)
def _parse(text: str) -> tuple[tuple[dict[str, Any], ...], ...]:
    cleaned = " ".join(text.split())
    if cleaned.lower() in ("", "none", "see below"):
        return ()
    return tuple(tuple(_alternatives(part)) for part in re.split(r"\s+then\s+", cleaned, flags=re.IGNORECASE))


def parse_check(text: str | None) -> list[list[dict[str, Any]]]:
    """A sequence of steps, each a list of alternatives {skills, base, an}. [] for None/unknown."""
    if text is None:
        return []
    return [[dict(alternative, skills=list(alternative["skills"])) for alternative in step] for step in _parse(text)]


def difficulty(alternative: dict[str, Any], adventure: int) -> int:
    return int(alternative["base"]) + int(alternative["an"]) * adventure


def resolve_skill(skills: dict[str, str], name: str) -> tuple[int, int, list[str]]:
    """(die sides, modifier, traits) of a character's skill: `Melee: Strength +2` with
    `Strength: d12` is (12, 2, [Melee, Strength]). A skill the character lacks is a d4."""
    seen: list[str] = []
    modifier = 0
    current = name
    while True:
        if current in seen:
            raise EngineError(f"the skill {name} refers to itself")
        seen.append(current)
        text = skills.get(current)
        if text is None:
            return (UNSKILLED_DIE, 0, [name]) if current == name else (UNSKILLED_DIE, modifier, seen)
        text = re.sub(r"\[.*?\]", "", text).strip()  # feat boxes nobody has checked
        die = _DIE.match(text)
        if die:
            return int(die.group(1)), modifier + int((die.group(2) or "0").replace(" ", "")), seen
        derived = _DERIVED.match(text)
        if not derived:
            raise EngineError(f"cannot read the skill {current}: {text!r}")
        modifier += int((derived.group(2) or "0").replace(" ", ""))
        current = derived.group(1)
