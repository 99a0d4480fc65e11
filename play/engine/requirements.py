"""To Close and To Guard requirements of locations, as options a player can pick.

Written in a location definition as a list of alternatives ("or"):
`[{check: "Intelligence or Craft 5 + AN"}, {cost: {bury: {type: ally}}}, {auto: true},
{damage: {amount: 4, type: Combat}}]`. A `damage` requirement ("be dealt 4 Combat damage") is
met by being dealt it: the damage may be reduced as any damage can (the requirement is to be
dealt it, not to suffer it), and the character discards what is left.
A location without the key cannot be closed (or guarded) this way; `to_guard` falls back to
`to_close` (Transition Guide: older cards' close requirements count for guarding as well).
"""

from __future__ import annotations

from typing import Any

from .check_text import parse_check
from .effects import matching, push_damage
from .flow import option
from .game import Game, Step
from .starts import push_check


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
        elif "damage" in alternative:
            damage = alternative["damage"]
            label = f"Be dealt {damage['amount']} {damage.get('type', 'Combat')} damage"
            choices.append(option({"type": "attempt", "option": index}, label, player))
        elif alternative.get("auto"):
            choices.append(option({"type": "attempt", "option": index}, "Do it automatically", player))
        elif "cost" in alternative:
            ((action, selector),) = alternative["cost"].items()
            for card in matching(game, game.sheet(character)["hand"], selector or {}):
                choices.append(
                    option(
                        {"type": "attempt", "option": index, "pay": card},
                        f"{action.capitalize()} {game.name(card)}",
                        player,
                    )
                )
    return choices


def meet_requirement(
    game: Game, step: Step, character: str, alternative: dict[str, Any], action: dict[str, Any], purpose: str
) -> None:
    """Do the chosen alternative; its outcome lands in step["results"] (checks add theirs when
    they are resolved)."""
    if "check" in alternative:
        for alternatives in reversed(parse_check(alternative["check"])):
            push_check(game, character=character, purpose=purpose, alternatives=alternatives, parent=step)
        return
    if "cost" in alternative:
        ((cost_action, _),) = alternative["cost"].items()
        game.move_from_hand(character, action["pay"], cost_action)
    elif "damage" in alternative:
        damage = alternative["damage"]
        push_damage(
            game,
            character,
            int(damage["amount"]),
            damage.get("type", "Combat"),
            game.location_view(game.location_of(character))["card"],
            unreducible=bool(damage.get("unreducible")),
        )
    step["results"].append({"character": character, "success": True, "result": 0})
