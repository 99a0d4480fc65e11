"""Policies that answer a combat's decisions (tests, benchmarks, simulations): a random legal
answer, and a plain sensible one."""

from __future__ import annotations

import random
from typing import Any

from .combat import State

Choice = tuple[str, dict[str, Any]]


def random_action(state: State, rng: random.Random) -> Choice:
    """Any legal answer, a random choice of cards included."""
    decision = state["pending"]
    player = decision["players"][0]
    select = decision.get("select")
    if select and rng.random() < 0.5:
        cards = rng.sample(select["cards"], rng.randint(0, select["count"]))
        return player, {"type": select["type"], "cards": cards}
    return player, rng.choice(decision["options"])["action"]


def sensible_action(state: State) -> Choice:
    """Keeps its hand, burns the cards it needs least as endurance, puts gear into play, heals
    a hero who is low, and attacks the weakest opponent with its best odds."""
    decision = state["pending"]
    player, options = decision["players"][0], decision["options"]
    hero = next(h for h in state["heroes"] if h["id"] == decision["hero"])
    if decision["kind"] == "endurance":
        spare = [card for card in decision["select"]["cards"] if card.split("#")[0] == "provisions"]
        if len(hero["endurance"]) < 3:  # little endurance yet: any card will do
            spare += [card for card in hero["hand"] if card not in spare]
        return player, {"type": "endurance", "cards": spare[: decision["select"]["count"]]}
    if decision["kind"] == "reroll":
        return player, {"type": "reroll"}
    if decision["kind"] != "turn":
        return player, options[0]["action"]
    by_type: dict[str, list[dict[str, Any]]] = {}
    for option in options:
        by_type.setdefault(option["action"]["type"], []).append(option)
    low = [o for o in by_type.get("play", []) if "hero" in o["action"] and _life(state, o["action"]["hero"]) <= 20]
    if low:
        return player, low[0]["action"]
    gear = [o for o in by_type.get("play", []) if "hero" not in o["action"] and "target" not in o["action"]]
    if gear:
        return player, gear[0]["action"]
    attacks = by_type.get("attack", []) + [o for o in by_type.get("play", []) if "target" in o["action"]]
    if attacks:
        weakest = min(
            attacks, key=lambda o: (_opponent_life(state, o["action"]["target"]), -o["odds"]["success_float"])
        )
        return player, weakest["action"]
    return player, {"type": "end_turn"}


def _life(state: State, hero_id: str) -> int:
    return int(next(h["life"] for h in state["heroes"] if h["id"] == hero_id))


def _opponent_life(state: State, opponent_id: str) -> int:
    return int(next(o["life"] for o in state["opponents"] if o["id"] == opponent_id))
