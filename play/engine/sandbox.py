"""The homebrew sandbox table (play/data/sandbox.yaml): complete invented cards, so that whole
scenarios can be played by the random policy in property tests, benchmarks and demos."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import yaml

from .cards import DATA_DIR, load_definitions

CHARACTERS = ("sandbox.valor", "sandbox.sage", "sandbox.oracle", "sandbox.shade", "sandbox.warden", "sandbox.bard")


@lru_cache(maxsize=1)
def _document() -> dict[str, Any]:
    return yaml.safe_load((DATA_DIR / "sandbox.yaml").read_text(encoding="utf-8"))


@lru_cache(maxsize=1)
def sandbox_definitions() -> dict[str, Any]:
    return load_definitions("sandbox")


def sandbox_deck(character: str) -> list[str]:
    """The character's starter deck: 15 cards of the pack."""
    return list(_document()["decks"][character])


def sandbox_setup(
    characters: int = 3, *, scenario: str = "sandbox.the-warlock", options: dict[str, Any] | None = None
) -> dict[str, Any]:
    """A setup for 1 to 6 sandbox characters, each starting at the scenario's locations in turn."""
    if not 1 <= characters <= len(CHARACTERS):
        raise ValueError(f"the sandbox has {len(CHARACTERS)} characters")
    document = _document()
    definitions = sandbox_definitions()
    listed = definitions[scenario]["locations"]
    starts = [
        location for needed in sorted(listed, key=int) if int(needed) <= characters for location in listed[needed]
    ]
    return {
        "scenario": scenario,
        "cards": definitions,
        "vault": dict(document["vault"]),
        "options": dict(options or {}),
        "characters": [
            {
                "id": card.split(".", 1)[1],
                "player": f"player{index + 1}",
                "character": card,
                "deck": sandbox_deck(card),
                "location": starts[index % len(starts)],
            }
            for index, card in enumerate(CHARACTERS[:characters])
        ],
    }
