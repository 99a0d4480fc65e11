"""An Aventuria combat (rulebook, "Combat"): state as plain data, run to the next decision.

Setup places the leaders, then henchmen drawn until their threat points reach the combat's threat
value; each hero draws 5 and may take a Fox Hand. A round is: preparation (draw 2, up to 2
endurance cards, ready), each conscious hero's turn from the starting hero on, the opponents'
turn (a D20 per action on each opponent's action table, left to right), time effects, and the
starting hero token passed on. Every die comes from the shared randomness (play.engine.randomness)
and is logged, so a combat replays exactly.
"""

from __future__ import annotations

import copy
from typing import Any

from ..errors import GameOver, IllegalAction, NotYourDecision, SetupError, StaleVersion
from ..odds import parse_dice
from ..randomness import LoggedSource, PreviewHalt, PreviewSource, SeededSource, as_source, new_seed
from . import rolls

START_LIFE = 40
HAND = 5
DRAW = 2
ENDURANCE_CARDS = 2
ATTACKS = ("close_combat", "ranged_combat", "magic")
HEAL_AN_UNCONSCIOUS_HERO = 4  # a smaller healing does not wake an unconscious hero
TARGETS = ("starting", "random", "most_life", "least_life", "most_fate", "least_fate", "most_cards", "least_cards")

State = dict[str, Any]


class Roller:
    """The combat's dice: the injected source where it has the method, else the seeded one;
    every draw is counted and logged."""

    def __init__(self, state: State, dice: Any = None) -> None:
        self.state, self.source, self.seeded = state, as_source(dice), SeededSource(state["seed"])
        self.drawn: list[dict[str, Any]] = []

    def _from(self, method: str) -> Any:
        return getattr(self.source, method) if hasattr(self.source, method) else getattr(self.seeded, method)

    def roll(self, sides: int, why: str) -> int:
        face = self._from("roll")(sides, self._count())
        self.drawn.append({"what": "roll", "sides": sides, "face": face, "why": why})
        return int(face)

    def dice(self, expression: str, why: str) -> int:
        pool = parse_dice(expression)
        return max(0, sum(self.roll(sides, why) for sides in pool.dice) + pool.modifier)

    def shuffle(self, cards: list[str], label: str) -> list[str]:
        order = self._from("shuffle")(cards, label, self._count())
        self.drawn.append({"what": "shuffle", "order": list(order), "label": label})
        return [cards[i] for i in order]

    def _count(self) -> int:
        self.state["draws"] += 1
        return self.state["draws"] - 1


# --- setup ---------------------------------------------------------------------------------


def new_combat(setup: dict[str, Any], *, seed: str | None = None, dice: Any = None) -> State:
    """The table as the combat's instructions set it up, run to its first decision."""
    heroes = setup.get("heroes") or []
    if not 1 <= len(heroes) <= 4:
        raise SetupError("an Aventuria combat is for 1 to 4 heroes")
    cards = setup.get("cards", {})
    for hero in heroes:
        unknown = [card for card in hero.get("deck", []) if card not in cards]
        if unknown:
            raise SetupError(f"{hero['name']}'s deck has cards the setup does not define: {', '.join(unknown)}")
    count = len(heroes)
    state: State = {
        "game": "aventuria",
        "title": setup.get("title", "Combat"),
        "seed": seed or new_seed(),
        "draws": 0,
        "version": 0,
        "status": "playing",
        "round": 1,
        "cards": cards,
        "heroes": [_hero(hero) for hero in heroes],
        "opponents": [_opponent(leader, "leader", count) for leader in setup.get("leaders", [])],
        "henchmen": {h["id"]: h for h in setup.get("henchmen", [])},
        "henchman_pile": [],
        "henchman_discard": [],
        "fate_pool": 2 * count,
        "time": {"counters": setup.get("time_scale", {}).get("counters", 0), **setup.get("time_scale", {})},
        "starting_hero": 0,
        "phase": {"name": "fox_hand", "hero": 0},
        "resolving": None,
        "pending": None,
        "log": [],
    }
    roller = Roller(state, dice)
    threat = setup.get("threat_per_hero", 0) * count
    state["henchman_pile"] = roller.shuffle([h["id"] for h in setup.get("henchmen", [])], "henchmen")
    placed = 0
    while placed < threat and state["henchman_pile"]:
        placed += _place_henchman(state)
    state["log"].append({"event": "setup", "threat": threat, "placed": placed})
    for hero in state["heroes"]:
        hero["deck"] = roller.shuffle(hero["deck"], f"{hero['id']} deck")
        # Plus and Minus tokens change the first hand, then go back to the reserve.
        _draw(hero, HAND + hero.pop("plus_tokens") - hero.pop("minus_tokens"))
    _advance(state, roller)
    return state


def _instances(deck: list[str]) -> list[str]:
    """A deck's cards as instances: a second copy of a card is "card#2"."""
    seen: dict[str, int] = {}
    out = []
    for card in deck:
        seen[card] = seen.get(card, 0) + 1
        out.append(card if seen[card] == 1 else f"{card}#{seen[card]}")
    return out


