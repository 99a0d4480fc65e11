"""Starting the steps that many modules begin: a check, an encounter. They only push a step's
data, so effects, requirements and turns start one without importing its handler's module
(which imports theirs back)."""

from __future__ import annotations

from typing import Any

from .game import Game, Step


def push_check(
    game: Game,
    *,
    character: str,
    purpose: str,
    alternatives: list[dict[str, Any]],
    against: str | None = None,
    parent: Step | None = None,
    label: str = "",
) -> Step:
    """`purpose`: defeat, acquire, close, guard, recovery or power. The result is appended to
    parent["results"] when the check is done."""
    return game.push(
        "check",
        character=character,
        purpose=purpose,
        alternatives=alternatives,
        against=against,
        parent=parent["id"] if parent else None,
        label=label,
        phase="skill",
        dice=[],
        modifier=0,
        traits=[],
        skill_traits=[],
        combat=False,
        difficulty=0,
        played=[],
        used=[],
        grants=[],
        result=None,
        success=None,
    )


def start_encounter(
    game: Game, character: str, card: str, origin: dict[str, Any], *, exploration: bool = False, avenging: bool = False
) -> Step:
    if card not in game.state["encountered"]:
        game.state["encountered"].append(card)
    game.emit("encountered", character=character, card=game.effective_id(card), origin=origin)
    return game.push(
        "encounter",
        character=character,
        card=card,
        origin=origin,
        exploration=exploration,
        avenging=avenging,
        phase=0,
        evaded=False,
        guarded=[],
        results=[],
    )
