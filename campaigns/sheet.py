"""What a character's checked feats mean: skills with their dice and modifiers, hand size, the
deck list with card feats, powers with their checked parentheticals."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from .feats import deck_size
from .state import CardInfo, CharacterState


@dataclass
class SkillLine:
    name: str
    die: str | None  # None: the books don't give this skill's die
    modifier: int
    base: str | None = None

    @property
    def text(self) -> str:
        if self.die is None:
            return f"{self.name} ?" + (f" ({self.base} {self.modifier:+d})" if self.base else "")
        return f"{self.name} {self.die}" + (f"{self.modifier:+d}" if self.modifier else "")


@dataclass
class Power:
    text: str
    parts: list[dict[str, Any]]  # [{"text": ..., "box": feat key or None, "checked": bool}]


def skill_lines(card: CardInfo, feats: Iterable[str]) -> list[SkillLine]:
    """'Strength d10 [+1 +2]' with +1 checked is d10+1; 'Melee: Strength +3' is then d10+4
    (a "+2" box replaces "+1", never adds to it)."""
    feats = set(feats)
    entries = card.data.get("skills") or []
    bonus = {
        entry["skill"]: max([0, *[box for box in entry.get("feats", []) if f"skill:{entry['skill']}:+{box}" in feats]])
        for entry in entries
    }
    dice = {entry["skill"]: entry.get("die") for entry in entries}
    lines = []
    for entry in entries:
        name = entry["skill"]
        if "die" in entry:
            lines.append(SkillLine(name, entry["die"], bonus[name]))
        else:
            base = entry["base"]
            lines.append(
                SkillLine(name, dice.get(base), bonus.get(base, 0) + entry.get("modifier", 0) + bonus[name], base)
            )
    return lines


def hand_size(card: CardInfo, feats: Iterable[str]) -> int | None:
    base = card.data.get("hand_size")
    if base is None:
        return None
    checked = [int(f.split(":")[1]) for f in feats if f.startswith("hand:")]
    return max([base, *checked])


def deck_list(card: CardInfo, feats: Iterable[str]) -> dict[str, int]:
    feats = list(feats)
    return {kind: deck_size(entry, feats, kind) for kind, entry in (card.data.get("deck_list") or {}).items()}


def powers(texts: Iterable[str], prefix: str, feats: Iterable[str]) -> list[Power]:
    """Each "[ ]" box becomes checked or not; an unchecked parenthetical is to be ignored."""
    feats = set(feats)
    result = []
    for index, text in enumerate(texts):
        parts: list[dict[str, Any]] = []
        pieces = re.split(r"\[ \]", text)
        for number, piece in enumerate(pieces):
            if number:
                key = f"{prefix}:{index}:{number - 1}"
                parts.append({"text": "", "box": key, "checked": key in feats})
            parts.append({"text": piece, "box": None, "checked": False})
        result.append(Power(text, parts))
    return result


def sheet(card: CardInfo, state: CharacterState, role: CardInfo | None = None) -> dict[str, Any]:
    side_powers: list[Power] = []
    if role is not None and state.role:
        side = next((s for s in role.data.get("sides") or [] if s["name"] == state.role[1]), None)
        side_powers = powers((side or {}).get("powers") or [], f"role:{state.role[1]}", state.feats)
    return {
        "skills": skill_lines(card, state.feats),
        "hand_size": hand_size(card, state.feats),
        "deck_list": deck_list(card, state.feats),
        "powers": powers(card.data.get("powers") or [], "power", state.feats) if not side_powers else [],
        "role_powers": side_powers,
        "proficiencies": [
            *(card.data.get("proficiencies") or []),
            *[f.split(":", 1)[1] for f in state.feats if f.startswith("proficiency:")],
        ],
        "feats": state.feats,
    }
