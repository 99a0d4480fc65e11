"""Setting up a scenario (Core Set, "Setting Up" and "Play It Your Way").

The setup is plain data (see README): the scenario, the characters with their decks and
starting locations, the vault, the engine's card definitions and the Play It Your Way options.
An optional `table` gives stacks in a fixed order instead (a location's cards, the hourglass,
a starting hand with the deck below it, top first), as when transcribing a table already laid
out; arranged locations get no story bane. Where the scenario card does not list its locations,
`locations` gives the ones the players set out; where a location card has no deck list,
`location_decks` gives the vault cards the players chose for it (story banes are still shuffled in).
"""

from __future__ import annotations

from typing import Any

from .cards import validate_definition
from .errors import SetupError
from .game import Game, State
from .randomness import new_seed
from .rulesets import get_ruleset

SIZES = ("small", "medium", "large")
MODES = {"normal": 0, "heroic": 2, "legendary": 4}
DEFAULT_HOURGLASS = 30


def _options(setup: dict[str, Any], scenario: dict[str, Any]) -> dict[str, Any]:
    given = dict(setup.get("options") or {})
    mode = given.get("mode", "normal")
    if mode not in MODES:
        raise SetupError(f"unknown challenge mode {mode!r}; known: {', '.join(MODES)}")
    options = {
        "mode": mode,
        "location_size": given.get("location_size", "medium"),
        "location_count_delta": int(given.get("location_count_delta", 0)),
        "hourglass_size": int(given.get("hourglass_size", DEFAULT_HOURGLASS)),
        "wildcards": list(given.get("wildcards", [])),
        "bane_adventure_delta": int(given.get("bane_adventure_delta", 1 if mode == "legendary" else 0)),
        "adventure": int(given.get("adventure", scenario.get("adventure", 1))),
    }
    sizes = options["location_size"]
    for size in sizes.values() if isinstance(sizes, dict) else [sizes]:
        if size not in SIZES:
            raise SetupError(f"unknown location size {size!r}; use small, medium or large")
    if options["hourglass_size"] < 1:
        raise SetupError("the hourglass needs at least one blessing")
    characters = setup.get("characters") or []
    if characters and not setup.get("locations"):
        location_list(scenario, len(characters), options["location_count_delta"])  # refuses what it cannot do
    increases = _challenge_increases(options)
    if increases < MODES[mode]:
        raise SetupError(
            f"{mode.capitalize()} mode increases the challenge over Normal in {MODES[mode]} ways "
            f"(Play It Your Way); this setup has {increases}"
        )
    return options


def _challenge_increases(options: dict[str, Any]) -> int:
    """Play It Your Way: each wildcard, larger locations, an extra location, a smaller hourglass
    and a higher adventure number for banes each increase the challenge."""
    sizes = options["location_size"]
    larger = any(size == "large" for size in (sizes.values() if isinstance(sizes, dict) else [sizes]))
    return (
        len(options["wildcards"])
        + int(larger)
        + int(options["location_count_delta"] > 0)
        + int(options["hourglass_size"] < DEFAULT_HOURGLASS)
        + int(options["bane_adventure_delta"] > 0)
    )


