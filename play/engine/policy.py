"""Policies that answer any pending decision: a random legal one (property tests, benchmarks) and
a greedy one that plays checks for the best odds (difficulty simulations). A bot or a hint
system can start from them."""

from __future__ import annotations

import random
from typing import Any

from .api import CHECK_DECISIONS, with_odds
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


# What the greedy policy answers outside checks: explore whenever it may, attempt to close and to
# guard, keep its cards (no reset discards, no gifts), stay put, reduce damage when it can.
PREFERRED = {
    "explore": "explore",
    "close": "attempt",
    "guard": "attempt",
    "reset": "pass",
    "give": "pass",
    "move": "pass",
    "evade": "pass",
    "close_step": "pass",
    "end_turn": "pass",
    "reroll": "accept",
    "damage": "play",
}


def greedy_action(state: State, rng: random.Random) -> tuple[str, dict[str, Any]]:
    """During a check, the skill or boon with the best odds, played while it raises them (so it
    never rolls a check it could still make surer, and never gives one up); elsewhere, the
    answer PREFERRED names, else a random legal one."""
    decision = state["pending"]
    if decision is None or decision.get("select"):
        return random_action(state, rng)
    if decision["kind"] not in CHECK_DECISIONS:
        wanted = PREFERRED.get(decision["kind"])
        chosen = next(
            (
                o
                for o in decision["options"]
                if o["action"].get("type") == wanted and "declare" not in o and "enter" not in o
            ),
            None,
        )
        return (chosen["player"], dict(chosen["action"])) if chosen else random_action(state, rng)
    scored = [with_odds(state, option) for option in decision["options"]]
    rated = [option for option in scored if option.get("odds")]
    rolling = next((option for option in scored if option["action"].get("type") == "roll"), None)
    if rated:
        best = max(rated, key=lambda option: option["odds"]["chance_float"])
        now = (decision.get("check") or {}).get("odds") or {}
        if rolling is None or best["odds"]["chance_float"] > now.get("chance_float", 0.0):
            return best["player"], dict(best["action"])
    if rolling is not None:
        return rolling["player"], dict(rolling["action"])
    return random_action(state, rng)


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
