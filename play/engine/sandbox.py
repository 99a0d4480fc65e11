"""The homebrew starter pack as an engine table: the cards come from the card data file
(cards/data/sandbox.yaml, their facts and `effects`, read through carddata), the table (the
vault's copies and each character's deck) from play/data/sandbox-table.yaml. Complete invented
cards, so that whole scenarios can be played by the random policy in property tests,
benchmarks and demos."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

from .carddata import definition_from_record
from .cards import DATA_DIR

CARDS_FILE = Path(__file__).resolve().parents[2] / "cards" / "data" / "sandbox.yaml"
CHARACTERS = ("sandbox.valor", "sandbox.sage", "sandbox.oracle", "sandbox.shade", "sandbox.warden", "sandbox.bard")


@lru_cache(maxsize=1)
def _table() -> dict[str, Any]:
    return yaml.safe_load((DATA_DIR / "sandbox-table.yaml").read_text(encoding="utf-8"))


@lru_cache(maxsize=1)
def sandbox_definitions() -> dict[str, Any]:
    document = yaml.safe_load(CARDS_FILE.read_text(encoding="utf-8"))
    code = document["set"]["code"]
    return {
        f"{code}.{record['id']}": definition_from_record(f"{code}.{record['id']}", record)
        for record in document["cards"]
    }


def sandbox_deck(character: str) -> list[str]:
    """The character's starter deck: 15 cards of the pack."""
    return list(_table()["decks"][character])


def sandbox_setup(
    characters: int = 3, *, scenario: str = "sandbox.the-warlock", options: dict[str, Any] | None = None
) -> dict[str, Any]:
    """A setup for 1 to 6 sandbox characters, each starting at the scenario's locations in turn."""
    if not 1 <= characters <= len(CHARACTERS):
        raise ValueError(f"the sandbox has {len(CHARACTERS)} characters")
    definitions = sandbox_definitions()
    listed = definitions[scenario]["locations"]
    starts = [
        location for needed in sorted(listed, key=int) if int(needed) <= characters for location in listed[needed]
    ]
    return {
        "scenario": scenario,
        "cards": definitions,
        "vault": dict(_table()["vault"]),
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
