"""The working context of one `apply`: the state being changed, its randomness and its events.

Everything that moves a card goes through here, so every card stays in exactly one place.
Stacks are lists whose index 0 is the top card.
"""

from __future__ import annotations

import marshal
from typing import Any

from .cards import is_bane
from .errors import EngineError
from .randomness import SeededSource
from .rulesets import Ruleset, get_ruleset

State = dict[str, Any]
Step = dict[str, Any]
Decision = dict[str, Any]

CHARACTER_ZONES = ("hand", "deck", "discards", "buried", "recovery", "displayed")


# Never changed in place once a game is set up (`cards` only grows, and Game copies it before
# adding to it), so a copy of the state shares them. The pending decision is recomputed.
SHARED_KEYS = frozenset(("defs", "cards", "proxies", "story_banes", "scenario", "options", "location_order"))
SKIPPED_KEYS = frozenset(("pending",))
# Mappings whose values are plain values, lists of plain values or mappings of plain values
# (the table, the vault, a character sheet, a location): copying them one level down is a full
# copy, and several times faster than a generic deep copy.
ONE_LEVEL_KEYS = frozenset(("table", "vault", "secret", "counters"))
# Character sheets and locations: the mapping is copied, each entry only when the Game first
# hands it out for changing (Game.character / Game.location): most answers touch one or two.
COPY_ON_WRITE_KEYS = frozenset(("characters", "locations"))
# The step stack: the list is copied, each step (a nested structure) only when the Game first
# hands it out (Game.top / step_by_id / innermost): most answers touch the top step or two.
FLAT_LIST_KEYS = frozenset(
    ("hourglass", "hourglass_discards", "removed", "encountered", "set_aside", "ephemeral", "gone", "revealed")
)


def _copy_one_level(mapping: dict[str, Any]) -> dict[str, Any]:
    return {
        key: value[:] if type(value) is list else dict(value) if type(value) is dict else value
        for key, value in mapping.items()
    }


def copy_state(state: State) -> State:
    """A copy of the game for `apply` (a deep copy once the Game has copied the sheets and
    locations it changes): shared keys are shared, flat structures copied with slices, the rest
    (the step stack, lasting effects) with marshal, which copies JSON-like data several times
    faster than copy.deepcopy."""
    copied: State = {}
    for key, value in state.items():
        if key in SHARED_KEYS:
            copied[key] = value
        elif key in SKIPPED_KEYS:
            copied[key] = None
        elif key in COPY_ON_WRITE_KEYS:
            copied[key] = dict(value)
        elif key == "stack":
            copied[key] = value[:]
        elif key in ONE_LEVEL_KEYS:
            copied[key] = _copy_one_level(value)
        elif key in FLAT_LIST_KEYS:
            copied[key] = value[:]
        elif type(value) in (list, dict):
            copied[key] = marshal.loads(marshal.dumps(value))
        else:
            copied[key] = value
    return copied


NO_POWERS: list[dict[str, Any]] = []
# Definitions are shared by every state of a game and never change, so their powers can be
# indexed once. Keyed by identity; the stored definition guards against a reused id().
_POWER_INDEX: dict[int, tuple[dict[str, Any], dict[str, list[dict[str, Any]]]]] = {}


