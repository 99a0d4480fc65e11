"""The campaign log: events in, the party's current state out, every rule checked on the way.

Pure Python (no database): `replay(events, cards, ruleset)` folds the log into a PartyState and
raises RuleViolation, naming the rule and its rulebook section, at the first event the rules
refuse. The services append an event only after replaying it on top of the current state.
The rules it cites are in rulebook.py, the state it builds in state.py, feats in feats.py.
"""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from pacg_site.errors import DomainError

from .feats import all_feat_groups, deck_size, feat_type, power_box_needs_own_box
from .rulebook import RuleViolation
from .state import RULESETS, CardInfo, CharacterState, PartyState

MODES = ("normal", "heroic", "legendary")
PARTY_KINDS = {"adventure_started", "scenario_played", "vault_changed", "decks_rebuilt", "revert", "character_created"}
CHARACTER_KINDS = {
    "character_died",
    "returned_from_death",
    "character_retired",
    "cohort_removed",
    "hero_point_awarded",
    "hero_point_spent",
    "feat_gained",
    "role_chosen",
    "mythic_path_chosen",
    "loot_assigned",
    "adventure_points_awarded",
    "card_upgraded",
    "reward_card_bought",
    "recovered",
}


class InvalidEvent(DomainError):
    code = "invalid_event"


# --- replay -----------------------------------------------------------------------------------