def _hero(hero: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": hero["id"],
        "name": hero["name"],
        "player": hero.get("player", hero["id"]),
        "attributes": {key: hero.get("attributes", {}).get(key) for key in (*ATTACKS, "dodge")},
        "basic_attack": hero.get("basic_attack"),
        "life": hero.get("life", START_LIFE),
        "fate": hero.get("fate", 0),
        "deck": _instances(list(hero.get("deck", []))),
        "hand": [],
        "discard": [],
        "endurance": [],  # {"card", "exhausted"}
        "in_play": [],  # permanent cards: {"card", "exhausted"}
        "unconscious": False,
        "plus_tokens": hero.get("plus_tokens", 0),
        "minus_tokens": hero.get("minus_tokens", 0),
        "attacked": [],  # the attack types used this turn
        "fate_endurance": 0,  # endurance bought with fate points, for this turn only
    }


def _opponent(card: dict[str, Any], kind: str, heroes: int) -> dict[str, Any]:
    life = card["life"] if "life" in card else card["life_per_hero"] * heroes
    actions = heroes if card.get("actions") == "heroes" else int(card.get("actions", 1))
    return {
        "id": card["id"],
        "name": card["name"],
        "kind": kind,
        "life": life,
        "max_life": life,
        "dodge": card.get("dodge"),
        "armor": card.get("armor", 0),
        "actions": actions,
        "threat": card.get("threat", 0),
        "doom": card.get("doom", 0),  # a swarm's doom counters
        "table": card.get("table", []),
    }


def _place_henchman(state: State) -> int:
    card = state["henchmen"][state["henchman_pile"].pop(0)]
    placed = _opponent(card, "henchman", len(state["heroes"]))
    same = sum(o["id"].split("#")[0] == card["id"] for o in state["opponents"])
    placed["id"] = f"{card['id']}#{same + 1}" if same else card["id"]
    state["opponents"].append(placed)
    return int(card.get("threat", 0))


def _draw(hero: dict[str, Any], count: int) -> None:
    for _ in range(count):
        if hero["deck"]:  # an empty deck is not refilled from the discard pile
            hero["hand"].append(hero["deck"].pop(0))


# --- the public API ------------------------------------------------------------------------


def pending(state: State) -> dict[str, Any] | None:
    return state["pending"]


def apply(
    state: State, player: str, action: dict[str, Any], dice: Any = None, *, in_place: bool = False
) -> tuple[State, list[dict[str, Any]]]:
    """The answer to the pending decision: a new state (the given one is not changed, unless
    `in_place`, for simulations that keep no history) and the event."""
    if state["status"] != "playing":
        raise GameOver(f"the combat is over: the heroes {'won' if state['status'] == 'won' else 'lost'}")
    if "version" in action and action["version"] != state["version"]:
        raise StaleVersion(f"the combat is at version {state['version']}, not {action['version']}")
    decision = state["pending"]
    if player not in decision["players"]:
        hero = _hero_by_id(state, decision["hero"])
        raise NotYourDecision(f"it is {hero['name']}'s decision ({hero['player']} answers it)")
    answer = {key: value for key, value in action.items() if key != "version"}
    if answer not in [option["action"] for option in decision["options"]] and not _is_selection(decision, answer):
        raise IllegalAction(f"not one of the choices now ({decision['prompt']})", details={"action": answer})
    logged = len(state["log"])
    new = state if in_place else copy.deepcopy(state)
    roller = Roller(new, dice)
    _answer(new, answer, roller)
    _advance(new, roller)
    new["version"] += 1
    event = {"player": player, "action": answer, "draws": roller.drawn, "log": new["log"][logged:]}
    return new, [event]


def preview(state: State, player: str, action: dict[str, Any]) -> dict[str, Any]:
    """Where the answer leads, stopping before the first die it would roll: nothing changes."""
    try:
        after, _ = apply(state, player, action, dice=PreviewSource())
    except PreviewHalt:
        return {"halted_before_random": True, "check": None, "decision": None}
    decision = after["pending"]
    shown = {"kind": decision["kind"], "character": _hero_by_id(after, decision["hero"])["name"]} if decision else None
    return {"halted_before_random": False, "check": None, "decision": shown}


