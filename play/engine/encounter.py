"""Encountering a card, in the book's order (Core Set, "Encountering a Card" and the Reference
Sheet), with the villain steps; classic temporarily closes locations before the encounter."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from .cards import is_bane, is_boon
from .check_text import parse_check
from .effects import expire_effects, push_effects, suffer_scourge
from .errors import EngineError, IllegalAction
from .flow import StepHandler, decide, option
from .game import Decision, Game, Step
from .requirements import meet_requirement, requirement, requirement_options
from .starts import push_check, start_encounter
from .windows import push_window

RULE_SEQUENCE = (
    "Attempting a Check: the character who encountered the card must attempt at least one of the checks, "
    "but any others may each be attempted by any local character"
)


CORE_PHASES = (
    "encountered",
    "evade",
    "evaded",
    "guard",
    "before_acting",
    "check",
    "after_acting",
    "resolve",
    "avenge",
    "undefeated",
    "return",
    "villain_close",
    "escape",
    "finish",
    "close",
)


RULE_ENTER = "Encountering a Card: attempt the check the card lists (entered by the player when the data lacks it)"


@lru_cache(maxsize=8)
def _phases(lockdown: str, avenge: bool) -> tuple[str, ...]:
    phases = list(CORE_PHASES)
    if lockdown == "temporary_close":
        phases.remove("guard")
        phases.insert(0, "temporary_close")
    if not avenge:
        phases.remove("avenge")
    return tuple(phases)


def phases_for(game: Game) -> tuple[str, ...]:
    """The encounter's steps under this ruleset (classic closes locations before the encounter
    and has no avenging)."""
    return _phases(game.ruleset.villain_lockdown, game.ruleset.avenge)


def hook(game: Game, step: Step, when: str, character: str | None = None) -> None:
    """Run the encountered card's powers that happen at this point."""
    effects = [
        effect
        for power in game.definition(step["card"])["powers"]
        if power.get("when") == when
        for effect in power.get("effects", [])
    ]
    if effects:
        context = {"encounter": step["id"], "card": step["card"], "when": when}
        push_effects(game, character or step["character"], effects, context)


def _local_location(step: Step) -> str | None:
    return step["origin"].get("location")


def _return_to_origin(game: Game, step: Step, location: str | None = None) -> None:
    """Shuffle the card back into its location, or back in the vault if it was summoned."""
    card = step["card"]
    if card not in game.state["encountered"]:
        return
    game.state["encountered"].remove(card)
    target = location or _local_location(step)
    if target is not None and game.location(target)["in_play"]:
        cards = game.location(target)["cards"]
        cards.append(card)
        game.shuffle(cards, f"location:{target}")
    else:
        game.to_vault(card)


