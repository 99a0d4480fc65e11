"""The effect vocabulary, and the steps that carry out effects needing a player's choice.

An effect is a one-key mapping, e.g. `{add_die: 1d4}`. Check, damage and encounter effects
change the situation at once (add_die, add_skill, add, bless, add_trait, use_skill, reroll,
reduce_damage, evade); the others run in an `effects` step (heal, draw, the card actions on
other cards, suffer_scourge, one_of, lasting, examine, search, summon, explore_again, damage,
check_each, restrict, move, handler). `handler: <card id>` calls a function registered for the
few powers the vocabulary cannot say.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from . import assembly
from .check_text import parse_check, resolve_skill
from .errors import EngineError
from .flow import StepHandler, decide, option
from .game import Decision, Game, Step
from .powers import CARD_ACTIONS, Scene, pay_and_record
from .starts import push_check, start_encounter

CardHandler = Callable[[Game, Step], None]
CARD_HANDLERS: dict[str, CardHandler] = {}

IMMEDIATE = {"add_die", "add_skill", "add", "bless", "add_trait", "reroll", "reduce_damage", "evade", "use_skill"}


def card_handler(name: str) -> Callable[[CardHandler], CardHandler]:
    """Registers a handler for a power the vocabulary cannot say, by card id."""

    def register_handler(function: CardHandler) -> CardHandler:
        CARD_HANDLERS[name] = function
        return function

    return register_handler


def perform(game: Game, scene: Scene, action: dict[str, Any], power: dict[str, Any]) -> None:
    """Use a power: pay its cost, count it against the limits, then do its effects in order."""
    pay_and_record(game, scene, action, power)
    character, card = action["character"], action.get("card")
    label = game.name(card) if card else action["source"]
    deferred = []
    for effect in power.get("effects", []):
        ((name, value),) = effect.items()
        if name in IMMEDIATE:
            _immediate(game, scene, action, name, value, label, card)
        else:
            deferred.append(effect)
    if deferred:
        push_effects(game, character, deferred, scene_context(scene, action))


def scene_context(scene: Scene, action: dict[str, Any] | None = None) -> dict[str, Any]:
    context: dict[str, Any] = {}
    if scene.check is not None:
        context["check"] = scene.check["id"]
    if scene.encounter is not None:
        context["encounter"] = scene.encounter["id"]
    if action is not None:
        for key in ("card", "target", "pay"):
            if action.get(key) is not None:
                context[key] = action[key]
    return context


def push_effects(game: Game, character: str, effects: list[dict[str, Any]], context: dict[str, Any]) -> Step:
    return game.push("effects", character=character, queue=list(effects), context=context)


def _immediate(
    game: Game, scene: Scene, action: dict[str, Any], name: str, value: Any, label: str, card: str | None
) -> None:
    check = scene.check
    if name == "add_die":
        assert check is not None
        assembly.add_dice(check, str(value), label)
    elif name == "add_skill":
        # "add your Arcane skill": the die and bonus of the playing character's skill.
        assert check is not None
        die, modifier, _ = resolve_skill(game.sheet(action["character"])["skills"], str(value))
        assembly.add_dice(check, f"1d{die}{modifier:+d}" if modifier else f"1d{die}", label)
    elif name == "add":
        assert check is not None
        check["modifier"] += int(value)
    elif name == "bless":
        assert check is not None
        assembly.bless(check, int(value), label)
        if card is not None and game.ruleset.deity_traits:
            deities = [trait for trait in game.definition(card)["traits"] if trait.startswith("Deity")]
            check["traits"] = list(dict.fromkeys(check["traits"] + [d.split(":", 1)[-1].strip() for d in deities]))
    elif name == "add_trait":
        assert check is not None
        check["traits"] = list(dict.fromkeys(check["traits"] + list(value)))
    elif name == "use_skill":
        assert check is not None
        alternative = check["alternatives"][action["alternative"]]
        listed = "Combat" if "Combat" in alternative["skills"] else action["skill"]
        plus = 0
        if value.get("plus_level") and action.get("pay"):
            plus = int(game.definition(action["pay"]).get("level") or 0)
        traits = list(game.definition(card)["traits"]) if card and action["source"] in ("hand", "displayed") else []
        assembly.set_skill(
            game,
            check,
            action["alternative"],
            listed,
            action["skill"],
            extra_dice=value.get("add", ""),
            extra_traits=traits,
            plus=plus,
            label=label,
        )
    elif name == "reroll":
        assert check is not None
        indexes = range(len(check["dice"])) if value == "all" else [action["die"]]
        for index in indexes:
            die = check["dice"][index]
            before = die["face"]
            die["face"] = game.roll(die["sides"], f"reroll:{check['id']}")
            game.emit("rerolled", check=check["id"], die=index, sides=die["sides"], before=before, face=die["face"])
        check["result"] = assembly.result(game, check)
    elif name == "reduce_damage":
        damage = scene.damage
        assert damage is not None
        amount = (
            damage["amount"] if value.get("amount") == "all" else min(damage["amount"], int(value.get("amount", 0)))
        )
        damage["amount"] -= amount
        game.emit("damage_reduced", character=damage["character"], by=amount, left=damage["amount"])
    elif name == "evade":
        encounter = scene.encounter
        assert encounter is not None
        encounter["evaded"] = True


# -- effects that run as steps ---------------------------------------------------------------
def matching(game: Game, cards: list[str], selector: dict[str, Any]) -> list[str]:
    found = []
    for card in cards:
        definition = game.definition(card)
        if "type" in selector and definition["type"] not in (
            selector["type"] if isinstance(selector["type"], list) else [selector["type"]]
        ):
            continue
        if "traits" in selector and not set(definition["traits"]) & set(selector["traits"]):
            continue
        found.append(card)
    return found


def _possible(game: Game, character: str, effects: list[dict[str, Any]]) -> bool:
    """Rulebook: "You may not choose an impossible option unless you have no other choice"."""
    sheet = game.sheet(character)
    for effect in effects:
        ((name, value),) = effect.items()
        if name in CARD_ACTIONS and isinstance(value, dict):
            zone = value.get("from", "hand")
            if not matching(game, sheet.get(zone, []) if zone != "deck" else sheet["deck"][:1], value):
                return False
    return True


def heal(game: Game, character: str, count: int, exclude: set[str | None] | None = None) -> None:
    """Rulebook: "shuffle the specified number ... of random cards from your discards into your
    deck. If you're discarding a card to heal yourself, exclude that card"."""
    sheet = game.character(character)
    healed = []
    for _ in range(count):
        candidates = [card for card in sheet["discards"] if card not in (exclude or ())]
        if not candidates:
            break
        card = candidates[game.pick(candidates, f"discards:{character}")]
        sheet["discards"].remove(card)
        sheet["deck"].append(card)
        healed.append(game.card_id(card))
    if healed:
        game.shuffle(sheet["deck"], f"deck:{character}")
        game.emit("healed", character=character, cards=healed)