def public_events(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The events without what players may not know: the order of a shuffled deck."""
    return [
        {**event, "draws": [draw for draw in event.get("draws", []) if draw["what"] != "shuffle"]} for event in events
    ]


def describe(state: State, action: dict[str, Any]) -> str:
    """An answer in words for the log: its option's label, or the cards it chooses."""
    decision = state.get("pending") or {}
    if decision.get("select") and action.get("cards"):
        return f"{decision['prompt']}: {', '.join(_name(state, card) for card in action['cards'])}"[:300]
    label = next((o["label"] for o in decision.get("options", []) if o["action"] == action), action.get("type", ""))
    return str(label)[:300]


def report(state: State, events: list[dict[str, Any]], players: dict[str, str] | None = None) -> list[str]:
    """What the answer caused, in sentences."""
    return [line for event in events for entry in event.get("log", []) if (line := _sentence(entry))]


def _sentence(entry: dict[str, Any]) -> str:
    kind = entry["event"]
    if kind == "attack":
        test = entry["test"]
        line = f"{entry['hero']} attacks {entry['target']} with {entry['with']}: "
        line += f"rolls {test['roll']} against {test['value']}, {test['result']}"
        if "damage_roll" in entry:
            dodge = entry.get("dodge")
            line += f"; {entry['damage_roll']} damage" + (
                f", dodge {dodge['roll']} against {dodge['value']} ({dodge['result']})" if dodge else ""
            )
            line += f", {entry['damage']} taken" + (", defeated" if entry.get("defeated") else "")
            if "doom_left" in entry and not entry.get("defeated"):
                line += f", the swarm loses a doom counter ({entry['doom_left']} left)"
        return line + ("; gains a fate point" if entry.get("fate_gained") else "") + "."
    if kind == "opponent_action":
        line = f"{entry['opponent']} rolls {entry['roll']}: {entry.get('effect') or 'attacks'}"
        if "target" in entry:
            dodge = entry.get("dodge")
            line += f"; {entry['damage_roll']} damage to {entry['target']}"
            line += f", dodge {dodge['roll']} against {dodge['value']} ({dodge['result']})" if dodge else ""
            line += f", armor {entry['armor']}" if entry.get("armor") else ""
            line += f": loses {entry.get('damage', 0)}, {entry.get('life', '?')} left" + (
                ", unconscious" if entry.get("unconscious") else ""
            )
        return line + "."
    if kind == "time":
        return (
            f"Time: {entry['counters']} counters left" + (f": {entry['effect']}" if entry.get("effect") else "") + "."
        )
    if kind == "reanimation":
        return f"{entry['hero']} tries to reanimate {entry['target']}: rolls {entry['roll']}, " + (
            "back in combat." if entry["woke"] else "still unconscious."
        )
    if kind == "healed":
        return f"{entry['hero']} heals {entry['amount']} ({entry['life']} life points)."
    if kind == "played":
        return f"{entry['hero']} plays {entry['card']}."
    if kind == "combat_over":
        return "The heroes win the combat." if entry["result"] == "won" else "The heroes are defeated."
    if kind == "disadvantage":
        lost = f": loses {entry['damage']}, {entry['life']} left" if "damage" in entry else ""
        return f"{entry['hero']} draws the disadvantage {entry['card']}{lost}."
    if kind == "fate_spent":
        return f"{entry['hero']} spends a fate point for {entry['for']}."
    if kind == "back_in_combat":
        return f"{entry['hero']} is back in combat."
    return ""


def replay(initial: State, events: list[dict[str, Any]]) -> State:
    state = initial
    for event in events:
        state, _ = apply(state, event["player"], event["action"], dice=LoggedSource(event["draws"]))
    return state


def view(state: State, player: str | list[str]) -> dict[str, Any]:
    """What a player (or a user who plays several heroes) may see: every hero's cards in play and
    life, their own hands; never a deck's order, another player's hand or the seed."""
    mine = [player] if isinstance(player, str) else list(player)
    heroes = []
    for hero in state["heroes"]:
        shown = {key: hero[key] for key in ("id", "name", "player", "attributes", "life", "fate", "unconscious")}
        shown |= {
            "endurance": {"ready": _ready(hero), "exhausted": len(hero["endurance"]) - _ready(hero)},
            "in_play": [
                {"card": c["card"], "name": _name(state, c["card"]), "exhausted": c["exhausted"]}
                for c in hero["in_play"]
            ],
            "deck": len(hero["deck"]),
            "discard": [_name(state, card) for card in hero["discard"]],
            "hand": [{"card": c, "name": _name(state, c)} for c in hero["hand"]]
            if hero["player"] in mine
            else len(hero["hand"]),
        }
        heroes.append(shown)
    decision = state["pending"]
    return {
        "game": "aventuria",
        "title": state["title"],
        "status": state["status"],
        "version": state["version"],
        "round": state["round"],
        "time_counters": state["time"]["counters"],
        "fate_pool": state["fate_pool"],
        "starting_hero": state["heroes"][state["starting_hero"]]["name"],
        "heroes": heroes,
        "opponents": [
            {key: o[key] for key in ("id", "name", "kind", "life", "max_life", "dodge", "armor", "actions")}
            for o in state["opponents"]
        ],
        "henchmen_left": len(state["henchman_pile"]),
        "you": [hero["id"] for hero in state["heroes"] if hero["player"] in mine],
        "pending": decision if decision and set(mine) & set(decision["players"]) else _waiting(state, decision),
        "log": state["log"][-30:],
    }


# --- decisions -----------------------------------------------------------------------------


def _waiting(state: State, decision: dict[str, Any] | None) -> dict[str, Any] | None:
    if decision is None:
        return None
    return {"kind": decision["kind"], "prompt": decision["prompt"], "waiting_for": decision["players"]}


def _ask(
    state: State, hero: dict[str, Any], kind: str, prompt: str, options: list[dict[str, Any]], **extra: Any
) -> None:
    state["pending"] = {
        "kind": kind,
        "hero": hero["id"],
        "players": [hero["player"]],
        "prompt": prompt,
        "options": [{**option, "player": hero["player"]} for option in options],
        "version": state["version"],
        **extra,
    }


def _is_selection(decision: dict[str, Any], answer: dict[str, Any]) -> bool:
    """A choice of cards ("select": up to `count` of `cards`), answered with their ids."""
    select = decision.get("select")
    if not select or answer.get("type") != select["type"] or set(answer) != {"type", "cards"}:
        return False
    chosen = answer["cards"]
    return (
        isinstance(chosen, list)
        and len(chosen) <= select["count"]
        and len(set(chosen)) == len(chosen)
        and all(card in select["cards"] for card in chosen)
    )


def _answer(state: State, answer: dict[str, Any], roller: Roller) -> None:
    decision, state["pending"] = state["pending"], None
    hero = _hero_by_id(state, decision["hero"])
    kind = answer["type"]
    if kind == "fox_hand":
        _fox_hand(state, hero, answer["cards"], roller)
        state["phase"]["hero"] += 1
    elif kind == "endurance":
        _endurance(state, hero, answer["cards"])
        state["phase"]["hero"] += 1
    elif kind == "end_turn":
        state["log"].append({"event": "turn_ended", "hero": hero["name"]})
        state["phase"]["done"] = True
    elif kind == "play":
        _play(state, hero, answer, roller)
    elif kind == "attack":
        _start_attack(state, hero, answer, roller)
    elif kind == "reanimate":
        _reanimate(state, hero, answer, roller)
    elif kind in ("reroll", "accept"):
        _finish_test(state, reroll=kind == "reroll", roller=roller)
    elif kind == "armor":
        _hit_hero(state, answer["card"], roller)
    elif kind in ("fate_endurance", "fate_draw"):
        _spend_fate(state, hero, kind)


def _spend_fate(state: State, hero: dict[str, Any], use: str) -> None:
    """A fate point back on the adventure plan for 1 endurance this turn, or to draw a card."""
    hero["fate"] -= 1
    state["fate_pool"] += 1
    if use == "fate_endurance":
        hero["fate_endurance"] += 1
    else:
        _draw(hero, 1)
    state["log"].append(
        {"event": "fate_spent", "hero": hero["name"], "for": "endurance" if use == "fate_endurance" else "a card"}
    )


def _fox_hand(state: State, hero: dict[str, Any], cards: list[str], roller: Roller) -> None:
    """Cards put back and as many drawn; those put back are shuffled into the deck."""
    for card in cards:
        hero["hand"].remove(card)
    _draw(hero, len(cards))
    if cards:
        hero["deck"] = roller.shuffle(hero["deck"] + cards, f"{hero['id']} deck")
        state["log"].append({"event": "fox_hand", "hero": hero["name"], "replaced": len(cards)})


def _endurance(state: State, hero: dict[str, Any], cards: list[str]) -> None:
    for card in cards:
        permanent = next((c for c in hero["in_play"] if c["card"] == card), None)
        if permanent is not None:
            hero["in_play"].remove(permanent)
        else:
            hero["hand"].remove(card)
        hero["endurance"].append({"card": card, "exhausted": False})
    if cards:
        state["log"].append({"event": "endurance", "hero": hero["name"], "cards": len(cards)})


def _ready(hero: dict[str, Any]) -> int:
    return sum(not c["exhausted"] for c in hero["endurance"]) + hero["fate_endurance"]


def _pay(hero: dict[str, Any], cost: int) -> None:
    bought = min(cost, hero["fate_endurance"])  # the fate point's endurance first: it lasts this turn only
    hero["fate_endurance"] -= bought
    cost -= bought
    for card in hero["endurance"]:
        if cost and not card["exhausted"]:
            card["exhausted"], cost = True, cost - 1


def _play(state: State, hero: dict[str, Any], answer: dict[str, Any], roller: Roller) -> None:
    card_id = answer["card"]
    card = _card(state, card_id)
    _pay(hero, card.get("cost", 0))
    hero["hand"].remove(card_id)
    state["log"].append({"event": "played", "hero": hero["name"], "card": card["name"]})
    if "heal" in card:
        target = _hero_by_id(state, answer["hero"])
        _heal(state, target, card["heal"])
    if card.get("discard"):
        hero["discard"].append(card_id)
    else:
        hero["in_play"].append({"card": card_id, "exhausted": False})
    if "attack" in card and card.get("discard"):  # a one-shot attack (a spell) strikes as it is played
        _start_attack(
            state, hero, {"type": "attack", "source": card_id, "target": answer["target"], "played": True}, roller
        )


def _heal(state: State, hero: dict[str, Any], amount: int) -> None:
    if hero["unconscious"]:
        if amount < HEAL_AN_UNCONSCIOUS_HERO:
            state["log"].append({"event": "healing_too_small", "hero": hero["name"], "amount": amount})
            return
        hero["unconscious"] = False
        state["log"].append({"event": "back_in_combat", "hero": hero["name"]})
    hero["life"] = min(START_LIFE, hero["life"] + amount)
    state["log"].append({"event": "healed", "hero": hero["name"], "amount": amount, "life": hero["life"]})


def _reanimate(state: State, hero: dict[str, Any], answer: dict[str, Any], roller: Roller) -> None:
    """Exhaust X endurance and roll a D20: X or less brings the hero back with X life points. A
    roll, not a test: no fate point rerolls it."""
    target, spent = _hero_by_id(state, answer["hero"]), answer["endurance"]
    _pay(hero, spent)
    face = roller.roll(20, f"{hero['name']} reanimates {target['name']}")
    woke = face <= spent
    state["log"].append(
        {"event": "reanimation", "hero": hero["name"], "target": target["name"], "roll": face, "woke": woke}
    )
    if woke:
        target["unconscious"], target["life"] = False, spent


# --- attacks -------------------------------------------------------------------------------


def _attack_of(state: State, hero: dict[str, Any], source: str) -> dict[str, Any]:
    return hero["basic_attack"] if source == "basic" else _card(state, source)["attack"]


def _start_attack(state: State, hero: dict[str, Any], answer: dict[str, Any], roller: Roller) -> None:
    source, target = answer["source"], _opponent_by_id(state, answer["target"])
    attack = _attack_of(state, hero, source)
    if source != "basic" and not answer.get("played"):
        permanent = next(c for c in hero["in_play"] if c["card"] == source)
        permanent["exhausted"] = True
    companion = attack["type"] == "companion"
    if not companion:  # a companion's attack is not one of the hero's three a turn
        hero["attacked"].append(attack["type"])
    value = attack["value"] if companion else hero["attributes"][attack["type"]]
    state["resolving"] = {
        "kind": "attack",
        "hero": hero["id"],
        "target": target["id"],
        "name": attack.get("name") or (_card(state, source)["name"] if source != "basic" else "basic attack"),
        "damage": attack["damage"],
        "value": value,
        "fate_spent": 0,
        "companion": companion,
    }
    _roll_test(state, roller)


def _roll_test(state: State, roller: Roller) -> None:
    """The resolving test's D20; a failure the hero could reroll with a fate point asks first."""
    resolving = state["resolving"]
    hero = _hero_by_id(state, resolving["hero"])
    value = resolving["value"]
    face = (
        roller.roll(20, f"{hero['name']}'s {'attack' if resolving['kind'] == 'attack' else 'dodge'} test")
        if rolls.rolled(value)
        else None
    )
    resolving["face"] = face
    result = rolls.outcome(face or 20, value)
    resolving["result"] = result
    if not rolls.succeeded(result) and face is not None and hero["fate"] > 0:
        odds = rolls.test_odds(value)
        _ask(
            state,
            hero,
            "reroll",
            f"{hero['name']} rolled {face} against {value}: {result}. Spend a fate point to reroll?",
            [
                {
                    "action": {"type": "reroll"},
                    "label": f"Reroll (1 of {hero['fate']} fate points; {odds['success_float']:.0%} to succeed)",
                },
                {"action": {"type": "accept"}, "label": "Keep the result"},
            ],
            test=odds,
        )
        return
    _finish_test(state, reroll=False, roller=roller)


def _finish_test(state: State, *, reroll: bool, roller: Roller) -> None:
    resolving = state["resolving"]
    hero = _hero_by_id(state, resolving["hero"])
    if reroll:
        hero["fate"] -= 1
        state["fate_pool"] += 1
        resolving["fate_spent"] += 1
        _roll_test(state, roller)
        return
    if resolving["kind"] == "attack":
        _resolve_attack(state, roller)
    else:
        _after_dodge(state, roller)


def _resolve_attack(state: State, roller: Roller) -> None:
    resolving, state["resolving"] = state["resolving"], None
    hero, target = _hero_by_id(state, resolving["hero"]), _opponent_by_id(state, resolving["target"])
    entry = {
        "event": "attack",
        "hero": hero["name"],
        "with": resolving["name"],
        "target": target["name"],
        "test": {"roll": resolving["face"], "value": resolving["value"], "result": resolving["result"]},
    }
    state["log"].append(entry)
    if not rolls.succeeded(resolving["result"]):
        # A miss without a fate point spent earns one; a companion's miss does not.
        if not resolving["fate_spent"] and not resolving["companion"] and state["fate_pool"]:
            state["fate_pool"] -= 1
            hero["fate"] += 1
            entry["fate_gained"] = True
        return
    damage = roller.dice(resolving["damage"], f"{resolving['name']} damage")
    entry["damage_roll"] = damage
    if rolls.rolled(target["dodge"]):
        face = roller.roll(20, f"{target['name']}'s dodge test")
        entry["dodge"] = {"roll": face, "value": target["dodge"], "result": rolls.outcome(face, target["dodge"])}
        if rolls.succeeded(entry["dodge"]["result"]):
            damage = rolls.dodged(damage)
    damage = rolls.after_armor(damage, target["armor"])
    entry["damage"] = damage
    target["life"] = max(0, target["life"] - damage)
    if target["life"] == 0 and target["doom"]:
        # A swarm loses one doom counter an attack, however much damage, and comes back whole.
        target["doom"] -= 1
        entry["doom_left"] = target["doom"]
        if target["doom"]:
            target["life"] = target["max_life"]
    if target["life"] == 0:
        _defeat(state, target, hero, entry)


def _defeat(state: State, target: dict[str, Any], hero: dict[str, Any], entry: dict[str, Any]) -> None:
    state["opponents"].remove(target)
    if target["kind"] == "henchman":
        state["henchman_discard"].append(target["id"].split("#")[0])
    entry["defeated"] = True
    if state["fate_pool"]:
        state["fate_pool"] -= 1
        hero["fate"] += 1
        entry["fate_gained"] = True
    if not state["opponents"]:
        _over(state, "won")


# --- the opponents' attacks ----------------------------------------------------------------


def _choose_target(state: State, rule: str, roller: Roller) -> dict[str, Any] | None:
    """The hero an opponent's action aims at (unconscious heroes are ignored); ties and "random"
    by a D6, rolled again while it names no hero."""
    awake = [hero for hero in state["heroes"] if not hero["unconscious"]]
    if not awake:
        return None
    if rule == "starting":
        starting = state["heroes"][state["starting_hero"]]
        return starting if not starting["unconscious"] else awake[0]
    if rule != "random":
        key = {"life": "life", "fate": "fate", "cards": "hand"}[rule.split("_")[1]]
        measure = (lambda h: len(h[key])) if key == "hand" else (lambda h: h[key])
        best = (max if rule.startswith("most") else min)(measure(h) for h in awake)
        awake = [h for h in awake if measure(h) == best]
    if len(awake) == 1:
        return awake[0]
    while (face := roller.roll(6, "a random hero")) > len(awake):
        pass
    return awake[face - 1]


def _opponent_action(state: State, opponent: dict[str, Any], roller: Roller) -> None:
    face = roller.roll(20, f"{opponent['name']}'s action")
    row = next((r for r in opponent["table"] if r["from"] <= face <= r["to"]), None)
    entry: dict[str, Any] = {"event": "opponent_action", "opponent": opponent["name"], "roll": face}
    state["log"].append(entry)
    if row is None or not {"attack", "lose_life", "henchmen"} & set(row):  # words only: nothing the engine does
        entry["effect"] = row["text"] if row else "nothing happens"
        return
    if "henchmen" in row:
        for _ in range(row["henchmen"]):
            if state["henchman_pile"]:
                _place_henchman(state)
        entry["effect"] = row.get("text") or "more henchmen join the fight"
        return
    effect = row.get("attack") or row["lose_life"]
    target = _choose_target(state, effect.get("target", "random"), roller)
    if target is None:
        return
    amount = roller.dice(effect["damage"], f"{opponent['name']}'s damage")
    entry |= {"target": target["name"], "damage_roll": amount, "effect": row.get("text", "")}
    if "lose_life" in row:  # a loss of life points: no dodge, no armor
        _lose_life(state, target, amount, entry)
        return
    state["resolving"] = {
        "kind": "dodge",
        "hero": target["id"],
        "value": target["attributes"]["dodge"],
        "damage": amount,
        "entry": len(state["log"]) - 1,
        "fate_spent": 0,
    }
    _roll_test(state, roller)


def _after_dodge(state: State, roller: Roller) -> None:
    resolving = state["resolving"]
    hero = _hero_by_id(state, resolving["hero"])
    entry = state["log"][resolving["entry"]]
    entry["dodge"] = {"roll": resolving["face"], "value": resolving["value"], "result": resolving["result"]}
    if rolls.succeeded(resolving["result"]):
        resolving["damage"] = rolls.dodged(resolving["damage"])
    armors = [c["card"] for c in hero["in_play"] if "protection" in _card(state, c["card"])]
    if len(armors) > 1:  # only one armor reduces an attack's damage: the hero picks it
        _ask(
            state,
            hero,
            "armor",
            f"{resolving['damage']} damage to {hero['name']}: which armor takes it?",
            [
                {
                    "action": {"type": "armor", "card": card},
                    "label": f"{state['cards'][card]['name']} (protection {state['cards'][card]['protection']})",
                }
                for card in armors
            ],
        )
        return
    _hit_hero(state, armors[0] if armors else None, roller)


def _hit_hero(state: State, armor: str | None, roller: Roller) -> None:
    resolving, state["resolving"] = state["resolving"], None
    hero = _hero_by_id(state, resolving["hero"])
    entry = state["log"][resolving["entry"]]
    protection = _card(state, armor)["protection"] if armor else 0
    entry["armor"] = _card(state, armor)["name"] if armor else None
    _lose_life(state, hero, rolls.after_armor(resolving["damage"], protection), entry)


def _lose_life(state: State, hero: dict[str, Any], amount: int, entry: dict[str, Any]) -> None:
    hero["life"] = max(0, hero["life"] - amount)
    entry["damage"], entry["life"] = amount, hero["life"]
    if hero["life"] == 0:
        hero["unconscious"] = True
        entry["unconscious"] = True
        if all(h["unconscious"] for h in state["heroes"]):
            _over(state, "lost")
        elif state["heroes"][state["starting_hero"]] is hero:
            _pass_token(state)
            state["token_passed"] = True


def _over(state: State, status: str) -> None:
    state["status"] = status
    state["pending"] = None
    state["phase"] = {"name": "over"}
    state["log"].append({"event": "combat_over", "result": status})


# --- the round -----------------------------------------------------------------------------


def _advance(state: State, roller: Roller) -> None:
    """Run the combat until a hero must decide or the combat ends."""
    while state["status"] == "playing" and state["pending"] is None and state["resolving"] is None:
        phase = state["phase"]
        step = _STEPS[phase["name"]]
        step(state, roller)


def _fox_hand_step(state: State, roller: Roller) -> None:
    heroes = state["heroes"]
    index = state["phase"]["hero"]
    if index >= len(heroes):
        for hero in heroes:  # disadvantages still in hand after the Fox Hand take effect now
            _disadvantages(state, hero)
        state["phase"] = {"name": "draw"}
        return
    hero = heroes[index]
    _ask(
        state,
        hero,
        "fox_hand",
        f"{hero['name']}: put back any cards of your first hand and draw as many (Fox Hand)?",
        [{"action": {"type": "fox_hand", "cards": []}, "label": "Keep this hand"}],
        select={"type": "fox_hand", "count": len(hero["hand"]), "cards": list(hero["hand"])},
    )


def _draw_step(state: State, roller: Roller) -> None:
    for hero in state["heroes"]:
        if not hero["unconscious"]:
            _draw(hero, DRAW)
            _disadvantages(state, hero)
    if state["status"] == "playing":
        state["phase"] = {"name": "endurance", "hero": 0}


def _disadvantages(state: State, hero: dict[str, Any]) -> None:
    """A disadvantage card in hand takes effect at once (a loss of life points, or its text) and
    goes to the discard pile."""
    for card_id in [c for c in hero["hand"] if _card(state, c).get("kind") == "disadvantage"]:
        card = _card(state, card_id)
        hero["hand"].remove(card_id)
        hero["discard"].append(card_id)
        entry = {"event": "disadvantage", "hero": hero["name"], "card": card["name"], "effect": card.get("text", "")}
        state["log"].append(entry)
        if card.get("lose_life") and not hero["unconscious"]:
            _lose_life(state, hero, int(card["lose_life"]), entry)


def _endurance_step(state: State, roller: Roller) -> None:
    heroes = state["heroes"]
    index = state["phase"]["hero"]
    while index < len(heroes) and heroes[index]["unconscious"]:
        index += 1
    state["phase"]["hero"] = index
    if index >= len(heroes):
        _ready_all(state)
        state["phase"] = {"name": "turn", "hero": state["starting_hero"], "turns": 0}
        return
    hero = heroes[index]
    choices = [*hero["hand"], *(c["card"] for c in hero["in_play"])]
    _ask(
        state,
        hero,
        "endurance",
        f"{hero['name']}: play up to {ENDURANCE_CARDS} cards as endurance",
        [{"action": {"type": "endurance", "cards": []}, "label": "No new endurance"}],
        select={"type": "endurance", "count": min(ENDURANCE_CARDS, len(choices)), "cards": choices},
    )


def _ready_all(state: State) -> None:
    for hero in state["heroes"]:
        for card in (*hero["endurance"], *hero["in_play"]):
            card["exhausted"] = False


def _turn_step(state: State, roller: Roller) -> None:
    phase = state["phase"]
    heroes = state["heroes"]
    if phase.get("done"):
        heroes[phase["hero"]]["attacked"], heroes[phase["hero"]]["fate_endurance"] = [], 0
        phase["hero"], phase["turns"], phase["done"] = (phase["hero"] + 1) % len(heroes), phase["turns"] + 1, False
    if phase["turns"] >= len(heroes):
        state["phase"] = {"name": "opponents", "opponent": 0, "action": 0}
        return
    hero = heroes[phase["hero"]]
    if hero["unconscious"]:
        phase["done"] = True
        return
    _ask(state, hero, "turn", f"{hero['name']}'s turn (round {state['round']})", _turn_options(state, hero))


def _turn_options(state: State, hero: dict[str, Any]) -> list[dict[str, Any]]:
    ready, options = _ready(hero), []
    attack_sources = [("basic", hero["basic_attack"])] if hero["basic_attack"] else []
    attack_sources += [
        (c["card"], _card(state, c["card"])["attack"])
        for c in hero["in_play"]
        if "attack" in _card(state, c["card"]) and not c["exhausted"]
    ]
    for source, attack in attack_sources:
        if attack["type"] in hero["attacked"]:  # one of each type a turn (companions aside: theirs is no type)
            continue
        options += _attack_options(state, hero, {"type": "attack", "source": source}, attack, source)
    for card_id in {card.split("#")[0]: card for card in reversed(hero["hand"])}.values():  # one copy each
        card = _card(state, card_id)
        if card.get("cost", 0) > ready or card.get("kind") == "unencoded":  # its values unknown: endurance only
            continue
        if "heal" in card:
            options += [
                {
                    "action": {"type": "play", "card": card_id, "hero": h["id"]},
                    "label": f"Play {card['name']}: heal {h['name']} {card['heal']}",
                }
                for h in state["heroes"]
            ]
        elif "attack" in card and card.get("discard"):
            if card["attack"]["type"] not in hero["attacked"]:
                options += _attack_options(state, hero, {"type": "play", "card": card_id}, card["attack"], card_id)
        else:
            options.append(
                {
                    "action": {"type": "play", "card": card_id},
                    "label": f"Play {card['name']} (cost {card.get('cost', 0)})",
                }
            )
    for other in state["heroes"]:
        if other["unconscious"]:
            options += [
                {
                    "action": {"type": "reanimate", "hero": other["id"], "endurance": x},
                    "label": f"Reanimate {other['name']} with {x} endurance ({x * 5}% to wake with {x} life)",
                }
                for x in range(1, ready + 1)
            ]
    if hero["fate"]:
        options.append(
            {
                "action": {"type": "fate_endurance"},
                "label": f"Spend a fate point for 1 endurance this turn ({hero['fate']} left)",
            }
        )
        if hero["deck"]:
            options.append(
                {"action": {"type": "fate_draw"}, "label": f"Spend a fate point to draw a card ({hero['fate']} left)"}
            )
    options.append({"action": {"type": "end_turn"}, "label": "End the turn"})
    return options


def _attack_options(
    state: State, hero: dict[str, Any], action: dict[str, Any], attack: dict[str, Any], source: str
) -> list[dict[str, Any]]:
    name = attack.get("name") or (_card(state, source)["name"] if source != "basic" else "basic attack")
    odds = rolls.test_odds(attack["value"] if attack["type"] == "companion" else hero["attributes"][attack["type"]])
    return [
        {
            "action": {**action, "target": opponent["id"]},
            "label": f"{name} at {opponent['name']} ({attack['damage']} damage, {odds['success_float']:.0%} to hit)",
            "odds": odds,
        }
        for opponent in state["opponents"]
    ]


def _opponents_step(state: State, roller: Roller) -> None:
    phase = state["phase"]
    opponents = state["opponents"]
    if phase["opponent"] >= len(opponents):
        state["phase"] = {"name": "time"}
        return
    opponent = opponents[phase["opponent"]]
    if phase["action"] >= opponent["actions"]:
        phase["opponent"], phase["action"] = phase["opponent"] + 1, 0
        return
    phase["action"] += 1
    _opponent_action(state, opponent, roller)


def _time_step(state: State, roller: Roller) -> None:
    time = state["time"]
    if time["counters"]:
        time["counters"] -= 1
    effect = time.get("effects", {}).get(str(time["counters"]))
    state["log"].append({"event": "time", "counters": time["counters"], "effect": (effect or {}).get("text")})
    if effect and effect.get("defeat"):
        _over(state, "lost")
        return
    for _ in range((effect or {}).get("henchmen", 0)):
        if state["henchman_pile"]:
            _place_henchman(state)
    state["phase"] = {"name": "end"}


def _end_step(state: State, roller: Roller) -> None:
    """The starting hero token passes to the next conscious hero on the left; a new round."""
    if not state.pop("token_passed", False):  # passed already when the starting hero fell
        _pass_token(state)
    state["round"] += 1
    state["phase"] = {"name": "draw"}


def _pass_token(state: State) -> None:
    heroes = state["heroes"]
    for step in range(1, len(heroes) + 1):
        index = (state["starting_hero"] + step) % len(heroes)
        if not heroes[index]["unconscious"]:
            state["starting_hero"] = index
            return


_STEPS = {
    "fox_hand": _fox_hand_step,
    "draw": _draw_step,
    "endurance": _endurance_step,
    "turn": _turn_step,
    "opponents": _opponents_step,
    "time": _time_step,
    "end": _end_step,
}


def _hero_by_id(state: State, hero_id: str) -> dict[str, Any]:
    return next(hero for hero in state["heroes"] if hero["id"] == hero_id)


def _opponent_by_id(state: State, opponent_id: str) -> dict[str, Any]:
    return next(opponent for opponent in state["opponents"] if opponent["id"] == opponent_id)


def _card(state: State, instance: str) -> dict[str, Any]:
    return state["cards"][instance.split("#")[0]]  # type: ignore[no-any-return]


def _name(state: State, card: str) -> str:
    return str(_card(state, card)["name"])


def legal_actions(state: State) -> list[tuple[str, dict[str, Any]]]:
    decision = state["pending"]
    if decision is None:
        return []
    return [(decision["players"][0], option["action"]) for option in decision["options"]]
