"""How hard a scenario is for a party: whole games auto-played by a policy, and their summary.

Each game's seed comes from the request's seed and the game's index, so a request gives the same
games, and the same summary, however its games are split into chunks and whoever plays them
(one process, or Celery workers). The summary is built from the games' outcomes alone, in index
order, so chunks may come back in any order.
"""

from __future__ import annotations

import copy
import hashlib
import math
import random
from collections import Counter
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from typing import Any

from .api import apply, new_game
from .policy import greedy_action, random_action

POLICIES = {"random": random_action, "greedy": greedy_action}
# Play It Your Way: Heroic raises the challenge in 2 ways, Legendary in 4 (a higher bane adventure
# is Legendary's own); a simulation of a mode plays it with these.
MODE_OPTIONS: dict[str, dict[str, Any]] = {
    "normal": {},
    "heroic": {"location_size": "large", "hourglass_size": 25},
    "legendary": {"location_size": "large", "hourglass_size": 25, "location_count_delta": 1},
}
# A game a policy would never end (passing for ever) stops here, and counts as lost.
MAX_ANSWERS = 4000
Z_95 = 1.959964  # the normal quantile of a two-sided 95% interval


def game_seed(seed: str, index: int) -> str:
    return hashlib.sha256(f"{seed}\x00{index}".encode()).hexdigest()


@dataclass(frozen=True)
class Outcome:
    index: int
    won: bool
    turns_left: int  # the hourglass's cards left when the scenario ended
    died: tuple[str, ...]  # the characters who died
    undefeated: tuple[str, ...]  # the banes (by name) the party failed to defeat

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Outcome:
        return cls(data["index"], data["won"], data["turns_left"], tuple(data["died"]), tuple(data["undefeated"]))


def play(setup: dict[str, Any], *, ruleset: str, seed: str, index: int, policy: str = "greedy") -> Outcome:
    """One whole game, its dice and its policy's choices both from the game's seed."""
    choose = POLICIES[policy]
    own = game_seed(seed, index)
    rng = random.Random(own)
    state = new_game(copy.deepcopy(setup), seed=own, ruleset=ruleset)
    died: list[str] = []
    undefeated: list[str] = []
    for _ in range(MAX_ANSWERS):
        if state["status"] != "playing":
            break
        player, action = choose(state, rng)
        state, events = apply(state, player, action, in_place=True)
        for event in events:
            if event["type"] == "died":
                died.append(event["character"])
            elif event["type"] == "undefeated":
                undefeated.append(_name(state, event["card"]))
    won = state["status"] == "won"
    return Outcome(index, won, len(state["hourglass"]) if won else 0, tuple(died), tuple(undefeated))


def play_chunk(
    setup: dict[str, Any], *, ruleset: str, seed: str, start: int, count: int, policy: str = "greedy"
) -> list[Outcome]:
    return [play(setup, ruleset=ruleset, seed=seed, index=i, policy=policy) for i in range(start, start + count)]


def _name(state: dict[str, Any], card: str) -> str:
    definition = state["cards"].get(card, card)
    return str(state["defs"].get(definition, {}).get("name", definition))


def wilson(wins: int, games: int) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate (sound near 0 and 1, unlike the normal one)."""
    if not games:
        return 0.0, 1.0
    rate = wins / games
    centre = (rate + Z_95**2 / (2 * games)) / (1 + Z_95**2 / games)
    half = Z_95 / (1 + Z_95**2 / games) * math.sqrt(rate * (1 - rate) / games + Z_95**2 / (4 * games**2))
    return max(0.0, centre - half), min(1.0, centre + half)


def summarize(outcomes: Iterable[Outcome]) -> dict[str, Any]:
    games = sorted(outcomes, key=lambda outcome: outcome.index)
    wins = [outcome for outcome in games if outcome.won]
    low, high = wilson(len(wins), len(games))
    deaths = Counter(name for outcome in games for name in outcome.died)
    banes = Counter(name for outcome in games if not outcome.won for name in set(outcome.undefeated))
    return {
        "games": len(games),
        "wins": len(wins),
        "win_rate": round(len(wins) / len(games), 4) if games else None,
        "interval_95": [round(low, 4), round(high, 4)],
        "turns_left_when_won": round(sum(o.turns_left for o in wins) / len(wins), 2) if wins else None,
        "turns_left_distribution": dict(sorted(Counter(o.turns_left for o in wins).items())),
        "deaths": dict(sorted(deaths.items())),
        "banes_that_beat_the_party": [{"name": name, "games": count} for name, count in banes.most_common(5)],
    }
