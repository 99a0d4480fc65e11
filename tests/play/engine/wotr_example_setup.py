"""The table of the Wrath of the Righteous rulebook's Example of Play, as engine setup data,
arranged as it stands when Avery's turn reaches the Giant Bat.

The book's first turn (Isabel's) and the start of Avery's (the Temptation of Invincibility,
Horgus Gwerm, the Corrosive Dagger +1) use the scenario's powers and cards whose powers the
book only sketches, so the table is laid out as they leave it: Alain at the Cavern with the
Giant Bat on top, holding his Glaive +1, the Dagger, Donahan, the Magic Scale Mail and a Helm.
Imrijka stands at the Mongrel Village: the book moves her there with Balazar by the scenario's
power (not encoded), which she never uses before then. Other cards are plain fillers named
after the book's Suggested Deck Lists, or unnamed stand-ins where the book names none.
"""

from __future__ import annotations

from typing import Any

from play.engine import load_definitions

from .sources import ArrangedSource

FILLER_TYPES = {
    "weapon": ["longsword", "sickle", "javelin", "mace", "shortbow"],
    "armor": ["wooden-shield", "padded-armor"],
    "item": ["ring-of-climbing", "caltrop-bead", "blood-periapt", "sages-journal"],
    "ally": ["recruit", "athlete", "frilled-lizard", "researcher"],
    "spell": ["agility", "brilliance", "create-pit", "detect-demon"],
    "monster": ["worm-demon"],
}
# Cards the book does not name (the Cavern's 2 random barriers, the other locations' cards).
STAND_INS = {"wotr.unnamed-barrier": {"name": "Unnamed Barrier", "type": "barrier", "check": "Strength 5"}}


def definitions() -> dict[str, Any]:
    found = load_definitions("wotr-example")
    for kind, names in FILLER_TYPES.items():
        for name in names:
            found[f"wotr.{name}"] = {"name": name.replace("-", " ").title(), "type": kind}
    found.update(STAND_INS)
    return found


def wotr(*names: str) -> list[str]:
    return [f"wotr.{name}" for name in names]


HANDS = {
    "imrijka": wotr("sagacity", "blessing-of-ascension", "blessing-of-ascension", "javelin", "mace"),
    "alain": wotr(
        "glaive-plus-1", "corrosive-dagger-plus-1", "donahan", "magic-scale-mail", "helm", "blessing-of-ascension"
    ),
    "balazar": wotr("padrig", "mirror-image", "vulture", "enchanted-fang", "blessing-of-ascension", "aravashnial"),
}
# The rest of each deck, top first (a table arranged by hand is not shuffled).
DECKS = {
    "imrijka": wotr("shortbow", "detect-demon", "sages-journal", "researcher", "caltrop-bead", "sickle"),
    "alain": wotr("longsword", "recruit", "ring-of-climbing", "sickle", "athlete", "wooden-shield", "caltrop-bead"),
    "balazar": wotr("agility", "brilliance", "create-pit", "padded-armor", "blood-periapt", "frilled-lizard"),
}
LOCATIONS = {
    "wotr.canyon": wotr("worm-demon", "unnamed-barrier"),
    "wotr.cavern": wotr("giant-bat", "unnamed-barrier", "unnamed-barrier"),
    "wotr.mongrel-village": wotr("millorn", "unnamed-barrier", "worm-demon"),
    "wotr.collapsing-bridge": wotr("unnamed-barrier"),
    "wotr.great-hall": wotr("unnamed-barrier"),
}
# The blessings deck after Isabel's turn discarded its first card (a Blessing of Pulura).
HOURGLASS = wotr("blessing-of-ascension", "blessing-of-shax") + wotr("blessing-of-ascension") * 27
# What the example draws from the box: Mirror Image's random monster, the escape's blessing.
BOX = wotr("mongrel-wizard", "worm-demon", "blessing-of-pulura", "blessing-of-pulura")

SETUP: dict[str, Any] = {
    "scenario": "wotr.under-the-broken-city",
    "first": "alain",
    "characters": [
        {"id": "imrijka", "player": "isabel", "character": "wotr.imrijka", "location": "wotr.mongrel-village"},
        {"id": "alain", "player": "avery", "character": "wotr.alain", "location": "wotr.cavern"},
        {"id": "balazar", "player": "blake", "character": "wotr.balazar", "location": "wotr.canyon"},
    ],
    "vault": BOX,
    "table": {"locations": LOCATIONS, "hourglass": HOURGLASS, "hands": HANDS},
}


def example_setup() -> dict[str, Any]:
    characters = [dict(entry, deck=DECKS[entry["id"]]) for entry in SETUP["characters"]]
    return dict(SETUP, characters=characters, cards=definitions())


def arranged_table() -> ArrangedSource:
    """The random picks the example needs: Mirror Image's random monster from the box."""
    return ArrangedSource(picks={"new:monster": ["wotr.mongrel-wizard"]})