class Log:
    """Applies events to a state with the cards they name at hand."""

    def __init__(self, cards: Mapping[str, CardInfo], ruleset: str):
        self.cards = cards
        self.ruleset = RULESETS[ruleset]

    def card(self, uid: str) -> CardInfo:
        if uid not in self.cards:
            raise InvalidEvent(f"no card has the id {uid!r}", details={"card": uid})
        return self.cards[uid]

    def replay(self, events: Iterable[Mapping[str, Any]]) -> PartyState:
        events = list(events)
        state = PartyState(ruleset=self.ruleset.name)
        state.reverted = active_reverts(events)
        for event in events:
            self.apply(state, event)
        return state

    def apply(self, state: PartyState, event: Mapping[str, Any]) -> None:
        state.applied += 1
        if event["seq"] in state.reverted or event["kind"] == "revert":
            return
        handler = HANDLERS.get(event["kind"])
        if handler is None:
            raise InvalidEvent(f"unknown event kind {event['kind']!r}", details={"kind": event["kind"]})
        character = None
        if event.get("character") is not None and event["kind"] != "character_created":
            character = state.characters.get(event["character"])
            if character is None:
                raise InvalidEvent(f"character {event['character']} is not in this party's log")
        elif event["kind"] in CHARACTER_KINDS:
            raise InvalidEvent(f"a {event['kind']} entry names its character")
        data = event.get("data") or {}
        for member in state.characters.values():
            if member is not character:
                member.unspent_award = False
        handler(self, state, character, data)
        if event["kind"] != "hero_point_awarded" and character is not None:
            character.unspent_award = False

    # characters ----------------------------------------------------------------------------

    def on_character_created(self, state: PartyState, _: None, data: Mapping[str, Any]) -> None:
        card = self.card(data["card"])
        if card.type not in {"character", "hero"}:
            raise InvalidEvent(f"{card.name} is a {card.type}, not a character")
        character = CharacterState(id=data["id"], card=card.uid)
        state.characters[character.id] = character
        deck = Counter(data.get("deck") or {})
        if deck:
            self._take_from_vault(state, deck, new_character=True, character=character)
            self._check_deck(state, character, deck)
            character.deck = deck

    def on_character_died(self, state: PartyState, character: CharacterState, _: Mapping[str, Any]) -> None:
        self._alive(character)
        character.status = "dead"
        character.died_after_adventure = state.last_played

    def on_returned_from_death(self, state: PartyState, character: CharacterState, _: Mapping[str, Any]) -> None:
        if character.status != "dead":
            raise InvalidEvent("only a dead character can return from death")
        if character.hero_points < 1:
            raise RuleViolation(
                "return-from-death", "this character has no hero point to spend", hero_points=character.hero_points
            )
        character.hero_points = 0
        character.status = "alive"

    def on_character_retired(self, state: PartyState, character: CharacterState, _: Mapping[str, Any]) -> None:
        self._alive(character)
        character.status = "retired"
        state.vault.update(character.deck)  # a deck of a character no longer played goes back
        character.deck = Counter()

    def on_cohort_removed(self, state: PartyState, character: CharacterState, _: Mapping[str, Any]) -> None:
        character.cohort_removed = True

    @staticmethod
    def _alive(character: CharacterState) -> None:
        if character.status != "alive":
            raise RuleViolation("alive", f"this character is {character.status}")

    # scenarios and rewards --------------------------------------------------------------------

    def on_adventure_started(self, state: PartyState, _: None, data: Mapping[str, Any]) -> None:
        number = int(data["adventure"])
        if number < state.adventure:
            raise InvalidEvent(f"adventure {number} comes before the current adventure {state.adventure}")
        state.adventure = number

    def on_scenario_played(self, state: PartyState, _: None, data: Mapping[str, Any]) -> None:
        mode = data.get("mode", "normal")
        if mode not in MODES:
            raise InvalidEvent(f"mode must be one of {', '.join(MODES)}")
        number = int(data.get("adventure", state.adventure))
        state.last_played = number
        for character_id in data.get("died", []):
            self.on_character_died(state, self._character(state, character_id), {})
        if not data.get("won"):
            return
        scenario = str(data["scenario"])
        first_win = scenario not in state.completed
        state.completed.setdefault(scenario, set()).add(mode)
        state.last_completed = max(state.last_completed, number)
        state.scenarios_by_adventure.setdefault(number, set()).add(scenario)
        if data.get("completes_adventure") and all(
            state.completed[s] & {"heroic", "legendary"} for s in state.scenarios_by_adventure[number]
        ):
            state.swaps += 1
        for reward in data.get("rewards", []):
            key = reward.get("id") or f"scenario:{scenario}"
            if key in state.rewards and not reward.get("repeatable"):
                raise RuleViolation("reward-once", f"the reward {key!r} was already earned", reward=key)
            state.rewards.add(key)
        if not first_win and data.get("rewards") and not all(r.get("repeatable") for r in data["rewards"]):
            raise RuleViolation("reward-once", f"{scenario!r} was already completed", scenario=scenario)

    def _character(self, state: PartyState, character_id: int) -> CharacterState:
        if character_id not in state.characters:
            raise InvalidEvent(f"character {character_id} is not in this party")
        return state.characters[character_id]

    # hero points and feats --------------------------------------------------------------------

    def on_hero_point_awarded(self, state: PartyState, character: CharacterState, data: Mapping[str, Any]) -> None:
        count = int(data.get("count", 1))
        if count < 1:
            raise InvalidEvent("a hero point award is at least 1")
        character.hero_points += count
        character.unspent_award = True

    def on_hero_point_spent(self, state: PartyState, character: CharacterState, data: Mapping[str, Any]) -> None:
        count = int(data.get("count", 1))
        if count < 1 or count > character.hero_points:
            raise RuleViolation("hero-points", f"cannot spend {count} of {character.hero_points} hero points")
        character.hero_points -= count

    def on_feat_gained(self, state: PartyState, character: CharacterState, data: Mapping[str, Any]) -> None:
        self._alive(character)
        feat = str(data["feat"])
        card = self.card(character.card)
        role = self.card(character.role[0]) if character.role else None
        side = character.role[1] if character.role else None
        groups = all_feat_groups(card, role, side)
        group = next((boxes for boxes in groups.values() if feat in boxes), None)
        if group is None:
            raise InvalidEvent(
                f"{card.name} has no feat box {feat!r}",
                details={"feat": feat, "boxes": sorted(box for boxes in groups.values() for box in boxes)},
            )
        if feat in character.feats:
            raise InvalidEvent(f"the feat {feat!r} is already checked")
        if feat.startswith("power:") and character.role is not None:
            raise RuleViolation("role", "with a role, power feats are checked on the role's side", feat=feat)
        earlier = group[: group.index(feat)]
        if any(box not in character.feats for box in earlier):
            raise RuleViolation("feat-order", f"check {earlier[-1]!r} before {feat!r}", feat=feat)
        own = power_box_needs_own_box(feat, card, role, side)
        if own and own not in character.feats:
            raise RuleViolation("feat-order", f"check the power's own box {own!r} first", feat=feat)
        if self.ruleset.feat_limit_per_type:
            kind = feat_type(feat)
            count = sum(feat_type(f) == kind for f in character.feats if not f.endswith(":replaced"))
            if count + 1 > state.last_completed:
                raise RuleViolation(
                    "feat-limit",
                    f"{kind} feats would be {count + 1}, above {state.last_completed}",
                    feat=feat,
                    limit=state.last_completed,
                )
        if self.ruleset.feats_from == "hero_point" and not data.get("swap"):
            if not character.unspent_award:
                raise RuleViolation("feat-by-hero-point", "no hero point was just awarded to this character")
            character.hero_points -= 1
            character.unspent_award = False
        elif (
            self.ruleset.feats_from == "reward"
            and not data.get("swap")
            and data.get("reward_type") not in {feat_type(feat), "any"}
        ):
            raise RuleViolation("feat-by-reward", f"the reward must name a {feat_type(feat)} feat", feat=feat)
        if data.get("swap"):
            self._swap(state, character, feat, str(data["swap"]))
        character.feats.append(feat)

    def _swap(self, state: PartyState, character: CharacterState, feat: str, erased: str) -> None:
        if erased not in character.feats or feat_type(erased) != feat_type(feat):
            raise RuleViolation("feat-swap", f"erase a checked {feat_type(feat)} feat to gain {feat!r}")
        if state.swaps < 1:
            raise RuleViolation("feat-swap", "no adventure was completed with all its scenarios in Heroic or Legendary")
        state.swaps -= 1
        character.feats.remove(erased)

    # roles and mythic paths -------------------------------------------------------------------

    def on_role_chosen(self, state: PartyState, character: CharacterState, data: Mapping[str, Any]) -> None:
        role = self.card(str(data["role"]))
        if role.type != "role" or role.data.get("character") not in {None, self.card(character.card).name}:
            raise RuleViolation("role", f"{role.name} is not this character's role card")
        sides = [s["name"] for s in role.data.get("sides") or []]
        if data["side"] not in sides:
            raise RuleViolation("role", f"choose one of the role's sides: {', '.join(sides)}")
        if character.role is not None:
            raise RuleViolation("role", f"the side {character.role[1]!r} was already chosen")
        character.role = (role.uid, str(data["side"]))

    def on_mythic_path_chosen(self, state: PartyState, character: CharacterState, data: Mapping[str, Any]) -> None:
        path = self.card(str(data["path"]))
        if path.type != "mythic_path":
            raise InvalidEvent(f"{path.name} is not a mythic path")
        if character.mythic_path is not None:
            raise RuleViolation("mythic-path", "this character already follows a mythic path")
        if state.last_completed < 1:
            raise RuleViolation("mythic-path", "The Worldwound Incursion (adventure 1) is not completed yet")
        character.mythic_path = path.uid

    # decks and the vault -----------------------------------------------------------------------

    def on_vault_changed(self, state: PartyState, _: None, data: Mapping[str, Any]) -> None:
        """Build or upgrade the vault: cards added from the owned products, removed back to the box,
        removed from the game, or set aside for a future adventure."""
        for uid, count in (data.get("add") or {}).items():
            self.card(uid)
            state.vault[uid] += int(count)
        for target, key in ((None, "remove"), (state.removed, "remove_from_game"), (state.future, "future")):
            for uid, count in (data.get(key) or {}).items():
                if state.vault[uid] < int(count):
                    raise RuleViolation(
                        "physical-copy", f"the vault has {state.vault[uid]} {uid}, not {count}", card=uid
                    )
                state.vault[uid] -= int(count)
                if target is not None:
                    target[uid] += int(count)
        for uid, count in (data.get("return_future") or {}).items():
            if state.future[uid] < int(count):
                raise RuleViolation("physical-copy", f"{count} {uid} are not waiting for a future adventure")
            state.future[uid] -= int(count)
            state.vault[uid] += int(count)
        state.vault = +state.vault

    def on_loot_assigned(self, state: PartyState, character: CharacterState, data: Mapping[str, Any]) -> None:
        card = self.card(str(data["card"]))
        if not card.is_loot:
            raise InvalidEvent(f"{card.name} is not a Loot card")
        if self.ruleset.name == "core-2019" and card.level is not None and card.level != state.last_played + 1:
            raise RuleViolation("loot-level", f"{card.name} is level {card.level}, not {state.last_played + 1}")
        if state.vault[card.uid] < 1:
            raise RuleViolation("physical-copy", f"{card.name} is not in the vault", card=card.uid)
        state.vault[card.uid] -= 1
        character.deck[card.uid] += 1

    def on_decks_rebuilt(self, state: PartyState, _: None, data: Mapping[str, Any]) -> None:
        """After a scenario, the party pools its cards and each character rebuilds; cards the pool
        lacks come from the vault, leftovers go back."""
        decks = {
            int(key): Counter({uid: int(n) for uid, n in deck.items() if int(n)})
            for key, deck in (data.get("decks") or {}).items()
        }
        for character_id in decks:
            self._alive(self._character(state, character_id))
        pool: Counter[str] = Counter()
        for character_id in decks:
            pool += state.characters[character_id].deck
        wanted = sum(decks.values(), Counter())
        from_vault = wanted - pool
        owners = {
            uid: {self.card(state.characters[c].card).name for c, deck in decks.items() if deck[uid]}
            for uid in from_vault
        }
        self._take_from_vault(state, from_vault, new_character=False, character=None, owners=owners)
        state.vault.update(pool - wanted)
        for character_id, deck in decks.items():
            character = state.characters[character_id]
            self._check_deck(state, character, deck)
            character.deck = deck

    def _take_from_vault(
        self,
        state: PartyState,
        cards: Counter[str],
        *,
        new_character: bool,
        character: CharacterState | None,
        owners: Mapping[str, set[str]] | None = None,
    ) -> None:
        for uid, count in cards.items():
            card = self.card(uid)
            if state.vault[uid] < count:
                raise RuleViolation(
                    "physical-copy", f"the vault has {state.vault[uid]} {card.name}, not {count}", card=uid
                )
            holders = (owners or {}).get(uid) or ({self.card(character.card).name} if character else set())
            self._check_new_card(state, card, new_character, character, owned=card.owner in holders)
            state.vault[uid] -= count

    def _check_new_card(
        self,
        state: PartyState,
        card: CardInfo,
        new_character: bool,
        character: CharacterState | None,
        owned: bool = False,
    ) -> None:
        """Cards taken from the vault: level 0 / Basic for a first deck, else the -2 rule (of the
        last played adventure in core, of the current adventure in classic); an Owner's card
        is level 0 for its owner."""
        if card.is_loot or self.ruleset.name == "aventuria":
            return
        if self.ruleset.levels == "basic" and state.adventure < self.ruleset.basic_until:
            if not card.basic:
                rule = "new-character-classic" if new_character else "basic-only"
                raise RuleViolation(rule, f"{card.name} does not have the Basic trait", card=card.uid)
            return
        reference = state.adventure if self.ruleset.levels == "basic" else state.last_played
        limit = max(0, reference - 2)
        level = 0 if card.level is None or owned else card.level
        if new_character and not (character and self._replacing_the_dead(state)):
            limit = 0
        if level > limit:
            rule = (
                "new-character" if new_character else "vault-level" if self.ruleset.levels == "level" else "basic-only"
            )
            raise RuleViolation(
                rule,
                f"{card.name} is level {level}; cards from the vault may be up to {limit}",
                card=card.uid,
                level=level,
                limit=limit,
            )

    @staticmethod
    def _replacing_the_dead(state: PartyState) -> bool:
        return any(c.status == "dead" for c in state.characters.values())

    def _check_deck(self, state: PartyState, character: CharacterState, deck: Counter[str]) -> None:
        card = self.card(character.card)
        if card.type == "hero":
            return self._check_hero_deck(character, deck)
        deck_list = card.data.get("deck_list") or {}
        if not deck_list:
            return None  # the books don't give this character's deck list: nothing to check against
        wanted = {kind: deck_size(entry, character.feats, kind) for kind, entry in deck_list.items()}
        have: Counter[str] = Counter()
        for uid, count in deck.items():
            have[self.card(uid).deck_type] += count
        rule = "deck-list" if self.ruleset.name == "core-2019" else "deck-list-classic"
        for kind in sorted(set(wanted) | set(have)):
            if have[kind] != wanted.get(kind, 0):
                raise RuleViolation(
                    rule,
                    f"{card.name}'s deck has {have[kind]} {kind}, the deck list says {wanted.get(kind, 0)}",
                    type=kind,
                    have=have[kind],
                    want=wanted.get(kind, 0),
                )
        if self.ruleset.levels == "level":
            for uid in deck:
                other = self.card(uid)
                level = 0 if other.owner == card.name or other.level is None else other.level
                if not other.is_loot and level > max(state.last_played, 0):
                    raise RuleViolation(
                        "card-level", f"{other.name} is level {level}, above adventure {state.last_played}", card=uid
                    )
        return None

    def _check_hero_deck(self, character: CharacterState, deck: Counter[str]) -> None:
        actions = sum(count for uid, count in deck.items() if self.card(uid).type == "action")
        others = [
            uid
            for uid in deck
            if self.card(uid).type not in {"action", "aventuria_card"}
            or (self.card(uid).type == "aventuria_card" and self.card(uid).subtype != "disadvantage")
        ]
        if actions != 30 or others:
            raise RuleViolation(
                "aventuria-deck",
                f"the deck has {actions} action cards"
                + (f" and {len(others)} cards that are neither action nor disadvantage" if others else ""),
            )

    # Aventuria adventure points --------------------------------------------------------------------

    def on_adventure_points_awarded(
        self, state: PartyState, character: CharacterState, data: Mapping[str, Any]
    ) -> None:
        character.adventure_points += int(data.get("count", 1))

    def on_card_upgraded(self, state: PartyState, character: CharacterState, data: Mapping[str, Any]) -> None:
        card = self.card(str(data["card"]))
        level, since = character.upgrades.get(card.uid, (card.level or 1, -1))
        target = int(data["level"])
        if target != level + 1 or target > 3:
            raise RuleViolation("aventuria-ap", f"{card.name} can go from level {level} to {level + 1} only")
        if since == state.adventure:
            raise RuleViolation("aventuria-ap", f"{card.name} was upgraded in this adventure already")
        cost = 1 if card.type == "action" else 3
        self._spend_ap(character, cost)
        character.upgrades[card.uid] = (target, state.adventure)

    def on_reward_card_bought(self, state: PartyState, character: CharacterState, data: Mapping[str, Any]) -> None:
        self._spend_ap(character, 2)
        character.deck[str(data["card"])] += 1
        if data.get("replaces"):
            character.deck[str(data["replaces"])] -= 1
            character.deck = +character.deck

    def on_recovered(self, state: PartyState, character: CharacterState, _: Mapping[str, Any]) -> None:
        self._spend_ap(character, 1)
        character.deck = Counter(
            {
                uid: n
                for uid, n in character.deck.items()
                if not (self.card(uid).type == "aventuria_card" and self.card(uid).subtype == "disadvantage")
            }
        )

    @staticmethod
    def _spend_ap(character: CharacterState, cost: int) -> None:
        if character.adventure_points < cost:
            raise RuleViolation("aventuria-ap", f"this costs {cost} AP; the hero has {character.adventure_points}")
        character.adventure_points -= cost