def suffer_scourge(game: Game, character: str, scourge: str) -> None:
    """Display the scourge if no one displays it yet, and mark the character."""
    sheet = game.character(character)
    if scourge in sheet["scourges"] or not sheet["alive"]:
        return
    displayed = any(
        game.card_id(card) == scourge for other in game.state["characters"].values() for card in other["displayed"]
    )
    if not displayed:
        sheet["displayed"].append(game.retrieve(scourge))
    sheet["scourges"].append(scourge)
    game.emit("scourge_suffered", character=character, scourge=scourge)


def gain_new(game: Game, character: str, kind: str, where: str = "hand") -> str | None:
    """Rulebook: "When you must get a new card, take it from the vault": a random card of that type."""
    card = game.vault_random(kind, f"new:{kind}")
    if card is None:
        return None
    game.put(character, card, where)
    game.emit("card_gained", character=character, card=game.card_id(card), to=where)
    return card


def examine(game: Game, character: str, location: str, count: int) -> None:
    """Look at the top cards of a location and put them back; the party talks, so the cards
    become known to every player until that location is shuffled."""
    cards = game.location(location)["cards"][:count]
    for card in cards:
        if card not in game.state["revealed"]:
            game.state["revealed"].append(card)
    game.emit("examined", character=character, location=location, cards=[game.effective_id(c) for c in cards])


