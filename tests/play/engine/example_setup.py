"""The table of the Core Set rulebook's Example of Play, as engine setup data.

The Example of Play names only some of the cards in play. The rest of each deck is filled from
the book's Deck Suggestions for that character (cards named there, as plain cards of their type:
the book gives them no powers), and the vault holds just what the example draws from it.
"""

from __future__ import annotations

from typing import Any

from play.engine import load_definitions

from .sources import ArrangedSource

FILLER_TYPES = {
    "weapon": ["dagger", "dogslicer", "longsword", "battleaxe", "sling", "mace"],
    "armor": ["hide-armor", "leather-armor"],
    "item": [
        "spyglass",
        "caltrops",
        "blast-stone",
        "crowbar",
        "thieves-tools",
        "token-of-remembrance",
        "luckstone",
        "balmberry",
    ],
    "ally": ["lookout", "dog", "soldier", "snake", "horse", "troubadour", "teamster", "sage"],
    "blessing": ["benefaction"],
    "spell": ["fiery-glare", "sleep", "frostbite"],
    "monster": ["cave-lizard"],
}


def definitions() -> dict[str, Any]:
    found = load_definitions("core-example")
    for kind, names in FILLER_TYPES.items():
        for name in names:
            found[f"core.{name}"] = {"name": name.replace("-", " ").title(), "type": kind, "level": 0}
    return found


def core(*names: str) -> list[str]:
    return [f"core.{name}" for name in names]


SAJAN_DECK = core(
    "starknife",
    "dagger",
    "spyglass",
    "compass",
    "caltrops",
    "lookout",
    "dog",
    "soldier",
    "incitation",
    "orison",
    "prayer",
    "benefaction",
    "benefaction",
    "incitation",
    "orison",
)
AMIRI_DECK = core(
    "dogslicer",
    "longspear",
    "longsword",
    "battleaxe",
    "hide-armor",
    "leather-armor",
    "blast-stone",
    "crowbar",
    "thieves-tools",
    "snake",
    "horse",
    "orison",
    "benefaction",
    "prayer",
    "incitation",
)
LEM_DECK = core(
    "sling",
    "lightning-touch",
    "soothing-word",
    "fiery-glare",
    "sleep",
    "token-of-remembrance",
    "luckstone",
    "balmberry",
    "standard-bearer",
    "troubadour",
    "teamster",
    "sage",
    "benefaction",
    "prayer",
    "orison",
)
VAULT = (
    core("ghoul", "boggart", "cave-lizard")
    + core("magic-eye", "frostbite", "deflect", "phantasmal-minion", "charm-person")
    + core("giantbane-greataxe", "mace")
    + core("cayden-cailean-s-revelry", "incitation", "nethys-s-duality")
    + core("prayer") * 10
    + core("orison") * 10
    + core("benefaction") * 8
)

SETUP: dict[str, Any] = {
    "scenario": "core.plans-gone-wrong",
    "options": {"location_size": "small"},
    "characters": [
        {"id": "sajan", "player": "sam", "character": "core.sajan", "deck": SAJAN_DECK, "location": "core.tower"},
        {"id": "amiri", "player": "alice", "character": "core.amiri", "deck": AMIRI_DECK, "location": "core.oubliette"},
        {
            "id": "lem",
            "player": "lee",
            "character": "core.lem",
            "deck": LEM_DECK,
            "location": "core.oubliette",
            "favored": "spell",
        },
    ],
    "vault": VAULT,
}


def example_setup() -> dict[str, Any]:
    return dict(SETUP, cards=definitions())


def arranged_table() -> ArrangedSource:
    """The order the example's cards come up in: what is on top of each location, the first
    three hours, and the cards each player draws."""
    return ArrangedSource(
        picks={
            "build:core.tower": ["core.ghoul"],
            "build:core.oubliette": ["core.boggart"],
            "build:core.laboratory": ["core.magic-eye", "core.frostbite"],
        },
        arrange={
            "story_banes": [core("kobold-champion", "diabolical-imp", "proxy-a", "clockwork-guardian")],
            "location:core.tower": [core("ghoul")],
            "location:core.oubliette": [core("boggart")],
            "location:core.laboratory": [core("magic-eye", "clockwork-guardian")],
            "hourglass": [core("cayden-cailean-s-revelry", "incitation", "nethys-s-duality")],
            "deck:sajan": [core("prayer", "orison", "compass", "starknife", "spyglass")],
            "deck:amiri": [core("longspear", "dogslicer", "hide-armor", "snake")],
            "deck:lem": [
                core(
                    "sling",
                    "token-of-remembrance",
                    "luckstone",
                    "balmberry",
                    "troubadour",
                    "teamster",
                    "lightning-touch",
                    "soothing-word",
                    "standard-bearer",
                    "sage",
                    "benefaction",
                    "prayer",
                )
            ],
        },
    )
