"""Feats: what kinds there are, the boxes a character's card offers, and what checked boxes change."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from .state import CardInfo

FEAT = re.compile(r"^(?P<type>skill|card|hand|proficiency|power|role):(?P<rest>.+)$")


def feat_type(feat: str) -> str:
    """skill, card or power (hand size, proficiency and role powers count as power feats)."""
    kind = feat.split(":", 1)[0]
    return {"skill": "skill", "card": "card"}.get(kind, "power")


def feat_boxes(card: CardInfo) -> dict[str, list[str]]:
    """Each group of adjacent boxes on the character card, in left-to-right order."""
    data = card.data
    groups: dict[str, list[str]] = {}
    for entry in data.get("skills", []):
        if entry.get("feats"):
            groups[f"skill:{entry['skill']}"] = [f"skill:{entry['skill']}:+{box}" for box in entry["feats"]]
    for kind, entry in (data.get("deck_list") or {}).items():
        if entry.get("feats"):
            groups[f"card:{kind}"] = [f"card:{kind}:{box}" for box in entry["feats"]]
    if data.get("hand_size_feats"):
        groups["hand"] = [f"hand:{box}" for box in data["hand_size_feats"]]
    for proficiency in data.get("proficiency_feats") or []:
        groups[f"proficiency:{proficiency}"] = [f"proficiency:{proficiency}"]
    return groups


def power_boxes(powers: Iterable[str], prefix: str) -> dict[str, list[str]]:
    """Boxes written "[ ]" in powers: a leading box is the power's own (box 0), which the boxes
    inside it need first."""
    groups = {}
    for index, power in enumerate(powers):
        count = power.count("[ ]")
        if count:
            groups[f"{prefix}:{index}"] = [f"{prefix}:{index}:{box}" for box in range(count)]
    return groups


def power_box_needs_own_box(feat: str, character: CardInfo, role: CardInfo | None, side: str | None) -> str | None:
    """The power's own box a feat needs first, if the power starts with a box."""
    match = re.match(r"^(power|role:[^:]+):(\d+):(\d+)$", feat)
    if not match or match.group(3) == "0":
        return None
    prefix, index = match.group(1), int(match.group(2))
    powers = _powers(character, role, side, prefix)
    if index < len(powers) and powers[index].lstrip().startswith("[ ]"):
        return f"{prefix}:{index}:0"
    return None


def _powers(character: CardInfo, role: CardInfo | None, side: str | None, prefix: str) -> list[str]:
    if prefix == "power":
        return list(character.data.get("powers") or [])
    if role is None:
        return []
    chosen = next((s for s in role.data.get("sides") or [] if s["name"] == side), None)
    return list(chosen.get("powers") or []) if chosen else []


def all_feat_groups(character: CardInfo, role: CardInfo | None, side: str | None) -> dict[str, list[str]]:
    groups = feat_boxes(character) | power_boxes(character.data.get("powers") or [], "power")
    if role is not None and side:
        groups |= power_boxes(_powers(character, role, side, f"role:{side}"), f"role:{side}")
    return groups


def deck_size(entry: Mapping[str, Any], feats: Iterable[str], kind: str) -> int:
    """A deck-list count, raised by the card feats checked for that type (boxes show the new count)."""
    checked = [int(f.rsplit(":", 1)[1]) for f in feats if f.startswith(f"card:{kind}:")]
    return max([entry["count"], *checked])
