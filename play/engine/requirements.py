"""To Close and To Guard requirements of locations, as options a player can pick.

Written in a location definition as a list of alternatives ("or"):
`[{check: "Intelligence or Craft 5 + AN"}, {cost: {bury: {type: ally}}}, {auto: true}]`.
A location without the key cannot be closed (or guarded) this way; `to_guard` falls back to
`to_close` (Transition Guide: older cards' close requirements count for guarding as well).
"""

from __future__ import annotations

from typing import Any

from .checks import parse_check
from .effects import matching
from .flow import option
from .game import Game


def requirement(game: Game, location: str, key: str) -> list[dict[str, Any]]:
    definition = game.location_definition(location)
    found = definition.get(key)
    if found is None and key == "to_guard":
        found = definition.get("to_close")
    return list(found or [])


def requirement_options(game: Game, character: str, location: str, key: str) -> list[dict[str, Any]]:
    player = game.player_of(character)
    choices = []
    for index, alternative in enumerate(requirement(game, location, key)):
        if "check" in alternative:
            steps = parse_check(alternative["check"])
            if steps:
                choices.append(option({"type": "attempt", "option": index}, f"Attempt {alternative['check']}", player))
        elif alternative.get("auto"):
            choices.append(option({"type": "attempt", "option": index}, "Do it automatically", player))
        elif "cost" in alternative:
            ((action, selector),) = alternative["cost"].items()
            for card in matching(game, game.character(character)["hand"], selector or {}):
                choices.append(
                    option(
                        {"type": "attempt", "option": index, "pay": card},
                        f"{action.capitalize()} {game.name(card)}",
                        player,
                    )
                )
    return choices
