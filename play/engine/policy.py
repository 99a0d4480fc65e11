"""A random legal policy: picks any legal answer to the pending decision. Used by the property
tests and the benchmarks; a bot or a hint system can start from it."""

from __future__ import annotations

import random
from typing import Any

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
    return entry["player"], entry["action"]
