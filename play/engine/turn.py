"""The scenario's turns: advance the hour, give a card, move, explore, close, end the turn
(end-of-turn effects, recovery, reset)."""

from __future__ import annotations

from typing import Any

from .check_text import parse_check
from .closing import may_attempt_close
from .effects import expire_effects, perform, push_effects
from .errors import IllegalAction
from .flow import StepHandler, decide, option
from .game import Decision, Game, Step
from .powers import Scene, find_power, options, usable_power
from .starts import push_check, start_encounter

RULE_RESET = "Resetting: discard any number of cards, then discard down to or draw up to your hand size"


class GameRoot(StepHandler):
    """The bottom of the stack: whose turn it is, in seating order, skipping the dead."""

    kind = "game"

    def run(self, game: Game, step: Step) -> Decision | None:
        table = game.state["table"]
        order = table["order"]
        if not game.living():
            game.end("lost", "all the characters are dead")
            return None
        if step.get("turn_over"):
            table["turn_index"] = (table["turn_index"] + 1) % len(order)
            table["turn_number"] += 1
        while not game.alive(order[table["turn_index"]]):
            table["turn_index"] = (table["turn_index"] + 1) % len(order)
        active = order[table["turn_index"]]
        table["active"] = active
        step["turn_over"] = True
        game.emit("turn_started", character=active, turn=table["turn_number"])
        game.push(
            "turn",
            character=active,
            phase="start",
            explored=0,
            extra=False,
            exploring=False,
            no_explore=False,
            windows={},
        )
        return None


def _turn_scene(game: Game, step: Step, window: str, **extra: Any) -> Scene:
    # Rulebook: "You can play cards and use powers without limit in between these steps": no
    # boon limit between steps, and a power that costs a card may be used again (see
    # powers.once_per_turn). Explore powers count once per exploration (the explore window is
    # reset when one starts).
    if window == "turn":
        extra["between_steps"] = True
    limits = step["windows"].setdefault(window, {"used": [], "played": [], "grants": []})
    return Scene(window, limits, step["character"], extra=extra)