class Encounter(StepHandler):
    kind = "encounter"

    def run(self, game: Game, step: Step) -> Decision | None:
        phases = phases_for(game)
        if step["phase"] >= len(phases):
            game.pop(step)
            return None
        return getattr(self, f"_{phases[step['phase']]}")(game, step)  # type: ignore[no-any-return]

    @staticmethod
    def _next(step: Step) -> None:
        step["phase"] += 1

    @staticmethod
    def _skip_to(game: Game, step: Step, phase: str) -> None:
        step["phase"] = phases_for(game).index(phase)

    def _is_villain_step(self, game: Game, step: Step) -> bool:
        # "If the summoned card is a villain, defeating it does not allow you to win the scenario."
        return game.is_villain(step["card"]) and "summoned" not in step["origin"]

    # -- before acting ------------------------------------------------------------------------
    def _temporary_close(self, game: Game, step: Step) -> None:
        self._next(step)
        if self._is_villain_step(game, step):
            self._offer_lockdown(game, step, "temporary_close")

    def _guard(self, game: Game, step: Step) -> None:
        self._next(step)
        if self._is_villain_step(game, step):
            self._offer_lockdown(game, step, "guard")

    def _offer_lockdown(self, game: Game, step: Step, mode: str) -> None:
        """Each character at a distant location may try to guard (core) / temporarily close
        (classic) it; the villain's location cannot be. Pushed in reverse so they run in order."""
        here = _local_location(step)
        characters = [
            name
            for name in game.living()
            if game.location_of(name) != here and not game.location_view(game.location_of(name))["closed"]
        ]
        for name in reversed(characters):
            game.push("lockdown", character=name, encounter=step["id"], mode=mode, phase="offer", results=[])

    def _encountered(self, game: Game, step: Step) -> None:
        self._next(step)
        card = step["card"]
        definition = game.definition(card)
        if definition["type"] == "scourge":
            # "If you encounter a scourge in a location, immediately suffer it; the encounter is over."
            game.state["encountered"].remove(card)
            game.to_vault(card)
            suffer_scourge(game, step["character"], game.card_id(card))
            self._skip_to(game, step, "finish")
            return
        if definition["type"] == "cohort":
            game.state["encountered"].remove(card)
            game.put(step["character"], card, "hand")
            game.emit("acquired", character=step["character"], card=game.card_id(card))
            self._skip_to(game, step, "finish")
            return
        push_window(game, "encountered", step["character"], step)
        hook(game, step, "encountered")

    def _evade(self, game: Game, step: Step) -> None:
        self._next(step)
        push_window(game, "evade", step["character"], step)

    def _evaded(self, game: Game, step: Step) -> None:
        self._next(step)
        if step["evaded"]:
            game.emit("evaded", character=step["character"], card=game.effective_id(step["card"]))
            _return_to_origin(game, step)
            self._skip_to(game, step, "finish")

    def _before_acting(self, game: Game, step: Step) -> None:
        self._next(step)
        push_window(game, "before_acting", step["character"], step)
        hook(game, step, "before_acting")

    # -- acting ---------------------------------------------------------------------------------
    def _check(self, game: Game, step: Step) -> Decision | None:
        card = step["card"]
        definition = game.definition(card)
        if "sequence" not in step:
            text = definition.get("check") or game.state.get("entered_checks", {}).get(game.effective_id(card))
            if text is None and definition.get("check_unknown"):
                return self._ask_for_check(game, step, definition)
            step["sequence"] = parse_check(text)
            step["next_check"] = 0
            if is_boon(definition) and game.ruleset.boon_acquisition == "may" and step["sequence"]:
                step["asking"] = "acquire"
        if step.get("asking") == "acquire":
            player = game.player_of(step["character"])
            choices = [
                option({"type": "acquire"}, f"Attempt to acquire {definition['name']}", player),
                option({"type": "decline"}, "Do not attempt it (it is banished)", player),
            ]
            return decide(
                game, step, "acquire", step["character"], f"Attempt to acquire {definition['name']}?", choices
            )
        index = step["next_check"]
        if index >= len(step["sequence"]) or step.get("declined"):
            self._next(step)
            return None
        if len(step["results"]) > index:
            step["next_check"] = index + 1
            step.pop("attempter", None)
            return None
        if "attempter" not in step:
            candidates = self._attempters(game, step)
            if len(candidates) == 1:
                step["attempter"] = candidates[0]
            else:
                player = game.player_of(step["character"])
                choices = [
                    option({"type": "attempter", "character": name}, f"{game.character_name(name)} attempts it", player)
                    for name in candidates
                ]
                alternatives = " or ".join(
                    f"{'/'.join(alt['skills'])} {alt['base']}" for alt in step["sequence"][index]
                )
                return decide(
                    game,
                    step,
                    "choose_attempter",
                    step["character"],
                    f"Who attempts check {index + 1} of {len(step['sequence'])} ({alternatives})?",
                    choices,
                    rule=RULE_SEQUENCE,
                )
        push_check(
            game,
            character=step["attempter"],
            purpose="acquire" if is_boon(definition) else "defeat",
            alternatives=step["sequence"][index],
            against=card,
            parent=step,
        )
        return None

    def _attempters(self, game: Game, step: Step) -> list[str]:
        encounterer = step["character"]
        sequence = step["sequence"]
        if len(sequence) == 1 or not game.alive(encounterer):
            return [encounterer]
        already = {result["character"] for result in step["results"]}
        last = step["next_check"] == len(sequence) - 1
        if last and encounterer not in already:
            return [encounterer]
        local = game.local_characters(game.location_of(encounterer))
        return [encounterer] + [name for name in local if name != encounterer]

    @staticmethod
    def _ask_for_check(game: Game, step: Step, definition: dict[str, Any]) -> Decision:
        """The card data leaves this card's check unknown: the player who encounters it enters
        the check as printed, once; the session keeps it for every copy."""
        player = game.player_of(step["character"])
        entry = option({"type": "enter_check"}, f"Enter the check printed on {definition['name']}", player)
        entry["enter"] = {"check": "e.g. Combat 9 + AN, or Dexterity or Acrobatics 6 then Combat 8"}
        prompt = f"{definition['name']}: what check does the card ask for? Enter it as printed"
        return decide(game, step, "enter_check", step["character"], prompt, [entry])

    def answer(self, game: Game, step: Step, chosen: dict[str, Any]) -> None:
        action = chosen["action"]
        if action["type"] == "enter_check":
            text = action.get("check")
            try:
                parsed = parse_check(text) if isinstance(text, str) and text.strip() else None
            except EngineError as error:
                raise IllegalAction(error.message, rule=RULE_ENTER) from None
            if not parsed:
                raise IllegalAction("enter the check as printed, e.g. 'Combat 9 + AN'", rule=RULE_ENTER)
            card_id = game.effective_id(step["card"])
            game.state["entered_checks"] = {**game.state.get("entered_checks", {}), card_id: text.strip()}
            game.emit("check_entered", character=step["character"], card=card_id, check=text.strip())
        elif action["type"] == "acquire":
            step.pop("asking")
        elif action["type"] == "decline":
            step.pop("asking")
            step["declined"] = True
            game.emit("declined", character=step["character"], card=game.card_id(step["card"]))
        elif action["type"] == "attempter":
            step["attempter"] = action["character"]

    def _after_acting(self, game: Game, step: Step) -> None:
        self._next(step)
        push_window(game, "after_acting", step["character"], step)
        hook(game, step, "after_acting")

    # -- resolving ------------------------------------------------------------------------------
    def _succeeded(self, step: Step) -> bool:
        return bool(step["sequence"]) and not step.get("declined") and all(r["success"] for r in step["results"])

    def _resolve(self, game: Game, step: Step) -> None:
        self._next(step)
        card = step["card"]
        definition = game.definition(card)
        character = step["character"]
        success = self._succeeded(step)
        if is_boon(definition):
            game.state["encountered"].remove(card)
            if success:
                game.put(character, card, "hand")
                game.emit("acquired", character=character, card=game.card_id(card))
                hook(game, step, "acquired")
            else:
                game.to_vault(card)
                game.emit("not_acquired", character=character, card=game.card_id(card))
            self._skip_to(game, step, "finish")
            return
        if not is_bane(definition):
            game.state["encountered"].remove(card)
            game.to_vault(card)
            self._skip_to(game, step, "finish")
            return
        step["defeated"] = success
        if success:
            game.emit("defeated", character=character, card=game.effective_id(card))
            if not self._is_villain_step(game, step):
                game.state["encountered"].remove(card)
                game.to_vault(card)
                role = game.story_bane(card)
                if role and role.get("closing") and _local_location(step) and "summoned" not in step["origin"]:
                    step["close_opportunity"] = True
                self._skip_to(game, step, "finish")
            else:
                self._skip_to(game, step, "villain_close")
            hook(game, step, "defeated")
        else:
            game.emit("undefeated", character=character, card=game.effective_id(card))

    def _avenge(self, game: Game, step: Step) -> None:
        """Core: "Another local character may avenge your encounter with an undefeated bane by
        burying a card to encounter it ... Only one avenging attempt can be made for each bane"."""
        self._next(step)
        if step["avenging"] or step["card"] not in game.state["encountered"]:
            return
        here = game.location_of(step["character"])
        candidates = [
            name for name in game.local_characters(here) if name != step["character"] and game.sheet(name)["hand"]
        ]
        if candidates:
            game.push("avenge", encounter=step["id"], candidates=candidates, index=0)

    def _undefeated(self, game: Game, step: Step) -> None:
        self._next(step)
        avenger = step.get("avenger")
        if avenger:
            # First the undefeated effects (ignoring any that would move the bane), then the
            # avenging character's own encounter with the same bane, which decides where it goes.
            step["handed_over"] = True
            start_encounter(game, avenger, step["card"], step["origin"], avenging=True)
            step["no_move"] = True
            hook(game, step, "undefeated")
            self._skip_to(game, step, "finish")
            return
        hook(game, step, "undefeated")

    def _return(self, game: Game, step: Step) -> None:
        self._next(step)
        if self._is_villain_step(game, step):
            return
        if step["card"] in game.state["encountered"] and not step.get("handed_over"):
            _return_to_origin(game, step, step.get("destination"))
        self._skip_to(game, step, "finish")

    # -- villain steps --------------------------------------------------------------------------
    def _villain_close(self, game: Game, step: Step) -> None:
        self._next(step)
        if not step.get("defeated"):
            return
        here = _local_location(step)
        if here is None or game.location(here)["closed"]:
            return
        cards = game.location(here)["cards"]
        others = [card for card in cards if game.is_villain(card)]
        if not others:
            game.push("closing", character=step["character"], location=here, phase="before", reason="villain")
            return
        for card in [card for card in cards if not game.is_villain(card)]:
            cards.remove(card)
            game.to_vault(card)
        game.shuffle(cards, f"location:{here}")
        distant = [name for name in game.open_locations() if name != here and game.location_view(name)["in_play"]]
        if all(name in step["guarded"] for name in distant):
            game.state["encountered"].remove(step["card"])
            game.to_vault(step["card"])
            game.emit("villain_banished", card=game.effective_id(step["card"]))

    def _escape(self, game: Game, step: Step) -> None:
        self._next(step)
        card = step["card"]
        if card not in game.state["encountered"]:
            return
        unguarded = [
            name
            for name in game.open_locations()
            if game.location_view(name)["in_play"] and name not in step["guarded"]
        ]
        if not unguarded:
            game.state["encountered"].remove(card)
            game.to_vault(card)
            remaining = [
                other
                for name in game.open_locations()
                for other in game.location(name)["cards"]
                if game.is_villain(other)
            ]
            game.emit("villain_cornered", card=game.effective_id(card))
            if not remaining:
                game.end("won", f"{game.name(card)} was cornered")
            return
        needed = len(unguarded) - 1
        blessings: list[str] = []
        if step.get("defeated"):
            for _ in range(needed):
                blessing = game.vault_random("blessing", "escape")
                if blessing is not None:
                    blessings.append(blessing)
        else:
            hourglass = game.state["hourglass"]
            if len(hourglass) < needed:
                game.end("lost", f"the {game.ruleset.timer} ran out of cards for the villain's escape")
                return
            blessings = hourglass[:needed]
            del hourglass[:needed]
        game.state["encountered"].remove(card)
        dealt = [card, *blessings]
        game.shuffle(dealt, "escape")
        if len(dealt) < len(unguarded):
            # Fewer blessings than needed ("use as many as there are"): which locations get a
            # card is random too.
            places = [game.location_view(name)["card"] for name in unguarded]
            game.shuffle(places, "escape:locations")
            unguarded = [
                next(name for name in unguarded if game.location_view(name)["card"] == place) for place in places
            ]
        for name, dealt_card in zip(unguarded, dealt, strict=False):
            cards = game.location(name)["cards"]
            cards.insert(0, dealt_card)
            game.shuffle(cards, f"location:{name}")
        game.emit("villain_escaped", card=game.effective_id(card), locations=unguarded)

    def _close(self, game: Game, step: Step) -> None:
        # The encounter is over (cards forget it: a henchman's immunities and the encounter's
        # lasting effects do not reach the closing check), so it leaves the stack first.
        game.pop(step)
        here = _local_location(step)
        character = step["character"]
        if (
            step.get("close_opportunity")
            and here is not None
            and game.alive(character)
            and game.location_of(character) == here
            and not game.location(here)["closed"]
        ):
            game.push(
                "close_location", character=character, location=here, reason="henchman", phase="offer", results=[]
            )

    def _finish(self, game: Game, step: Step) -> None:
        self._next(step)
        if step["card"] in game.state["encountered"] and not step.get("handed_over"):
            _return_to_origin(game, step)
        expire_effects(game, "encounter", encounter=step["id"])
        game.emit("encounter_ended", character=step["character"], card=game.effective_id(step["card"]))

    def abort(self, game: Game, step: Step) -> None:
        if step["card"] in game.state["encountered"]:
            _return_to_origin(game, step)


