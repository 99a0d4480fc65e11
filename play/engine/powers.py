"""Which powers can be used right now, and what using one does to the situation.

A power is data on a card definition (see README, "Card definitions"):
`{id, timing, cost, requires, effects, freely, grants}`. `timing` names the window it can be
used in: check.skill (determine the skill), check (play cards on a check), reroll, damage,
evade, encountered, before_acting, after_acting, explore, turn. `cost` is the card action done
with the card itself (reveal, display, reload, recharge, discard, bury, banish), or for
character and location powers `{action: selector}` done with another card from the hand.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from .check_text import resolve_skill
from .declared import declared_power, offered
from .errors import IllegalAction
from .game import Game, Step, timings_in

CARD_ACTIONS = ("reveal", "display", "reload", "recharge", "discard", "bury", "banish")

RULE_PLAYING = "Playing Cards: play a card only when it allows it; each power once per check or step"
RULE_FROM_HAND = "Dealing with Cards: a card you play must come from your hand unless it is displayed"
RULE_IMMUNE = "Encountering a Card: you may not play cards that have a trait the card you encounter is immune to"
RULE_SITUATION = "Dealing with Cards: you may not use a power that doesn't apply to your current situation"
RULE_ONE_POWER = "Playing Cards: when you play a boon that has multiple powers, choose only one of them, even freely"
RULE_RESTRICTED = "Playing Cards: you may not play a card a power forbids you to play"
RULE_REVEAL = "Reveal: you may not reveal the same card for its power more than once per check or step"


@dataclass
class Scene:
    """What is going on when powers are offered: the window, the step whose limits apply, and
    the character whose check, damage, encounter or turn it is."""

    window: str
    step: Step
    focus: str
    check: Step | None = None
    damage: Step | None = None
    encounter: Step | None = None
    extra: dict[str, Any] = field(default_factory=dict)


def rule_boon_limit(game: Game) -> str:
    return f"Encountering a Card: {game.ruleset.boon_limit_text()}; freely played powers do not count"


# -- passive powers --------------------------------------------------------------------------
def _holders(game: Game, character: str) -> Iterator[tuple[str, list[dict[str, Any]]]]:
    """(holder, passives) active for a character: character cards (their own and other living
    ones), their location, the hour (core), displayed cards, lasting effects and wildcards."""
    for other in game.living():
        yield other, game.character_definition(other).get("passive", [])
        for card in game.sheet(other)["displayed"]:
            yield other, game.definition(card).get("passive", [])
    location = game.location_of(character)
    if location in game.state["locations"] and game.location_view(location)["in_play"]:
        yield character, game.location_definition(location).get("passive", [])
    if game.ruleset.hour_effects and game.state["hourglass_discards"]:
        yield character, game.definition(game.state["hourglass_discards"][0]).get("hour", {}).get("passive", [])
    for effect in game.state["effects"]:
        if effect["character"] == character:
            yield character, [effect["passive"]]
    for card in game.state["table"]["wildcards"]:
        yield character, game.definition(card).get("passive", [])


def passives(game: Game, character: str, key: str) -> list[dict[str, Any]]:
    """Passive entries having `key` that apply to `character` (their `requires.whose` read
    relative to the card's holder: own = the holder only, local = at the holder's location)."""
    found = []
    for holder, entries in _holders(game, character):
        for entry in entries:
            if key not in entry:
                continue
            whose = entry.get("requires", {}).get("whose", "own")
            if whose == "own" and holder != character:
                continue
            if whose == "local" and game.location_of(holder) != game.location_of(character):
                continue
            found.append(entry)
    return found


def target_matches(game: Game, target: str | None, requires: dict[str, Any]) -> bool:
    """The against_* requirements of a power or passive, tested on the card a check is against."""
    if not any(key.startswith("against") for key in requires):
        return True
    if target is None:
        return False
    definition = game.definition(target)
    if "against_type" in requires:
        kinds = {definition["type"], definition.get("subtype")}
        if not kinds & set(requires["against_type"]):
            return False
    if "against_traits" in requires and not set(definition["traits"]) & set(requires["against_traits"]):
        return False
    return not (requires.get("against_story_bane") and game.story_bane(target) is None)


# -- requirements ----------------------------------------------------------------------------
def _whose_failure(game: Game, character: str, focus: str, whose: str) -> str | None:
    if whose == "own" and character != focus:
        return "it can be used only on your own check or encounter"
    if whose == "local" and game.location_of(character) != game.location_of(focus):
        return "it can be used only at the same location"
    return None


def _check_failure(game: Game, scene: Scene, character: str, power: dict[str, Any]) -> str | None:
    check = scene.check
    assert check is not None
    requires = power.get("requires", {})
    failure = _whose_failure(game, character, check["character"], requires.get("whose", "own"))
    if failure:
        return failure
    if scene.window != "check.skill":
        if requires.get("check") == "combat" and not check["combat"]:
            return "it affects only combat checks"
        if requires.get("check") == "noncombat" and check["combat"]:
            return "it affects only non-combat checks"
        if "skills" in requires and not set(requires["skills"]) & set(check["skill_traits"]):
            return f"it affects only {' or '.join(requires['skills'])} checks"
    if "purpose" in requires and check["purpose"] not in requires["purpose"]:
        return f"it is used only on checks to {' or '.join(requires['purpose'])}"
    if not target_matches(game, check.get("against"), requires):
        return "the check is not against the kind of card it names"
    return None


def _damage_failure(game: Game, scene: Scene, character: str, power: dict[str, Any]) -> str | None:
    damage = scene.damage
    assert damage is not None
    requires = power.get("requires", {})
    failure = _whose_failure(game, character, damage["character"], requires.get("whose", "own"))
    if failure:
        return failure
    for effect in power.get("effects", []):
        reduce = effect.get("reduce_damage")
        if reduce is not None:
            types = reduce.get("types", ["any"])
            if "any" not in types and damage["type"] not in types:
                return f"it reduces only {' or '.join(types)} damage, not {damage['type']}"
    if damage["amount"] <= 0:
        return "there is no damage left to reduce"
    return None


def _encounter_failure(game: Game, scene: Scene, character: str, power: dict[str, Any]) -> str | None:
    encounter = scene.encounter
    assert encounter is not None
    requires = power.get("requires", {})
    failure = _whose_failure(game, character, encounter["character"], requires.get("whose", "own"))
    if failure:
        return failure
    if not target_matches(game, encounter["card"], requires):
        return "the encountered card is not the kind it names"
    if "encountering_type" in requires:
        definition = game.definition(encounter["card"])
        if not {definition["type"], definition.get("subtype")} & set(requires["encountering_type"]):
            return "the encountered card is not the kind it names"
    return None


def _situation_failure(game: Game, scene: Scene, character: str, power: dict[str, Any]) -> str | None:
    if scene.window in ("check", "check.skill", "reroll"):
        return _check_failure(game, scene, character, power)
    if scene.window == "damage":
        return _damage_failure(game, scene, character, power)
    if scene.window in ("evade", "encountered", "before_acting", "after_acting"):
        return _encounter_failure(game, scene, character, power)
    if scene.window in ("explore", "turn") and character != scene.focus:
        return "it can be used only on your own turn"
    return None


def _added_traits(game: Game, character: str, power: dict[str, Any]) -> set[str]:
    traits: set[str] = set()
    skills = game.sheet(character)["skills"]
    for effect in power.get("effects", []):
        if "add_trait" in effect:
            traits.update(effect["add_trait"])
        if "use_skill" in effect:
            for skill in effect["use_skill"]["skills"]:
                traits.update(resolve_skill(skills, skill)[2])
    return traits


def _immune_target(scene: Scene) -> str | None:
    if scene.check is not None and scene.check.get("against"):
        return str(scene.check["against"])
    if scene.encounter is not None:
        return str(scene.encounter["card"])
    return None


def _immunity_failure(game: Game, scene: Scene, character: str, card: str | None, power: dict[str, Any]) -> str | None:
    target = _immune_target(scene)
    if target is None:
        return None
    immune = set(game.definition(target)["immune"])
    if not immune:
        return None
    traits = _added_traits(game, character, power)
    if card is not None:
        traits |= set(game.definition(card)["traits"])
    blocked = sorted(traits & immune)
    if blocked:
        return f"{game.name(target)} is immune to {', '.join(blocked)}"
    return None


def boon_limit_failure(game: Game, scene: Scene, character: str, card_type: str) -> tuple[str | None, bool]:
    """(why it cannot be played, whether it is played freely thanks to a free-extra power)."""
    for play in scene.step.get("played", []):
        if play["type"] != card_type or play["freely"]:
            continue
        if game.ruleset.boon_limit == "party" or play["character"] == character:
            if _free_extra_available(game, scene, character, card_type):
                return None, True
            who = "the party" if game.ruleset.boon_limit == "party" else game.character_name(character)
            return f"{who} already played a {card_type} during this step", False
    return None, False


def _free_extra_available(game: Game, scene: Scene, character: str, card_type: str) -> bool:
    if scene.check is None or scene.check["character"] != character:
        return False
    used = scene.step.setdefault("free_extra_used", [])
    for entry in passives(game, character, "free_extra"):
        extra = entry["free_extra"]
        if extra["type"] == card_type and used.count(f"{character}:{card_type}") < int(extra.get("count", 1)):
            return True
    return False


def _selector_matches(game: Game, card: str, selector: dict[str, Any]) -> bool:
    definition = game.definition(card)
    if "card" in selector and game.card_id(card) != selector["card"]:
        return False
    if "type" in selector and definition["type"] not in _as_list(selector["type"]):
        return False
    return not ("traits" in selector and not set(definition["traits"]) & set(selector["traits"]))


def _as_list(value: Any) -> list[Any]:
    return list(value) if isinstance(value, list | tuple) else [value]


# -- sources ---------------------------------------------------------------------------------
def _sources(game: Game, scene: Scene, character: str) -> list[tuple[str, str | None, dict[str, Any]]]:
    """Every power a character could use in this window, before checking whether it may."""
    window = scene.window
    state = game.state
    sheet = state["characters"][character]
    indexed = game.indexed
    found: list[tuple[str, str | None, dict[str, Any]]] = []
    for card in sheet["hand"]:
        powers = indexed(card)[1].get(window)
        if powers:
            found.extend(("hand", card, power) for power in powers)
    for card in sheet["displayed"]:
        for power in indexed(card)[1].get(window, ()):
            if power.get("while_displayed"):
                found.append(("displayed", card, power))
    for power in game.powers_for(game.character_definition(character), window):
        found.append(("character", None, power))
    location = sheet["location"]
    if location in state["locations"] and state["locations"][location]["in_play"]:
        for power in game.powers_for(game.location_definition(location), window):
            found.append(("location", None, power))
    if game.ruleset.hour_effects and state["hourglass_discards"]:
        hour = game.definition(state["hourglass_discards"][0]).get("hour", {})
        for power in hour.get("powers", ()):
            if power.get("timing") == window:
                found.append(("hour", None, power))
    for grant in scene.step.get("grants", ()):
        if grant["character"] != character or grant["power"].get("timing") != window:
            continue
        # "you may additionally discard to reroll": the card must still be in hand to do it
        if isinstance(grant["power"].get("cost"), str) and grant["card"] not in sheet["hand"]:
            continue
        found.append(("grant", grant["card"], grant["power"]))
    return found


def _use_key(character: str, source: str, card: str | None, power: dict[str, Any]) -> str:
    # A card played from the hand or the table is used for one of its powers per step (Core:
    # "you choose only one of them", the Bracers of Protection example), so its key names the
    # card, not the power. Character, location and hour powers are used once per step whatever
    # card pays for them; a grant ("you may additionally ...") is part of the power it came from.
    if source in ("hand", "displayed"):
        return f"{character}|card|{card}"
    return f"{character}|{source}|{card or ''}|{power['id']}"


def once_per_turn(source: str, power: dict[str, Any]) -> bool:
    """Between the steps of a turn cards and powers are used without limit; only a power that
    costs no card (a reveal, a location's "you may examine") is used once per turn, or it could
    be repeated for ever."""
    cost = power.get("cost")
    if source in ("character", "location", "hour"):
        return not isinstance(cost, dict)
    return cost in (None, "reveal")


def _variants(
    game: Game, scene: Scene, character: str, source: str, card: str | None, power: dict[str, Any]
) -> Iterator[dict[str, Any]]:
    """The concrete choices one power offers: which card pays, which die, which skill, which
    location."""
    base: dict[str, Any] = {
        "type": "play",
        "character": character,
        "source": source,
        "card": card,
        "power": power["id"],
    }
    variants = [base]
    cost = power.get("cost")
    if isinstance(cost, dict):
        ((action, selector),) = cost.items()
        payers = [
            paying
            for paying in game.sheet(character)["hand"]
            if paying != card and _selector_matches(game, paying, selector or {})
        ]
        variants = [dict(base, pay=paying) for paying in payers]
    for effect in power.get("effects", []):
        if "use_skill" in effect:
            check = scene.check
            assert check is not None
            combat_only = power.get("requires", {}).get("check") == "combat"
            alternatives = [
                index
                for index, alternative in enumerate(check["alternatives"])
                if not combat_only or "Combat" in alternative["skills"]
            ]
            variants = [
                dict(variant, alternative=index, skill=skill)
                for variant in variants
                for index in alternatives
                for skill in effect["use_skill"]["skills"]
            ]
        if effect.get("reroll") == "one":
            check = scene.check
            assert check is not None
            variants = [dict(variant, die=index) for variant in variants for index in range(len(check["dice"]))]
        if "examine" in effect and effect["examine"].get("location") == "distant":
            here = game.location_of(character)
            targets = [name for name in game.locations_in_play() if name != here and game.location_view(name)["cards"]]
            variants = [dict(variant, target=name) for variant in variants for name in targets]
        local_examine = "examine" in effect and effect["examine"].get("location", "local") == "local"
        if local_examine and not game.location_view(game.location_of(character))["cards"]:
            variants = []
    yield from variants


def power_failure(
    game: Game, scene: Scene, character: str, source: str, card: str | None, power: dict[str, Any]
) -> tuple[str, str] | None:
    """Why this power cannot be used now (message, rule), or None."""
    if not game.alive(character):
        return "a dead character cannot do anything", "Dying"
    if card is not None and source in ("hand", "displayed", "grant") and game.state["effects"]:
        restricted = _restriction(game, character, game.card_type(card))
        if restricted:
            return restricted, RULE_RESTRICTED
    between_steps = scene.extra.get("between_steps", False)
    used = _use_key(character, source, card, power) in scene.step.get("used", [])
    if used and (not between_steps or once_per_turn(source, power)):
        if source == "hand" and power.get("cost") == "reveal":
            return "that card was already revealed for its power during this step", RULE_REVEAL
        if source in ("hand", "displayed"):
            return "that card was already played for one of its powers during this step", RULE_ONE_POWER
        return "that power was already used during this step", RULE_PLAYING
    failure = _situation_failure(game, scene, character, power)
    if failure:
        return failure, RULE_SITUATION
    failure = _immunity_failure(
        game, scene, character, card if source in ("hand", "displayed", "grant") else None, power
    )
    if failure:
        return failure, RULE_IMMUNE
    if source in ("hand", "displayed") and card is not None and not power.get("freely") and not between_steps:
        card_type = game.card_type(card)
        if card_type in game.ruleset.limited_types:
            failure, _ = boon_limit_failure(game, scene, character, card_type)
            if failure:
                return failure, rule_boon_limit(game)
    if scene.window == "explore" and not scene.extra.get("may_explore_again"):
        return "you cannot explore again now", "Your Turn: Explore"
    return None


def _restriction(game: Game, character: str, card_type: str) -> str | None:
    """A lasting `restrict` effect (e.g. Millorn's "can't play weapons or spells") on this
    character that covers this card type; it forbids playing the card, not paying with it."""
    for effect in game.state["effects"]:
        forbidden = effect["passive"].get("forbid_play")
        if effect["character"] == character and forbidden and card_type in forbidden:
            return f"{game.character_name(character)} can't play a {card_type} in this encounter"
    return None


def options(game: Game, scene: Scene, characters: list[str]) -> list[dict[str, Any]]:
    """Every legal play in this window for these characters, one option per concrete choice."""
    found: list[dict[str, Any]] = []
    if scene.window not in timings_in(game.state["defs"]):
        return found
    for character in characters:
        if not game.alive(character):
            continue
        player = game.player_of(character)
        for source, card, power in _sources(game, scene, character):
            if power_failure(game, scene, character, source, card, power) is not None:
                continue
            name = game.name(card) if card else _source_name(game, character, source)
            label = f"{name}: {power.get('text') or power['id']}"
            extra = {"declare": offered(power["timing"], source)} if power.get("declare") else {}
            for action in _variants(game, scene, character, source, card, power):
                found.append({"action": action, "label": label, "player": player, "character": character, **extra})
    return found


def _source_name(game: Game, character: str, source: str) -> str:
    if source == "character":
        return str(game.character_definition(character)["name"])
    if source == "location":
        return str(game.location_definition(game.location_of(character))["name"])
    if source == "hour":
        return f"{game.name(game.state['hourglass_discards'][0])} (hour)"
    return source


def find_power(game: Game, scene: Scene, action: dict[str, Any]) -> dict[str, Any] | None:
    character = action.get("character")
    if not isinstance(character, str) or character not in game.state["characters"]:
        return None
    for source, card, power in _sources(game, scene, character):
        if source == action.get("source") and card == action.get("card") and power["id"] == action.get("power"):
            return power
    return None


def usable_power(game: Game, scene: Scene, action: dict[str, Any]) -> dict[str, Any]:
    """The power a chosen "play" answer uses, checked against the scene it is played in."""
    power = find_power(game, scene, action)
    if power is None or power_failure(game, scene, action["character"], action["source"], action.get("card"), power):
        raise IllegalAction("that power cannot be used now")
    if power.get("declare"):
        power = declared_power(power, action, action["source"], game.sheet(action["character"])["hand"])
        _declared_skill(scene, power, action)
    return power


def _declared_skill(scene: Scene, power: dict[str, Any], action: dict[str, Any]) -> None:
    """A declared "use a skill" plays on the check's combat alternative (or the one listing the
    skill), as an encoded weapon or spell would."""
    for effect in power["effects"]:
        if "use_skill" in effect and scene.check is not None:
            skill = effect["use_skill"]["skills"][0]
            alternatives = scene.check["alternatives"]
            action["skill"] = skill
            action["alternative"] = next(
                (i for i, alt in enumerate(alternatives) if "Combat" in alt["skills"] or skill in alt["skills"]), 0
            )


def explain(game: Game, scene: Scene | None, action: dict[str, Any]) -> tuple[str, str]:
    """Why an action that matched no option is illegal, as precisely as the rules allow."""
    if action.get("type") != "play":
        return f"{action.get('type')!r} is not one of the options of this decision", "Decisions"
    character = action.get("character")
    if not isinstance(character, str) or character not in game.state["characters"]:
        return f"no character {character!r} in this game", "Decisions"
    card = action.get("card")
    if scene is None:
        return "no cards can be played now", RULE_PLAYING
    if card is not None and action.get("source") == "hand" and card not in game.sheet(character)["hand"]:
        return "that card is not in your hand", RULE_FROM_HAND
    power = find_power(game, scene, action)
    if power is None:
        return "that card has no power that can be used at this point", RULE_SITUATION
    failure = power_failure(game, scene, character, action.get("source", ""), card, power)
    if failure:
        return failure
    if "pay" in action and action["pay"] not in game.sheet(character)["hand"]:
        return "the card paying for that power is not in your hand", RULE_FROM_HAND
    return "that choice does not fit this power now", RULE_SITUATION


# -- using a power ---------------------------------------------------------------------------
def _replaced_action(game: Game, scene: Scene, character: str, card: str, action: str) -> str:
    """E.g. Sajan: recharge blessings played on his check instead of discarding them."""
    if scene.check is None or scene.check["character"] != character:
        return action
    for entry in passives(game, character, "replace_cost"):
        replace = entry["replace_cost"]
        if replace["from"] == action and game.card_type(card) in _as_list(replace["type"]):
            return str(replace["to"])
    return action


def pay_and_record(game: Game, scene: Scene, action: dict[str, Any], power: dict[str, Any]) -> None:
    character, source, card = action["character"], action["source"], action.get("card")
    scene.step.setdefault("used", []).append(_use_key(character, source, card, power))
    cost = power.get("cost")
    if isinstance(cost, str) and card is not None and source in ("hand", "displayed", "grant"):
        done = _replaced_action(game, scene, character, card, cost)
        if source in ("hand", "grant"):
            zone = game.move_from_hand(character, card, done, played=True)
        else:
            game.character(character)["displayed"].remove(card)
            zone = game.put(character, card, done, played=True)
        game.emit("card_played", character=character, card=game.card_id(card), action=done, to=zone, power=power["id"])
        if zone == "recovery" and not game.ruleset.recovery_pile:
            # Classic: the card's own check is "the next check": after the check it was played
            # on, or right after this power's effects anywhere else.
            if scene.check is not None and scene.step is scene.check:
                scene.step.setdefault("to_recover", []).append([character, card])
            else:
                game.push("recovery", character=character, card=card, phase="check", results=[])
    elif isinstance(cost, dict):
        ((pay_action, _),) = cost.items()
        paying = action["pay"]
        zone = game.move_from_hand(character, paying, pay_action)
        game.emit(
            "power_used",
            character=character,
            source=source,
            power=power["id"],
            paid=game.card_id(paying),
            action=pay_action,
            to=zone,
        )
    else:
        game.emit(
            "power_used",
            character=character,
            source=source,
            power=power["id"],
            card=game.card_id(card) if card else None,
        )
    if power.get("declared"):
        game.emit(
            "power_declared",
            character=character,
            player=game.player_of(character),
            card=game.card_id(card) if card else None,
            source=source,
            text=power["text"],
            effects=power["effects"],
            cost=power.get("cost"),
        )
    if source in ("hand", "displayed") and card is not None:
        card_type = game.card_type(card)
        if card_type in game.ruleset.limited_types:
            freely = bool(power.get("freely"))
            if not freely:
                _, freely = boon_limit_failure(game, scene, character, card_type)
                if freely:
                    scene.step.setdefault("free_extra_used", []).append(f"{character}:{card_type}")
            scene.step.setdefault("played", []).append({"character": character, "type": card_type, "freely": freely})
    for grant in power.get("grants", []):
        scene.step.setdefault("grants", []).append({"character": character, "card": card, "power": grant})