class Turn(StepHandler):
    kind = "turn"

    def run(self, game: Game, step: Step) -> Decision | None:
        character = step["character"]
        if not game.alive(character) and step["phase"] != "over":
            step["phase"] = "over"
        phase = step["phase"]
        if phase == "start":
            step["phase"] = "give"
            self._advance_hour(game, character)
            return None
        if phase == "give":
            return self._give(game, step)
        if phase == "move":
            return self._move(game, step)
        if phase == "explore":
            return self._explore(game, step)
        if phase == "close":
            return self._close(game, step)
        if phase == "end":
            step["phase"] = "over"
            game.push("end_turn", character=character, phase="effects")
            return None
        game.pop(step)
        return None

    def _advance_hour(self, game: Game, character: str) -> None:
        """Rulebook: "If at any point you need to advance the hourglass but there are no cards remaining in
        it, immediately end the current turn; the scenario ends and your party loses"."""
        hourglass = game.state["hourglass"]
        if not hourglass:
            game.end("lost", f"the {game.ruleset.timer} is empty")
            return
        card = hourglass.pop(0)
        game.state["hourglass_discards"].insert(0, card)
        game.emit("hour_advanced", character=character, hour=game.card_id(card), left=len(hourglass))
        # Pushed first so they run after the hour's own effects.
        turn_effects(game, character, "start_of_turn")
        if game.ruleset.hour_effects:
            effects = game.definition(card).get("hour", {}).get("effects", [])
            if effects:
                push_effects(game, character, effects, {"hour": card})

    def _free_actions(self, game: Game, step: Step) -> list[dict[str, Any]]:
        """Rulebook: "You can play cards and use powers without limit in between these steps"."""
        return options(game, _turn_scene(game, step, "turn"), [step["character"]])

    def _give(self, game: Game, step: Step) -> Decision | None:
        character = step["character"]
        player = game.player_of(character)
        others = [name for name in game.local_characters(game.location_of(character)) if name != character]
        choices = [
            option(
                {"type": "give", "card": card, "to": other},
                f"Give {game.name(card)} to {game.character_name(other)}",
                player,
            )
            for card in game.sheet(character)["hand"]
            for other in others
        ]
        choices += self._free_actions(game, step)
        if not choices:
            step["phase"] = "move"
            return None
        return decide(
            game,
            step,
            "give",
            character,
            "Give a card to a local character?",
            choices,
            can_pass=True,
            pass_label="Give nothing",
        )

    def _move(self, game: Game, step: Step) -> Decision | None:
        character = step["character"]
        player = game.player_of(character)
        here = game.location_of(character)
        choices = [
            option({"type": "move", "location": name}, f"Move to {game.location_definition(name)['name']}", player)
            for name in game.locations_in_play()
            if name != here
        ]
        choices += self._free_actions(game, step)
        if not choices:
            step["phase"] = "explore"
            return None
        return decide(
            game, step, "move", character, "Move to a distant location?", choices, can_pass=True, pass_label="Stay"
        )

    def _explore(self, game: Game, step: Step) -> Decision | None:
        character = step["character"]
        player = game.player_of(character)
        if step["exploring"]:
            step["exploring"] = False
            expire_effects(game, "exploration", character)
        here = game.location_of(character)
        place = game.location(here)
        can_explore = not step["no_explore"] and place["in_play"] and bool(place["cards"])
        if step.pop("explore_now", False) and can_explore:
            self._start_exploration(game, step)
            return None
        if step["extra"]:
            if not can_explore:
                step["extra"] = False
                return None
            choices = [option({"type": "explore"}, "Use the additional exploration", player)]
            return decide(
                game, step, "explore", character, "Explore again?", choices, can_pass=True, pass_label="Forfeit it"
            )
        choices = []
        if can_explore and step["explored"] == 0:
            choices.append(option({"type": "explore"}, f"Explore {game.location_definition(here)['name']}", player))
        if can_explore and step["explored"] > 0:
            choices += options(game, _turn_scene(game, step, "explore", may_explore_again=True), [character])
        choices += self._free_actions(game, step)
        if not choices:
            step["phase"] = "close"
            return None
        return decide(game, step, "explore", character, "Explore?", choices, can_pass=True, pass_label="Stop exploring")

    def _start_exploration(self, game: Game, step: Step) -> None:
        character = step["character"]
        here = game.location_of(character)
        card = game.location(here)["cards"].pop(0)
        step["explored"] += 1
        step["exploring"] = True
        step["extra"] = False
        step["windows"].pop("explore", None)
        game.emit("explored", character=character, location=here, exploration=step["explored"])
        start_encounter(game, character, card, {"location": here}, exploration=True)

    def _close(self, game: Game, step: Step) -> Decision | None:
        character = step["character"]
        here = game.location_of(character)
        choices = []
        if may_attempt_close(game, character, here) and not game.location(here)["cards"]:
            choices.append(
                option(
                    {"type": "close"},
                    f"Try to close {game.location_definition(here)['name']}",
                    game.player_of(character),
                )
            )
        choices += self._free_actions(game, step)
        if not choices:
            step["phase"] = "end"
            return None
        return decide(
            game,
            step,
            "close_step",
            character,
            "Close your location?",
            choices,
            can_pass=True,
            pass_label="End the turn",
        )

    def answer(self, game: Game, step: Step, chosen: dict[str, Any]) -> None:
        action = chosen["action"]
        character = step["character"]
        kind = action["type"]
        following = {"give": "move", "move": "explore", "explore": "close", "close": "end"}
        if kind == "pass":
            if step["phase"] == "explore" and step["extra"]:
                step["extra"] = False
                game.emit("exploration_forfeited", character=character)
                return
            step["phase"] = following[step["phase"]]
        elif kind == "give":
            game.character(character)["hand"].remove(action["card"])
            game.character(action["to"])["hand"].append(action["card"])
            game.emit("gave", character=character, to=action["to"], card=game.card_id(action["card"]))
            step["phase"] = "move"
        elif kind == "move":
            game.character(character)["location"] = action["location"]
            game.emit("moved", character=character, location=action["location"])
            step["phase"] = "explore"
        elif kind == "explore":
            self._start_exploration(game, step)
        elif kind == "close":
            step["phase"] = "end"
            game.push(
                "close_location",
                character=character,
                location=game.location_of(character),
                reason="empty",
                phase="offer",
                results=[],
            )
        elif kind == "play":
            window = (
                "explore"
                if action["power"] and step["phase"] == "explore" and self._is_explore_power(game, step, action)
                else "turn"
            )
            scene = _turn_scene(game, step, window, may_explore_again=True)
            power = usable_power(game, scene, action)
            if window == "explore":
                step["explore_now"] = True
            perform(game, scene, action, power)

    @staticmethod
    def _is_explore_power(game: Game, step: Step, action: dict[str, Any]) -> bool:
        scene = _turn_scene(game, step, "explore", may_explore_again=True)
        return find_power(game, scene, action) is not None


