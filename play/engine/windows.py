"""A window in which characters may play cards for a timing (evade, before acting, ...).
It is skipped when nobody has anything to play; the focus character's player passes to close it."""

from __future__ import annotations

from typing import Any

from .effects import perform
from .flow import StepHandler, decide
from .game import Decision, Game, Step
from .powers import Scene, options, usable_power

PROMPTS = {
    "encountered": "Use powers that happen when you encounter a card",
    "evade": "Evade the card?",
    "before_acting": "Use powers before acting",
    "after_acting": "Use powers after acting",
}


def push_window(game: Game, timing: str, focus: str, encounter: Step | None) -> Step:
    return game.push(
        "window",
        timing=timing,
        focus=focus,
        encounter=encounter["id"] if encounter else None,
        played=[],
        used=[],
        grants=[],
    )


def window_scene(game: Game, step: Step) -> Scene:
    return Scene(step["timing"], step, step["focus"], encounter=game.step_by_id(step.get("encounter")))


class Window(StepHandler):
    kind = "window"

    def run(self, game: Game, step: Step) -> Decision | None:
        encounter = game.step_by_id(step.get("encounter"))
        if encounter is not None and encounter.get("evaded"):
            game.pop(step)
            return None
        choices = options(game, window_scene(game, step), game.living())
        if not choices or not game.alive(step["focus"]):
            game.pop(step)
            return None
        prompt = PROMPTS.get(step["timing"], f"Play cards ({step['timing']})")
        return decide(game, step, step["timing"], step["focus"], prompt, choices, can_pass=True, pass_label="Continue")

    def answer(self, game: Game, step: Step, chosen: dict[str, Any]) -> None:
        action = chosen["action"]
        if action["type"] == "pass":
            game.pop(step)
            return
        scene = window_scene(game, step)
        power = usable_power(game, scene, action)
        perform(game, scene, action, power)