class Avenge(StepHandler):
    kind = "avenge"

    def run(self, game: Game, step: Step) -> Decision | None:
        encounter = game.step_by_id(step["encounter"])
        candidates = step["candidates"]
        while step["index"] < len(candidates):
            name = candidates[step["index"]]
            if encounter is not None and game.alive(name) and game.sheet(name)["hand"]:
                break
            step["index"] += 1
        if encounter is None or step["index"] >= len(candidates):
            game.pop(step)
            return None
        name = candidates[step["index"]]
        player = game.player_of(name)
        bane = game.name(encounter["card"])
        choices = [
            option(
                {"type": "avenge", "character": name, "card": card},
                f"Bury {game.name(card)} to encounter {bane}",
                player,
            )
            for card in game.sheet(name)["hand"]
        ]
        return decide(
            game,
            step,
            "avenge",
            name,
            f"Avenge the encounter with {bane}?",
            choices,
            can_pass=True,
            pass_label="Do not avenge",
        )

    def answer(self, game: Game, step: Step, chosen: dict[str, Any]) -> None:
        action = chosen["action"]
        if action["type"] == "pass":
            step["index"] += 1
            return
        encounter = game.step_by_id(step["encounter"])
        assert encounter is not None
        game.move_from_hand(action["character"], action["card"], "bury")
        encounter["avenger"] = action["character"]
        game.emit("avenged", character=action["character"], buried=game.card_id(action["card"]))
        game.pop(step)


