"""Closing your location: the To Close requirement, the search for villains, the When Closed
effects; core banishes the location and its characters move, classic flips it over."""

from __future__ import annotations

from typing import Any

from .effects import push_effects
from .flow import StepHandler, decide, option
from .game import Decision, Game, Step
from .requirements import meet_requirement, requirement, requirement_options

RULE_CLOSE = "Closing Your Location: you can never attempt to close a distant location or a location that is guarded"


def may_attempt_close(game: Game, character: str, location: str) -> bool:
    place = game.location(location)
    return (
        game.alive(character) and game.location_of(character) == location and not place["closed"] and place["in_play"]
    )


class CloseLocation(StepHandler):
    """The opportunity to close: pick a To Close option (before any card or die), meet it,
    then search the location for villains."""

    kind = "close_location"

    def run(self, game: Game, step: Step) -> Decision | None:
        character, location = step["character"], step["location"]
        if step["phase"] == "offer":
            if not may_attempt_close(game, character, location):
                game.pop(step)
                return None
            choices = requirement_options(game, character, location, "to_close")
            if not choices:
                game.pop(step)
                return None
            name = game.location_definition(location)["name"]
            return decide(
                game,
                step,
                "close",
                character,
                f"Close {name}?",
                choices,
                can_pass=True,
                pass_label="Leave it open",
                rule=RULE_CLOSE,
            )
        game.pop(step)
        succeeded = bool(step["results"]) and all(result["success"] for result in step["results"])
        game.emit("close_attempted", character=character, location=location, success=succeeded)
        if succeeded:
            search_and_close(game, character, location, reason=step["reason"])
        return None

    def answer(self, game: Game, step: Step, chosen: dict[str, Any]) -> None:
        action = chosen["action"]
        if action["type"] == "pass":
            game.pop(step)
            return
        character, location = step["character"], step["location"]
        alternative = requirement(game, location, "to_close")[action["option"]]
        step["phase"] = "result"
        meet_requirement(game, step, character, alternative, action, "close")


def search_and_close(game: Game, character: str, location: str, *, reason: str) -> None:
    """Rulebook: "search the location for villains. If you find any, banish all non-villain cards from the
    location. The location is not closed"; otherwise it closes."""
    cards = game.location(location)["cards"]
    villains = [card for card in cards if game.is_villain(card)]
    if villains:
        for card in [card for card in cards if not game.is_villain(card)]:
            cards.remove(card)
            game.to_vault(card)
        game.shuffle(cards, f"location:{location}")
        game.emit("villains_found", location=location, count=len(villains))
        return
    game.push("closing", character=character, location=location, phase="before", reason=reason)


def _location_effects(game: Game, location: str, when: str) -> list[dict[str, Any]]:
    return [
        effect
        for power in game.location_definition(location)["powers"]
        if power.get("when") == when
        for effect in power.get("effects", [])
    ]


class Closing(StepHandler):
    """Rulebook: "First, apply any effects that say 'before closing.' Then banish all of the cards from the
    location; it is now closed. Finally, apply any effects that say 'on closing'"."""

    kind = "closing"

    def run(self, game: Game, step: Step) -> Decision | None:
        location, character = step["location"], step["character"]
        context = {"location": location}
        phase = step["phase"]
        if phase == "before":
            step["phase"] = "banish"
            effects = _location_effects(game, location, "before_closing")
            if effects:
                push_effects(game, character, effects, context)
            return None
        if phase == "banish":
            place = game.location(location)
            for card in list(place["cards"]):
                place["cards"].remove(card)
                game.to_vault(card)
            place["closed"] = True
            game.emit("location_closed", location=location, character=character)
            turn = game.innermost("turn")
            if turn is not None and turn["phase"] == "explore":
                # "If a location is closed during your explore step, you may no longer explore."
                turn["no_explore"] = True
            step["phase"] = "on"
            effects = _location_effects(game, location, "closed")
            if effects and game.alive(character):
                push_effects(game, character, effects, context)
            return None
        game.pop(step)
        if game.ruleset.closed_locations_leave_play:
            place = game.location(location)
            place["in_play"] = False
            game.to_vault(place.pop("card"))
            place["card"] = None
            for name in game.living():
                if game.location_of(name) == location:
                    game.push("relocate", character=name, leaving=location)
        check_all_closed(game)
        return None


def check_all_closed(game: Game) -> None:
    """Without a villain, the default way to win is to close every location."""
    if not game.state["scenario"].get("villains") and not game.open_locations():
        game.end("won", "every location is closed")


class Relocate(StepHandler):
    """Rulebook: "all characters that were at that location always immediately move"."""

    kind = "relocate"

    def run(self, game: Game, step: Step) -> Decision | None:
        character = step["character"]
        targets = [name for name in game.locations_in_play() if name != step["leaving"]]
        if not game.alive(character) or not targets or game.location_of(character) != step["leaving"]:
            game.pop(step)
            return None
        if len(targets) == 1:
            self._move(game, step, targets[0])
            return None
        player = game.player_of(character)
        choices = [
            option({"type": "move", "location": name}, f"Move to {game.location_definition(name)['name']}", player)
            for name in targets
        ]
        return decide(game, step, "relocate", character, "Your location closed: choose where to move", choices)

    def _move(self, game: Game, step: Step, location: str) -> None:
        game.character(step["character"])["location"] = location
        game.emit("moved", character=step["character"], location=location, forced=True)
        game.pop(step)

    def answer(self, game: Game, step: Step, chosen: dict[str, Any]) -> None:
        self._move(game, step, chosen["action"]["location"])
