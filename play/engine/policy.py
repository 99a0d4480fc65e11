"""A random legal policy: picks any legal answer to the pending decision. Used by the property
tests and the benchmarks; a bot or a hint system can start from it."""

from __future__ import annotations

import random
from typing import Any

from .cards import validate_definition
from .game import State


def random_action(state: State, rng: random.Random) -> tuple[str, dict[str, Any]]:
    decision = state["pending"]
    if decision is None:
        raise ValueError("the game waits for no decision")
    if decision.get("select"):
        selection = decision["select"]
        cards = rng.sample(selection["cards"], selection["count"])
        return str(decision["players"][0]), {"type": "select", "cards": cards}
    entry = rng.choice(decision["options"])
    return entry["player"], complete(entry, rng)


# A value for each effect a declaration may hold (declared.WINDOW_EFFECTS).
EXAMPLE_EFFECTS: dict[str, Any] = {
    "use_skill": {"add": "1d6"},
    "add_die": "1d4",
    "add": 1,
    "add_trait": ["Magic"],
    "bless": 1,
    "reduce_damage": {"amount": 1},
    "evade": True,
    "heal": 1,
    "draw": 1,
    "examine": {"count": 1},
    "explore_again": True,
}


def complete(entry: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """The option's action, with a random declaration for a declared power's template and an
    entered check where the option asks for one."""
    action = dict(entry["action"])
    if "declare" in entry:
        offered = entry["declare"]
        effect = rng.choice(offered["effects"])
        action.update(effects=[{effect: EXAMPLE_EFFECTS[effect]}], skill=rng.choice(["Strength", "Melee", "Arcane"]))
        cost = rng.choice(offered["costs"])
        if cost is not None and action.get("source") in ("hand", "displayed"):
            action["cost"] = cost
    if "check" in entry.get("enter", {}):
        action["check"] = rng.choice(["Combat 6", "Dexterity or Acrobatics 5 + AN", "Wisdom 4 then Combat 7"])
    return action


def with_declared_cards(setup: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """Play as with real cards, whose powers are mostly not encoded: the setup with about half
    its boons and characters made unencoded (played by declaring their powers) and about a
    third of its monsters with an unknown check (entered when met)."""
    cards = {}
    for card_id, definition in setup["cards"].items():
        kind = definition["type"]
        if kind in ("weapon", "spell", "armor", "item", "ally", "blessing", "character") and rng.random() < 0.5:
            bare = {key: value for key, value in definition.items() if key not in ("powers", "passive")}
            definition = validate_definition(card_id, {**bare, "declare": True})
        elif kind == "monster" and rng.random() < 0.3:
            definition = {**definition, "check": None, "check_unknown": True}
        cards[card_id] = definition
    return {**setup, "cards": cards}