def powers_by_timing(definition: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
    entry = _POWER_INDEX.get(id(definition))
    if entry is not None and entry[0] is definition:
        return entry[1]
    if len(_POWER_INDEX) > 50_000:
        _POWER_INDEX.clear()
    index: dict[str, list[dict[str, Any]]] = {}
    for power in definition["powers"]:
        if "timing" in power:
            index.setdefault(power["timing"], []).append(power)
    _POWER_INDEX[id(definition)] = (definition, index)
    return index


_DEFINITIONS_BY_CARD: dict[int, tuple[Any, Any, Any, dict[str, Any]]] = {}
_TIMINGS_IN_GAME: dict[int, tuple[dict[str, Any], frozenset[str]]] = {}


def timings_in(definitions: dict[str, Any]) -> frozenset[str]:
    """Every window some card of the game has a power for (hour powers and granted powers
    included): a window no card can use is skipped without looking at anyone's hand."""
    entry = _TIMINGS_IN_GAME.get(id(definitions))
    if entry is not None and entry[0] is definitions:
        return entry[1]
    found = set()
    for definition in definitions.values():
        for power in [*definition.get("powers", []), *definition.get("hour", {}).get("powers", [])]:
            found.add(power.get("timing"))
            found.update(grant.get("timing") for grant in power.get("grants", []))
    timings = frozenset(timing for timing in found if timing)
    if len(_TIMINGS_IN_GAME) > 1000:
        _TIMINGS_IN_GAME.clear()
    _TIMINGS_IN_GAME[id(definitions)] = (definitions, timings)
    return timings


# Where a card action puts a card (banish aside): the zone, and whether on top of it.
PLACES = {
    "reveal": ("hand", False),
    "draw": ("hand", False),
    "hand": ("hand", False),
    "display": ("displayed", False),
    "reload": ("deck", True),
    "recharge": ("deck", False),
    "discard": ("discards", True),
    "bury": ("buried", True),
}


class Game:
    def __init__(self, state: State, source: Any = None, *, copied: bool = False) -> None:
        """`copied`: the state comes from copy_state, so its sheets and locations are still
        shared with the given state and are copied before they are changed."""
        self.state = state
        self._unshared: dict[str, set[str]] | None = {"characters": set(), "locations": set()} if copied else None
        self._shared_steps: set[int] = {id(step) for step in state["stack"]} if copied else set()
        self.ruleset: Ruleset = get_ruleset(state["ruleset"])
        self.seeded = SeededSource(state["secret"]["seed"])
        self.source = source
        self.events: list[dict[str, Any]] = []
        self._owns_cards = False
        self._definitions = self._shared_definitions()

    # -- events -----------------------------------------------------------------------------
    def emit(self, kind: str, **data: Any) -> None:
        self.events.append({"type": kind, **data})

    # -- randomness -------------------------------------------------------------------------
    def _next_draw(self) -> int:
        secret = self.state["secret"]
        number = int(secret["draws"])
        secret["draws"] = number + 1
        return number

    def _method(self, name: str) -> Any:
        if self.source is not None and hasattr(self.source, name):
            return getattr(self.source, name)
        return getattr(self.seeded, name)

    def roll(self, sides: int, purpose: str) -> int:
        draw = self._next_draw()
        face = int(self._method("roll")(sides, draw))
        if not 1 <= face <= sides:
            raise EngineError(f"a d{sides} cannot show {face}")
        self.emit("random", what="roll", sides=sides, face=face, purpose=purpose, draw=draw)
        return face

    def shuffle(self, cards: list[str], label: str) -> None:
        """Shuffles in place; the new order is logged (it is secret: see events.public_events)."""
        if len(cards) < 2:
            return
        draw = self._next_draw()
        order = list(self._method("shuffle")([self.card_id(card) for card in cards], label, draw))
        if sorted(order) != list(range(len(cards))):
            raise EngineError(f"a shuffle of {label} must be a permutation of its {len(cards)} cards")
        cards[:] = [cards[index] for index in order]
        revealed = self.state["revealed"]
        if revealed:
            moved = set(cards)
            self.state["revealed"] = [card for card in revealed if card not in moved]
        self.emit("random", what="shuffle", label=label, order=order, draw=draw)

    def pick(self, cards: list[str], label: str) -> int:
        draw = self._next_draw()
        index = int(self._method("pick")([self.card_id(card) for card in cards], label, draw))
        if not 0 <= index < len(cards):
            raise EngineError(f"a random pick from {label} must be one of its {len(cards)} cards")
        self.emit("random", what="pick", label=label, index=index, draw=draw)
        return index

    # -- definitions ------------------------------------------------------------------------
    def card_id(self, card: str) -> str:
        return str(self.state["cards"][card])

    def definition_of(self, card_id: str) -> dict[str, Any]:
        try:
            return self.state["defs"][card_id]
        except KeyError:
            raise EngineError(f"no engine definition for the card {card_id}") from None

    def effective_id(self, card: str) -> str:
        """A proxy is treated as the card it stands for."""
        return str(self.state["proxies"].get(card) or self.state["cards"][card])

    def indexed(self, card: str) -> tuple[dict[str, Any], dict[str, list[dict[str, Any]]]]:
        """(definition, its powers by timing) of a card, proxies read as what they stand for."""
        found = self._definitions.get(card)
        if found is None:
            definition = self.definition_of(self.effective_id(card))
            found = self._definitions[card] = (definition, powers_by_timing(definition))
        return found

    def definition(self, card: str) -> dict[str, Any]:
        return self.indexed(card)[0]

    def _shared_definitions(self) -> dict[str, tuple[dict[str, Any], dict[str, list[dict[str, Any]]]]]:
        """Card -> definition, kept between applies for as long as the states share their
        `cards`, `proxies` and `defs` (which never change in place)."""
        state = self.state
        key = id(state["cards"])
        entry = _DEFINITIONS_BY_CARD.get(key)
        if (
            entry is not None
            and entry[0] is state["cards"]
            and entry[1] is state["defs"]
            and entry[2] is state["proxies"]
        ):
            return entry[3]
        if len(_DEFINITIONS_BY_CARD) > 256:
            _DEFINITIONS_BY_CARD.clear()
        mapping: dict[str, tuple[dict[str, Any], dict[str, list[dict[str, Any]]]]] = {}
        _DEFINITIONS_BY_CARD[key] = (state["cards"], state["defs"], state["proxies"], mapping)
        return mapping

    def powers_for(self, definition: dict[str, Any], timing: str) -> list[dict[str, Any]]:
        """The powers of a definition usable in a window."""
        return powers_by_timing(definition).get(timing, NO_POWERS)

    def name(self, card: str) -> str:
        return str(self.definition(card)["name"])

    def card_type(self, card: str) -> str:
        return str(self.definition(card)["type"])

    def story_bane(self, card: str) -> dict[str, Any] | None:
        return self.state["story_banes"].get(self.effective_id(card))

    def is_villain(self, card: str) -> bool:
        role = self.story_bane(card)
        return bool(role and role.get("role") == "villain")

    def adventure_for(self, card: str | None) -> int:
        """Play It Your Way may raise (or lower) the adventure number for banes only."""
        if card is not None and is_bane(self.definition(card)):
            return int(self.state["bane_adventure"])
        return int(self.state["adventure"])

    # -- instances --------------------------------------------------------------------------
    def new_instance(self, card_id: str, *, ephemeral: bool = False) -> str:
        self.definition_of(card_id)
        counters = self.state["counters"]
        counters["card"] += 1
        card = f"{'s' if ephemeral else 'c'}{counters['card']}"
        if not self._owns_cards:
            self.state["cards"] = dict(self.state["cards"])
            self._owns_cards = True
            self._definitions = self._shared_definitions()
        self.state["cards"][card] = card_id
        if ephemeral:
            self.state["ephemeral"].append(card)
        return card

    # -- characters -------------------------------------------------------------------------
    def _own(self, key: str, name: str) -> dict[str, Any]:
        entries = self.state[key]
        if self._unshared is not None and name not in self._unshared[key]:
            entries[name] = _copy_one_level(entries[name])
            self._unshared[key].add(name)
        return entries[name]  # type: ignore[no-any-return]

    def character(self, character: str) -> dict[str, Any]:
        """The character's sheet, to read or change (reads elsewhere go to the state)."""
        return self._own("characters", character)

    def sheet(self, character: str) -> dict[str, Any]:
        """The character's sheet, read only."""
        return self.state["characters"][character]  # type: ignore[no-any-return]

    def character_definition(self, character: str) -> dict[str, Any]:
        return self.definition_of(self.sheet(character)["card"])

    def character_name(self, character: str) -> str:
        """The character's card name ("Amiri"), for prompts and labels."""
        return str(self.character_definition(character)["name"])

    def player_of(self, character: str) -> str:
        return str(self.sheet(character)["player"])

    def alive(self, character: str) -> bool:
        return bool(self.state["characters"][character]["alive"])

    def living(self) -> list[str]:
        characters = self.state["characters"]
        return [name for name in self.state["table"]["order"] if characters[name]["alive"]]

    def location_of(self, character: str) -> str:
        return str(self.sheet(character)["location"])

    def local_characters(self, location: str) -> list[str]:
        return [name for name in self.living() if self.location_of(name) == location]

    def active_character(self) -> str | None:
        return self.state["table"].get("active")

    # -- locations --------------------------------------------------------------------------
    def location(self, location: str) -> dict[str, Any]:
        """The location, to read or change."""
        return self._own("locations", location)

    def location_view(self, location: str) -> dict[str, Any]:
        """The location, read only."""
        return self.state["locations"][location]  # type: ignore[no-any-return]

    def location_definition(self, location: str) -> dict[str, Any]:
        return self.definition_of(location)

    def open_locations(self) -> list[str]:
        return [name for name in self.state["location_order"] if not self.location_view(name)["closed"]]

    def locations_in_play(self) -> list[str]:
        """Locations on the table (classic keeps closed ones; core banishes them)."""
        return [name for name in self.state["location_order"] if self.location_view(name)["in_play"]]

    # -- moving cards -----------------------------------------------------------------------
    def take(self, zone: list[str], card: str) -> str:
        zone.remove(card)
        return card

    def to_vault(self, card: str) -> None:
        """Banished cards go back to the vault (box), shuffled in with their type; drawing from
        the vault is always random, so the pile's order does not matter. A summoned copy ceases
        to exist (it moves to `gone`); a cohort is removed from the game instead."""
        if card in self.state["ephemeral"]:
            # Still named in `cards` so events and steps that mention it keep working.
            self.state["ephemeral"].remove(card)
            self.state["gone"].append(card)
            return
        kind = str(self.definition_of(self.card_id(card))["type"])
        if kind == "cohort":
            self.state["removed"].append(card)
            return
        self.state["vault"].setdefault(kind, []).append(card)

    def vault_random(self, kind: str, label: str, accept: Any = None) -> str | None:
        """A random card of a type from the vault ("draw cards of that type until you find a card
        that fulfills the requirement")."""
        pile = self.state["vault"].get(kind) or []
        candidates = [card for card in pile if accept is None or accept(card)]
        if not candidates:
            return None
        card = candidates[self.pick(candidates, label)]
        pile.remove(card)
        return card

    def vault_named(self, card_id: str, *, ephemeral_if_missing: bool = True) -> str:
        """A specific card from the vault; if every copy is in use, an imagined copy (Summoned
        Cards: "just imagine you have another copy of that card")."""
        kind = str(self.definition_of(card_id)["type"])
        pile = self.state["vault"].get(kind) or []
        for card in pile:
            if self.state["cards"][card] == card_id:
                pile.remove(card)
                return card
        if not ephemeral_if_missing:
            raise EngineError(f"no {card_id} in the {self.ruleset.card_pool}")
        return self.new_instance(card_id, ephemeral=True)

    def retrieve(self, card_id: str) -> str:
        """A specific card from the vault, or a new card of the game when the vault has none
        (e.g. a scourge or a story bane the caller did not list in the vault)."""
        kind = str(self.definition_of(card_id)["type"])
        if any(self.state["cards"][card] == card_id for card in self.state["vault"].get(kind, [])):
            return self.vault_named(card_id)
        return self.new_instance(card_id)

    def draw_from_deck(self, character: str, count: int = 1) -> list[str]:
        """Drawing more than the deck holds kills the character (Dying)."""
        sheet = self.character(character)
        if not sheet["alive"]:
            return []
        if count > len(sheet["deck"]):
            self.kill(character, "had to draw more cards than the deck holds")
            return []
        drawn = sheet["deck"][:count]
        del sheet["deck"][:count]
        sheet["hand"].extend(drawn)
        return drawn

    def put(self, character: str, card: str, action: str, *, played: bool = False) -> str:
        """Perform a card action with a card already taken from where it was. Returns the zone."""
        sheet = self.character(character)
        if action in PLACES:
            zone, on_top = PLACES[action]
            if on_top:
                sheet[zone].insert(0, card)
            else:
                sheet[zone].append(card)
            return zone
        if action == "banish":
            # Core: a played card with a during-recovery power waits in the recovery pile for the
            # end of the turn. Classic has no recovery pile: the card is set aside there only
            # until its recharge check right after the check it was played on.
            if played and self.has_recovery(card):
                sheet["recovery"].append(card)
                return "recovery"
            self.to_vault(card)
            return "vault"
        raise EngineError(f"unknown card action {action!r}")

    def has_recovery(self, card: str) -> bool:
        return bool(self.definition(card).get("recovery"))

    def move_from_hand(self, character: str, card: str, action: str, *, played: bool = False) -> str:
        sheet = self.character(character)
        if action == "reveal":
            return "hand"
        sheet["hand"].remove(card)
        return self.put(character, card, action, played=played)

    # -- death and the end ------------------------------------------------------------------
    def kill(self, character: str, reason: str) -> None:
        sheet = self.character(character)
        if not sheet["alive"]:
            return
        for zone in self.ruleset.dead_bury:
            sheet["buried"].extend(sheet[zone])
            sheet[zone] = []
        # Classic does not bury displayed cards or a recovery pile: they go back to the box.
        for zone in ("displayed", "recovery"):
            for card in sheet[zone]:
                self.to_vault(card)
            sheet[zone] = []
        sheet["alive"] = False
        self.emit("died", character=character, reason=reason)
        if not self.living():
            self.end("lost", "all the characters are dead")
        elif self.active_character() == character:
            self.state["table"]["abort_turn"] = True

    def end(self, result: str, reason: str) -> None:
        if self.state["status"] != "playing":
            return
        self.state["status"] = result
        self.state["outcome"] = {"result": result, "reason": reason}
        self.emit("scenario_ended", result=result, reason=reason)

    # -- steps ------------------------------------------------------------------------------
    def push(self, kind: str, **data: Any) -> Step:
        counters = self.state["counters"]
        counters["step"] += 1
        step: Step = {"kind": kind, "id": counters["step"], **data}
        self.state["stack"].append(step)
        return step

    def _own_step(self, index: int) -> Step:
        stack = self.state["stack"]
        step = stack[index]
        if self._shared_steps and id(step) in self._shared_steps:
            self._shared_steps.discard(id(step))
            step = stack[index] = marshal.loads(marshal.dumps(step))
        return step

    def top(self) -> Step:
        """The step on top of the stack, to read or change."""
        return self._own_step(-1)

    def pop(self, step: Step) -> None:
        stack = self.state["stack"]
        if not stack or stack[-1] is not step:
            stack.remove(step)
        else:
            stack.pop()

    def pop_top(self) -> Step:
        step = self.top()
        self.state["stack"].pop()
        return step

    def step_by_id(self, step_id: int | None) -> Step | None:
        if step_id is None:
            return None
        stack = self.state["stack"]
        for index in range(len(stack) - 1, -1, -1):
            if stack[index]["id"] == step_id:
                return self._own_step(index)
        return None

    def innermost(self, kind: str) -> Step | None:
        stack = self.state["stack"]
        for index in range(len(stack) - 1, -1, -1):
            if stack[index]["kind"] == kind:
                return self._own_step(index)
        return None