def _run_effect(game: Game, step: Step, effect: dict[str, Any]) -> None:
    ((name, value),) = effect.items()
    character = step["character"]
    context = step["context"]
    sheet = game.character(character)
    if name == "heal":
        # "If you're discarding a card to heal yourself, exclude that card": the card played
        # and the card paid with are both excluded.
        heal(game, character, int(value), exclude={context.get("card"), context.get("pay")})
    elif name == "draw":
        if isinstance(value, dict) and value.get("from") == "vault":
            gain_new(game, character, value["type"])
        else:
            game.draw_from_deck(character, int(value))
    elif name == "_move":
        zone = sheet[value["from"]]
        if value["card"] in zone:
            zone.remove(value["card"])
            to = game.put(character, value["card"], value["action"])
            game.emit(
                "card_moved", character=character, card=game.card_id(value["card"]), action=value["action"], to=to
            )
    elif name in CARD_ACTIONS:
        selector = value if isinstance(value, dict) else {}
        zone_name = selector.get("from", "hand")
        if zone_name == "deck":
            if not sheet["deck"]:
                game.kill(character, f"had to {name} a card from an empty deck")
                return
            candidates = sheet["deck"][:1]
        else:
            candidates = matching(game, sheet[zone_name], selector)
        if len(candidates) == 1 or zone_name == "deck":
            _run_effect(game, step, {"_move": {"card": candidates[0], "from": zone_name, "action": name}})
        elif candidates:
            choices = [
                {
                    "label": f"{name.capitalize()} {game.name(card)}",
                    "effects": [{"_move": {"card": card, "from": zone_name, "action": name}}],
                }
                for card in candidates
            ]
            game.push(
                "choose", character=character, prompt=f"Choose a card to {name}", choices=choices, context=context
            )
    elif name == "suffer_scourge":
        suffer_scourge(game, character, str(value))
    elif name == "one_of":
        possible = [effects for effects in value if _possible(game, character, effects)] or list(value)
        if len(possible) == 1:
            step["queue"] = list(possible[0]) + step["queue"]
        else:
            choices = [{"label": describe(effects), "effects": effects} for effects in possible]
            game.push("choose", character=character, prompt="Choose one", choices=choices, context=context)
    elif name == "lasting":
        lasting = dict(value)
        duration = lasting.pop("duration", "turn")
        effect = {"character": character, "duration": duration, "passive": lasting}
        if duration == "encounter":
            # It ends with its own encounter, not with a summoned encounter nested inside it.
            encounter = game.step_by_id(context.get("encounter")) or game.innermost("encounter")
            effect["encounter"] = encounter["id"] if encounter else None
        game.state["effects"].append(effect)
    elif name == "examine":
        location = context.get("target") or game.location_of(character)
        examine(game, character, location, int(value.get("count", 1)))
    elif name == "explore_again":
        turn = game.innermost("turn")
        if turn is not None and turn["character"] == character:
            turn["extra"] = True
    elif name == "damage":
        push_damage(
            game,
            character,
            int(value["amount"]),
            value.get("type", "Combat"),
            context.get("card"),
            unreducible=bool(value.get("unreducible")),
        )
    elif name == "check_each":
        _check_each(game, step, value)
    elif name == "restrict":
        _restrict(game, step, value)
    elif name == "move":
        _move_random(game, character)
    elif name == "summon":
        _summon(game, step, value)
    elif name == "search":
        zone_name = value.get("from", "deck")
        candidates = matching(game, sheet[zone_name], value)
        tail: list[dict[str, Any]] = [{"_shuffle": zone_name}] if zone_name == "deck" else []
        choices = [
            {
                "label": f"Take {game.name(card)}",
                "effects": [{"_move": {"card": card, "from": zone_name, "action": "draw"}}, *tail],
            }
            for card in candidates
        ]
        if choices:
            game.push("choose", character=character, prompt="Choose a card", choices=choices, context=context)
        elif tail:
            step["queue"] = tail + step["queue"]
    elif name == "_shuffle":
        game.shuffle(sheet[value], f"{value}:{character}")
    elif name == "handler":
        if value not in CARD_HANDLERS:
            raise EngineError(f"no handler registered for {value}")
        CARD_HANDLERS[value](game, step)
    else:
        raise EngineError(f"unknown effect {name!r}")


