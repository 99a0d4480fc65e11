"""The skills checks may name, in English (stored) with the Spanish words of the RotR book."""

from __future__ import annotations

from .text import fold

# Attributes, derived skills, and the two words checks use that are not character skills.
SKILLS = [
    "Strength",
    "Dexterity",
    "Constitution",
    "Intelligence",
    "Wisdom",
    "Charisma",
    "Melee",
    "Ranged",
    "Arcane",
    "Divine",
    "Knowledge",
    "Perception",
    "Acrobatics",
    "Stealth",
    "Disable",
    "Diplomacy",
    "Fortitude",
    "Survival",
    "Craft",
    "Combat",
]

SPANISH = {
    "fuerza": "Strength",
    "destreza": "Dexterity",
    "constitucion": "Constitution",
    "inteligencia": "Intelligence",
    "sabiduria": "Wisdom",
    "carisma": "Charisma",
    "cuerpo a cuerpo": "Melee",
    "a distancia": "Ranged",
    "distancia": "Ranged",
    "arcana": "Arcane",
    "arcano": "Arcane",
    "divina": "Divine",
    "divino": "Divine",
    "conocimiento": "Knowledge",
    "percepcion": "Perception",
    "acrobacias": "Acrobatics",
    "sigilo": "Stealth",
    "inutilizar": "Disable",
    "desactivar": "Disable",
    "diplomacia": "Diplomacy",
    "fortaleza": "Fortitude",
    "supervivencia": "Survival",
    "artesania": "Craft",
    "combate": "Combat",
}

_BY_FOLD = {skill.lower(): skill for skill in SKILLS} | SPANISH


def canonical_skill(word: str) -> str | None:
    key = fold(word).strip()
    if key.startswith("habilidad "):
        key = key.removeprefix("habilidad ").strip()
    return _BY_FOLD.get(key)