def _scenario(setup: dict[str, Any], definitions: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    scenario = setup.get("scenario")
    if isinstance(scenario, str):
        if scenario not in definitions:
            raise SetupError(f"no definition for the scenario {scenario}")
        return scenario, definitions[scenario]
    if isinstance(scenario, dict):
        return str(scenario.get("id", "scenario")), scenario
    raise SetupError("the setup needs a scenario (a card id or a mapping)")


def _vault_ids(setup: dict[str, Any]) -> list[str]:
    vault = setup.get("vault") or []
    if isinstance(vault, dict):
        return [card for card, count in vault.items() for _ in range(int(count))]
    return list(vault)


def _empty_state(ruleset: str, seed: str, definitions: dict[str, Any]) -> State:
    return {
        "schema": "pacg-play/1",
        "ruleset": ruleset,
        "version": 0,
        "status": "playing",
        "outcome": None,
        "secret": {"seed": seed, "draws": 0},
        "defs": definitions,
        "cards": {},
        "counters": {"card": 0, "step": 0},
        "proxies": {},
        "story_banes": {},
        "scenario": {},
        "options": {},
        "adventure": 1,
        "bane_adventure": 1,
        "table": {
            "order": [],
            "turn_index": 0,
            "turn_number": 1,
            "active": None,
            "wildcards": [],
            "dangers": [],
            "set_aside": [],
            "abort_turn": False,
        },
        "locations": {},
        "location_order": [],
        "characters": {},
        "hourglass": [],
        "hourglass_discards": [],
        "vault": {},
        "removed": [],
        "encountered": [],
        "entered_checks": {},
        "set_aside": [],
        "ephemeral": [],
        "gone": [],
        "revealed": [],
        "effects": [],
        "stack": [],
        "pending": None,
    }


def build(setup: dict[str, Any], *, seed: str | None, ruleset: str, source: Any) -> Game:
    get_ruleset(ruleset)
    definitions = {
        card: validate_definition(card, definition) for card, definition in (setup.get("cards") or {}).items()
    }
    scenario_id, scenario = _scenario(setup, definitions)
    options = _options(setup, scenario)
    state = _empty_state(ruleset, seed or new_seed(), definitions)
    game = Game(state, source)
    state["options"] = options
    state["adventure"] = options["adventure"]
    state["bane_adventure"] = max(0, options["adventure"] + options["bane_adventure_delta"])
    for card_id in _vault_ids(setup):
        game.to_vault(game.new_instance(card_id))
    characters = setup.get("characters") or []
    if not characters:
        raise SetupError("a scenario needs at least one character")
    chosen = setup.get("locations") or location_list(scenario, len(characters), options["location_count_delta"])
    if len(set(chosen)) != len(chosen):
        raise SetupError("each location is set out once")
    locations = _set_out_locations(game, list(chosen))
    state["scenario"] = {
        "id": scenario_id,
        "name": scenario.get("name", scenario_id),
        "villains": list(scenario.get("villains") or []),
        "to_win": scenario.get("to_win"),
    }
    table = setup.get("table") or {}
    arranged = table.get("locations") or {}
    unknown = set(arranged) - set(locations)
    if unknown:
        raise SetupError(f"the table arranges {', '.join(sorted(unknown))}, which this scenario does not use")
    decks = setup.get("location_decks") or {}
    unknown = set(decks) - set(locations)
    if unknown:
        raise SetupError(f"cards are chosen for {', '.join(sorted(unknown))}, which this scenario does not use")
    for location in locations:
        if location in arranged:
            game.location(location)["cards"] = [game.retrieve(card) for card in arranged[location]]
        elif location in decks:
            game.location(location)["cards"] = [game.retrieve(card) for card in decks[location]]
        else:
            _build_location(game, location, options["location_size"])
    _story_banes(game, scenario, [location for location in locations if location not in arranged])
    if "hourglass" in table:
        state["hourglass"] = [game.retrieve(card) for card in table["hourglass"]]
    else:
        _hourglass(game, options["hourglass_size"])
    state["table"]["wildcards"] = [game.retrieve(card) for card in options["wildcards"]]
    _characters(game, characters, locations, setup.get("first"), table)
    game.emit("scenario_set_up", scenario=scenario_id, locations=locations, characters=state["table"]["order"])
    state["stack"].append({"kind": "game", "id": 0})
    return game


def location_list(scenario: dict[str, Any], characters: int, delta: int = 0) -> list[str]:
    """Rulebook: "use all of the locations listed up to the number of characters you have"; Play It
    Your Way: "decrease the number of locations by 1 ... increase it by 1" (the next location the
    scenario lists for more characters)."""
    if delta not in (-1, 0, 1):
        raise SetupError("Play It Your Way changes the number of locations by 1 at most (-1, 0 or 1)")
    listed = scenario.get("locations") or {}
    chosen: list[str] = []
    spare: list[str] = []
    for needed in sorted(listed, key=int):
        (chosen if int(needed) <= characters else spare).extend(listed[needed])
    if not chosen:
        raise SetupError(f"the scenario lists no locations for {characters} characters")
    if delta == 1:
        if not spare:
            raise SetupError(
                f"the scenario lists no location beyond the {len(chosen)} it uses for {characters} characters; "
                "Play It Your Way cannot add one"
            )
        chosen.append(spare[0])
    if delta == -1:
        if len(chosen) == 1:
            raise SetupError("the scenario uses a single location; Play It Your Way cannot remove it")
        chosen.pop()
    return chosen


def _set_out_locations(game: Game, chosen: list[str]) -> list[str]:
    for location in chosen:
        if game.definition_of(location)["type"] != "location":
            raise SetupError(f"{location} is not a location")
        card = game.retrieve(location)
        game.state["locations"][location] = {"card": card, "cards": [], "closed": False, "in_play": True}
        game.state["location_order"].append(location)
    return chosen


def _build_location(game: Game, location: str, sizes: Any) -> None:
    """Rulebook: "Shuffle each of these card types separately, then deal the listed number of cards of each
    card type facedown into a single stack next to each location card"."""
    deck_list = game.definition_of(location).get("deck_list") or {}
    size = sizes.get(location, "medium") if isinstance(sizes, dict) else sizes
    counts = deck_list.get(size, {}) if any(key in SIZES for key in deck_list) else deck_list
    cards = game.location(location)["cards"]
    for kind, count in counts.items():
        for _ in range(int(count)):
            card = game.vault_random(kind, f"build:{location}")
            if card is None:
                game.emit("setup_short", location=location, card_type=kind)
                break
            cards.append(card)


def _story_banes(game: Game, scenario: dict[str, Any], locations: list[str]) -> None:
    """Dangers and proxied henchmen are set aside; the stack holds villains, then henchmen in
    order, until it has one card per location; it is shuffled and dealt one per location."""
    state = game.state
    for danger in scenario.get("dangers") or []:
        state["table"]["dangers"].append(game.retrieve(danger))
    villains = list(scenario.get("villains") or [])
    henchmen = [entry if isinstance(entry, dict) else {"card": entry} for entry in scenario.get("henchmen") or []]
    for villain in villains:
        state["story_banes"][villain] = {"role": "villain", "closing": True}
    for entry in henchmen:
        state["story_banes"][entry["card"]] = {"role": "henchman", "closing": bool(entry.get("closing"))}
    stack: list[str] = []

    def add(card_id: str, proxy: str | None, copy: bool = False) -> None:
        if proxy and game.ruleset.story_bane_fill == "proxy":
            card = game.new_instance(proxy)
            state["proxies"][card] = card_id
        elif copy:
            card = game.new_instance(card_id, ephemeral=True)
        else:
            card = game.retrieve(card_id)
        stack.append(card)

    for villain in villains:
        if len(stack) < len(locations):
            add(villain, None)
    for entry in henchmen:
        if entry.get("proxy") and game.ruleset.story_bane_fill == "proxy":
            state["table"]["set_aside"].append(game.retrieve(entry["card"]))
        if len(stack) < len(locations):
            add(entry["card"], entry.get("proxy"))
    with_proxy = [entry for entry in henchmen if entry.get("proxy")]
    fillers = (with_proxy if game.ruleset.story_bane_fill == "proxy" and with_proxy else henchmen[-1:])[::-1]
    turn = 0
    while len(stack) < len(locations) and fillers:
        entry = fillers[turn % len(fillers)]
        add(entry["card"], entry.get("proxy"), copy=True)
        turn += 1
    game.shuffle(stack, "story_banes")
    for location, card in zip(locations, stack, strict=False):
        game.location(location)["cards"].append(card)
    for location in locations:
        game.shuffle(game.location(location)["cards"], f"location:{location}")


def _hourglass(game: Game, size: int) -> None:
    """Rulebook: "draw 30 random blessings from the vault. Shuffle these blessings together"."""
    available = len(game.state["vault"].get("blessing", []))
    if available < size:
        raise SetupError(
            f"the {game.ruleset.timer} needs {size} blessings but the {game.ruleset.card_pool} has {available}: "
            f"add blessings to the {game.ruleset.card_pool}, or play a smaller {game.ruleset.timer} "
            "(Play It Your Way, option hourglass_size)"
        )
    hourglass = game.state["hourglass"]
    for _ in range(size):
        card = game.vault_random("blessing", "hourglass")
        assert card is not None
        hourglass.append(card)
    game.shuffle(hourglass, "hourglass")


def _favored(game: Game, entry: dict[str, Any], definition: dict[str, Any]) -> str | None:
    favored = entry.get("favored") or definition.get("favored")
    if favored is None:
        return None
    if str(favored).lower().startswith("any"):
        raise SetupError(f"{definition['name']} chooses a favored card type: give it as `favored` in the setup")
    return str(favored)


def _is_favored(game: Game, card: str, favored: str) -> bool:
    definition = game.definition(card)
    return definition["type"].lower() == favored.lower() or favored in definition["traits"]


def _draw_starting_hand(game: Game, name: str, favored: str | None) -> None:
    """Rulebook: "If you didn't draw at least [1] matching card, set aside your hand and draw again ... If
    you set aside enough cards that you can't draw up to your full hand size, draw all the
    remaining cards, then shuffle the set-aside cards into your deck and draw the rest"."""
    sheet = game.character(name)
    size = int(sheet["hand_size"])
    deck, hand = sheet["deck"], sheet["hand"]
    label = f"deck:{name}"

    def draw(count: int) -> None:
        hand.extend(deck[:count])
        del deck[:count]

    draw(size)
    set_aside: list[str] = []
    reachable = favored is not None and any(_is_favored(game, card, favored) for card in deck + hand)
    while reachable and not any(_is_favored(game, card, favored) for card in hand):  # type: ignore[arg-type]
        set_aside.extend(hand)
        hand.clear()
        if len(deck) >= size:
            draw(size)
        else:
            draw(len(deck))
            deck.extend(set_aside)
            set_aside.clear()
            game.shuffle(deck, label)
            draw(size - len(hand))
        game.emit("redrew_starting_hand", character=name)
    if set_aside:
        deck.extend(set_aside)
        game.shuffle(deck, label)


def _characters(
    game: Game, entries: list[dict[str, Any]], locations: list[str], first: str | None, table: dict[str, Any]
) -> None:
    state = game.state
    order = []
    for entry in entries:
        card_id = entry["character"]
        definition = game.definition_of(card_id)
        if definition["type"] != "character":
            raise SetupError(f"{card_id} is not a character")
        name = entry.get("id") or card_id.split(".", 1)[-1]
        if name in state["characters"]:
            raise SetupError(f"two characters are called {name}")
        location = entry.get("location") or locations[0]
        if location not in locations:
            raise SetupError(f"{name} cannot start at {location}: it is not one of this scenario's locations")
        deck = [game.new_instance(card) for card in entry.get("deck") or []]
        state["characters"][name] = {
            "card": card_id,
            "player": entry.get("player", name),
            "location": location,
            "skills": dict(definition.get("skills") or {}) | dict(entry.get("skills") or {}),
            "hand_size": int(entry.get("hand_size") or definition.get("hand_size") or 4),
            "favored": None,
            "hero_points": int(entry.get("hero_points", 0)),
            "alive": True,
            "scourges": [],
            "hand": [],
            "deck": deck,
            "discards": [],
            "buried": [],
            "recovery": [],
            "displayed": [],
        }
        order.append(name)
        favored = _favored(game, entry, definition)
        state["characters"][name]["favored"] = favored
        if name in (table.get("hands") or {}):
            state["characters"][name]["hand"] = [game.new_instance(card) for card in table["hands"][name]]
        else:
            game.shuffle(deck, f"deck:{name}")
            _draw_starting_hand(game, name, favored)
        for cohort in entry.get("cohorts") or ([entry["cohort"]] if entry.get("cohort") else []):
            state["characters"][name]["hand"].append(game.retrieve(cohort))
    if first is not None:
        if first not in order:
            raise SetupError(f"{first} is not one of the characters")
        index = order.index(first)
        order = order[index:] + order[:index]
    state["table"]["order"] = order