def _check_each(game: Game, step: Step, spec: dict[str, Any]) -> None:
    """`check_each: {who, check, failure, success}`: each character named by `who` (self: the
    one the power acts on; local: every character at that location; all: every character)
    attempts the check; the failure (or success) effects then happen to that character. The
    character the power acts on goes first, the others in seating order."""
    character = step["character"]
    if spec.get("who", "self") == "self":
        who = [character]
    else:
        here = game.location_of(character)
        others = [
            name
            for name in game.living()
            if name != character and (spec["who"] == "all" or game.location_of(name) == here)
        ]
        who = [character, *others] if game.alive(character) else others
    for name in reversed(who):
        game.push("check_each", character=name, spec=spec, context=dict(step["context"]), phase="check", results=[])


def _restrict(game: Game, step: Step, spec: dict[str, Any]) -> None:
    """`restrict: {play: [weapon, spell], duration: encounter}`: a lasting effect that keeps the
    character from playing cards of those types (powers.power_failure reads it)."""
    encounter = game.step_by_id(step["context"].get("encounter")) or game.innermost("encounter")
    game.state["effects"].append(
        {
            "character": step["character"],
            "duration": spec.get("duration", "encounter"),
            "encounter": encounter["id"] if encounter else None,
            "passive": {"forbid_play": list(spec["play"])},
        }
    )
    game.emit("restricted", character=step["character"], play=list(spec["play"]))


def _move_random(game: Game, character: str) -> None:
    """`move: {to: random}`: to a random other location on the table, by a die with one side per
    location (the Wrath book rolls a d4 for the 4 other locations), in the scenario's order."""
    here = game.location_of(character)
    targets = [name for name in game.locations_in_play() if name != here]
    if not targets:
        return
    face = game.roll(len(targets), f"move:{character}") if len(targets) > 1 else 1
    game.character(character)["location"] = targets[face - 1]
    game.emit("moved", character=character, location=targets[face - 1], forced=True)


class CheckEach(StepHandler):
    """One character's check for a `check_each` effect, then its failure or success effects."""

    kind = "check_each"

    def run(self, game: Game, step: Step) -> Decision | None:
        character = step["character"]
        if not game.alive(character):
            game.pop(step)
            return None
        spec = step["spec"]
        if step["phase"] == "check":
            step["phase"] = "result"
            for alternatives in reversed(parse_check(spec["check"])):
                push_check(game, character=character, purpose="power", alternatives=alternatives, parent=step)
            return None
        game.pop(step)
        success = bool(step["results"]) and all(result["success"] for result in step["results"])
        game.emit("power_check", character=character, check=spec["check"], success=success)
        effects = spec.get("success" if success else "failure") or []
        if effects:
            push_effects(game, character, list(effects), step["context"])
        return None