class Lockdown(StepHandler):
    """Guard a distant location (core) or temporarily close it (classic) against a villain."""

    kind = "lockdown"

    def _key(self, step: Step) -> str:
        return "to_guard" if step["mode"] == "guard" else "to_close"

    def run(self, game: Game, step: Step) -> Decision | None:
        character = step["character"]
        encounter = game.step_by_id(step["encounter"])
        if encounter is None or not game.alive(character):
            game.pop(step)
            return None
        location = game.location_of(character)
        if step["phase"] == "result":
            if step["results"] and all(result["success"] for result in step["results"]):
                encounter["guarded"].append(location)
                game.emit(
                    "guarded" if step["mode"] == "guard" else "temporarily_closed",
                    character=character,
                    location=location,
                )
            game.pop(step)
            return None
        if location == encounter["origin"].get("location") or location in encounter["guarded"]:
            game.pop(step)
            return None
        choices = requirement_options(game, character, location, self._key(step))
        if not choices:
            game.pop(step)
            return None
        verb = "guard" if step["mode"] == "guard" else "temporarily close"
        return decide(
            game,
            step,
            step["mode"],
            character,
            f"{verb.capitalize()} {game.location_definition(location)['name']}?",
            choices,
            can_pass=True,
            pass_label=f"Do not {verb} it",
        )

    def answer(self, game: Game, step: Step, chosen: dict[str, Any]) -> None:
        action = chosen["action"]
        if action["type"] == "pass":
            game.pop(step)
            return
        character = step["character"]
        location = game.location_of(character)
        alternative = requirement(game, location, self._key(step))[action["option"]]
        step["phase"] = "result"
        meet_requirement(game, step, character, alternative, action, "guard")