def turn_effects(game: Game, character: str, when: str) -> None:
    """Powers that happen at the start or end of a turn: on the character, their location,
    their displayed cards, the scourges that mark them and the wildcards in play."""
    sheet = game.sheet(character)
    definitions = [game.character_definition(character)]
    if game.location_view(sheet["location"])["in_play"]:
        definitions.append(game.location_definition(sheet["location"]))
    definitions += [game.definition(card) for card in sheet["displayed"] if game.card_type(card) != "scourge"]
    definitions += [game.definition_of(scourge) for scourge in sheet["scourges"]]
    definitions += [game.definition(card) for card in game.state["table"]["wildcards"]]
    effects = [
        effect
        for definition in definitions
        for power in definition["powers"]
        if power.get("when") == when
        for effect in power.get("effects", [])
    ]
    if effects:
        push_effects(game, character, effects, {"when": when})


class EndTurn(StepHandler):
    """Rulebook: "First, apply any effects that happen at the end of the turn ... Then, if you have any
    cards in a recovery pile, do whatever they say to do during recovery ... banish any that
    remain. Finally, reset your hand"."""

    kind = "end_turn"

    def run(self, game: Game, step: Step) -> Decision | None:
        character = step["character"]
        if step["phase"] == "effects":
            step["phase"] = "play"
            if game.alive(character):
                turn_effects(game, character, "end_of_turn")
            return None
        if step["phase"] == "play":
            # Both rulebooks: while the end-of-turn effects happen you may play cards and use
            # powers (unless a power ended the turn, which skips this step: machine.unwind_turn).
            scene = _turn_scene(game, game.innermost("turn") or step, "turn")
            choices = options(game, scene, [character]) if game.alive(character) else []
            if not choices:
                step["phase"] = "recovery"
                return None
            return decide(
                game,
                step,
                "end_turn",
                character,
                "End of your turn: play cards?",
                choices,
                can_pass=True,
                pass_label="End the turn",
            )
        order = game.state["table"]["order"]
        # The turn's character first, then the others in seating order: a card banished on
        # someone else's turn is recovered at the end of that turn too.
        recovering = [
            name for name in order[order.index(character) :] + order[: order.index(character)] if game.alive(name)
        ]
        if step["phase"] == "recovery":
            step["phase"] = "banish_rest"
            pending = [(name, card) for name in recovering for card in game.sheet(name)["recovery"]]
            for name, card in reversed(pending):
                game.push("recovery", character=name, card=card, phase="check", results=[])
            return None
        if step["phase"] == "banish_rest":
            step["phase"] = "reset"
            for name in recovering:
                sheet = game.character(name)
                for card in list(sheet["recovery"]):
                    sheet["recovery"].remove(card)
                    game.to_vault(card)
            if game.alive(character):
                game.push("reset", character=character, phase="any")
            return None
        expire_effects(game, "turn")
        expire_effects(game, "exploration")
        game.emit("turn_ended", character=character)
        game.pop(step)
        return None

    def answer(self, game: Game, step: Step, chosen: dict[str, Any]) -> None:
        action = chosen["action"]
        if action["type"] == "pass":
            step["phase"] = "recovery"
            return
        scene = _turn_scene(game, game.innermost("turn") or step, "turn")
        perform(game, scene, action, usable_power(game, scene, action))