# Each kind of entry and the handler that applies it: a kind missing here is refused as unknown.
HANDLERS: dict[str, Callable[..., None]] = {
    "character_created": Log.on_character_created,
    "character_died": Log.on_character_died,
    "returned_from_death": Log.on_returned_from_death,
    "character_retired": Log.on_character_retired,
    "cohort_removed": Log.on_cohort_removed,
    "adventure_started": Log.on_adventure_started,
    "scenario_played": Log.on_scenario_played,
    "hero_point_awarded": Log.on_hero_point_awarded,
    "hero_point_spent": Log.on_hero_point_spent,
    "feat_gained": Log.on_feat_gained,
    "role_chosen": Log.on_role_chosen,
    "mythic_path_chosen": Log.on_mythic_path_chosen,
    "vault_changed": Log.on_vault_changed,
    "loot_assigned": Log.on_loot_assigned,
    "decks_rebuilt": Log.on_decks_rebuilt,
    "adventure_points_awarded": Log.on_adventure_points_awarded,
    "card_upgraded": Log.on_card_upgraded,
    "reward_card_bought": Log.on_reward_card_bought,
    "recovered": Log.on_recovered,
}


def active_reverts(events: Iterable[Mapping[str, Any]]) -> set[int]:
    """The seqs whose effect is undone: a revert undoes its target, a revert of a revert redoes it."""
    events = list(events)
    by_seq = {event["seq"]: event for event in events}
    undone: set[int] = set()
    for event in reversed(events):
        if event["kind"] != "revert" or event["seq"] in undone:
            continue
        target = int(event["data"]["event"])
        if target in by_seq:
            undone.add(target)
    return undone


def snapshot(state: PartyState) -> PartyState:
    return copy.deepcopy(state)