def _summon(game: Game, step: Step, spec: Any) -> None:
    """Summon a card and encounter it. `{summon: danger}` summons the scenario's danger (a random
    one if there are several); `{summon: {card: id}}` a named card; `{summon: {type: monster}}` a
    random card of a type. A summoned card goes back to the vault afterwards (an imagined copy
    if every copy is in use)."""
    character = step["character"]
    summoner = game.step_by_id(step["context"].get("encounter"))
    summoner_id = game.card_id(summoner["card"]) if summoner else None
    chain = list(summoner["origin"].get("summoned_by", [])) if summoner and summoner["origin"].get("summoned") else []
    if chain and not game.ruleset.summoned_may_summon:
        _summon_refused(game, character, summoner_id, "summoned cards cannot cause other cards to be summoned")
        return
    found = None
    if spec == "danger":
        dangers = game.state["table"]["dangers"]
        if not dangers:
            return
        card_id = game.card_id(dangers[game.pick(dangers, "danger")])
    elif "card" in spec:
        card_id = spec["card"]
    else:
        found = game.vault_random(spec["type"], f"summon:{spec['type']}")
        if found is None:
            return
        card_id = game.card_id(found)
    if chain and card_id in (summoner_id, chain[-1]):
        if found is not None:
            game.to_vault(found)
        what = "itself" if card_id == summoner_id else "the card that summoned it"
        _summon_refused(game, character, summoner_id, f"a summoned card can't cause you to summon a copy of {what}")
        return
    if found is not None:
        card = found
    elif spec == "danger":
        card = game.new_instance(card_id, ephemeral=True)
    else:
        card = game.vault_named(card_id)
    game.emit("summoned", character=character, cards=[card_id])
    origin: dict[str, Any] = {"summoned": True}
    if summoner_id is not None:
        origin["summoned_by"] = [*chain, summoner_id]
    start_encounter(game, character, card, origin)


def _summon_refused(game: Game, character: str, summoner: str | None, why: str) -> None:
    game.emit("summon_refused", character=character, card=summoner, reason=why, rule="Summoned Cards and New Cards")


def describe(effects: list[dict[str, Any]]) -> str:
    words = []
    for effect in effects:
        ((name, value),) = effect.items()
        if isinstance(value, dict):
            detail = " ".join(str(v) for v in value.values())
            words.append(f"{name.replace('_', ' ')} {detail}".strip())
        else:
            words.append(f"{name.replace('_', ' ')} {value}")
    return "; ".join(words)


class Effects(StepHandler):
    kind = "effects"

    def run(self, game: Game, step: Step) -> Decision | None:
        if not step["queue"] or not game.alive(step["character"]):
            game.pop(step)
            return None
        effect = step["queue"].pop(0)
        _run_effect(game, step, effect)
        return None


class Choose(StepHandler):
    kind = "choose"

    def run(self, game: Game, step: Step) -> Decision | None:
        character = step["character"]
        if not game.alive(character) or not step["choices"]:
            game.pop(step)
            return None
        player = game.player_of(character)
        options = [
            option({"type": "choose", "index": index}, choice["label"], player)
            for index, choice in enumerate(step["choices"])
        ]
        return decide(game, step, "choose", character, step["prompt"], options)

    def answer(self, game: Game, step: Step, chosen: dict[str, Any]) -> None:
        choice = step["choices"][chosen["action"]["index"]]
        game.pop(step)
        push_effects(game, step["character"], choice["effects"], step["context"])


def push_damage(
    game: Game,
    character: str,
    amount: int,
    damage_type: str,
    source: str | None,
    played: list[Any] | None = None,
    *,
    unreducible: bool = False,
) -> Step:
    """Damage to suffer; `played` carries over the boons played on the check that caused it
    (one boon of each type counts across the check and its damage). `unreducible`: "damage
    that may not be reduced" skips the reduction window (increases still apply)."""
    return game.push(
        "damage",
        character=character,
        amount=amount,
        type=damage_type,
        source=source,
        played=list(played or []),
        used=[],
        phase="increase",
        unreducible=unreducible,
    )


def expire_effects(game: Game, duration: str, character: str | None = None, encounter: int | None = None) -> None:
    game.state["effects"] = [
        effect
        for effect in game.state["effects"]
        if not (
            effect["duration"] == duration
            and (character is None or effect["character"] == character)
            and (encounter is None or effect.get("encounter") in (None, encounter))
        )
    ]