class Recovery(StepHandler):
    """A card in the recovery pile: attempt its check; success recharges it (or whatever the
    card says), failure banishes it to the vault."""

    kind = "recovery"

    def run(self, game: Game, step: Step) -> Decision | None:
        character, card = step["character"], step["card"]
        sheet = game.character(character)
        if card not in sheet["recovery"] or not game.alive(character):
            game.pop(step)
            return None
        recovery = game.definition(card)["recovery"]
        if step["phase"] == "check":
            step["phase"] = "result"
            sequence = parse_check(recovery.get("check"))
            for alternatives in reversed(sequence):
                push_check(
                    game, character=character, purpose="recovery", alternatives=alternatives, against=card, parent=step
                )
            return None
        succeeded = bool(step["results"]) and all(result["success"] for result in step["results"])
        action = recovery.get("success", "recharge") if succeeded else recovery.get("failure", "banish")
        sheet["recovery"].remove(card)
        if action == "banish":
            game.to_vault(card)
            to = "vault"
        else:
            to = game.put(character, card, action)
        game.emit("recovered" if succeeded else "not_recovered", character=character, card=game.card_id(card), to=to)
        game.pop(step)
        return None


class Reset(StepHandler):
    kind = "reset"

    def run(self, game: Game, step: Step) -> Decision | None:
        character = step["character"]
        if not game.alive(character):
            game.pop(step)
            return None
        sheet = game.character(character)
        hand, size = sheet["hand"], int(sheet["hand_size"])
        player = game.player_of(character)
        if step["phase"] == "any":
            if not hand:
                step["phase"] = "down"
                return None
            choices = [option({"type": "discard", "card": card}, f"Discard {game.name(card)}", player) for card in hand]
            return decide(
                game,
                step,
                "reset",
                character,
                "Reset: discard any cards?",
                choices,
                can_pass=True,
                pass_label="Done discarding",
            )
        if step["phase"] == "down":
            step["phase"] = "draw"
            if len(hand) > size:
                step["phase"] = "down_choice"
            return None
        if step["phase"] == "down_choice":
            return decide(
                game,
                step,
                "discard_down",
                character,
                f"Discard down to your hand size of {size}",
                [],
                select={"count": len(hand) - size, "cards": list(hand)},
            )
        if len(hand) < size:
            drawn = game.draw_from_deck(character, size - len(hand))
            if drawn:
                game.emit("drew", character=character, count=len(drawn))
        game.pop(step)
        return None

    def answer(self, game: Game, step: Step, chosen: dict[str, Any]) -> None:
        action = chosen["action"]
        character = step["character"]
        if action["type"] == "pass":
            step["phase"] = "down"
        elif action["type"] == "discard":
            game.move_from_hand(character, action["card"], "discard")
            game.emit("reset_discard", character=character, card=game.card_id(action["card"]))
        elif action["type"] == "select":
            sheet = game.character(character)
            cards = action["cards"]
            excess = len(sheet["hand"]) - int(sheet["hand_size"])
            if len(cards) != excess or len(set(cards)) != len(cards) or not set(cards) <= set(sheet["hand"]):
                raise IllegalAction(f"choose exactly {excess} different cards from your hand", rule=RULE_RESET)
            for card in cards:
                game.move_from_hand(character, card, "discard")
            step["phase"] = "draw"
