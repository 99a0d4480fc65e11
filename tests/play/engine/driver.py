"""A small driver for scripted games: answer decisions by describing the option wanted,
inject the faces each answer rolls, and keep the event log for replays."""

from __future__ import annotations

import json
from typing import Any

from play.engine import apply, pending
from play.engine.game import CHARACTER_ZONES

from .sources import ArrangedSource


class Driver:
    def __init__(self, state: dict[str, Any], source: ArrangedSource | None = None) -> None:
        self.initial = state
        self.state = state
        self.source = source or ArrangedSource()
        self.log: list[dict[str, Any]] = []
        self.last_events: list[dict[str, Any]] = []

    # -- reading ---------------------------------------------------------------------------
    @property
    def decision(self) -> dict[str, Any]:
        found = pending(self.state)
        assert found is not None, f"the game is over: {self.state['outcome']}"
        return found

    def card_id(self, card: str) -> str:
        return str(self.state["cards"][card])

    def names(self, cards: list[str]) -> list[str]:
        return [self.card_id(card) for card in cards]

    def zone(self, character: str, zone: str) -> list[str]:
        return self.names(self.state["characters"][character][zone])

    def instance(self, character: str, card_id: str, zone: str = "hand") -> str:
        for card in self.state["characters"][character][zone]:
            if self.card_id(card) == card_id:
                return str(card)
        raise AssertionError(f"{character} has no {card_id} in {zone}: {self.zone(character, zone)}")

    def location(self, location: str) -> list[str]:
        return self.names(self.state["locations"][location]["cards"])

    def events(self, kind: str) -> list[dict[str, Any]]:
        return [event for event in self.last_events if event["type"] == kind]

    def option(self, **wanted: Any) -> dict[str, Any]:
        """The one option whose action has these items; `pay`/`card` may name a card id."""
        found = []
        for entry in self.decision["options"]:
            action = entry["action"]
            if all(self._matches(action.get(key), value) for key, value in wanted.items()):
                found.append(entry)
        assert len(found) == 1, (
            f"{len(found)} options match {wanted}: {[e['action'] for e in self.decision['options']]}"
        )
        return found[0]

    def _matches(self, actual: Any, wanted: Any) -> bool:
        if actual == wanted:
            return True
        return isinstance(actual, str) and actual in self.state["cards"] and self.card_id(actual) == wanted

    # -- acting ----------------------------------------------------------------------------
    def do(self, player: str, action: dict[str, Any], *faces: int) -> list[dict[str, Any]]:
        self.source.add_faces(*faces)
        self.state, self.last_events = apply(self.state, player, action, dice=self.source)
        json.dumps(self.state)
        assert not self.source.faces, f"faces left unrolled: {list(self.source.faces)}"
        self.log.extend(self.last_events)
        return self.last_events

    def choose(self, player: str, *faces: int, **wanted: Any) -> list[dict[str, Any]]:
        return self.do(player, self.option(**wanted)["action"], *faces)


def all_cards(state: dict[str, Any]) -> list[str]:
    """Every place a card can be; used to check each card is in exactly one."""
    places: list[str] = []
    for pile in state["vault"].values():
        places += pile
    for location in state["locations"].values():
        places += location["cards"]
        if location["card"]:
            places.append(location["card"])
    for sheet in state["characters"].values():
        for zone in CHARACTER_ZONES:
            places += sheet[zone]
    for key in ("hourglass", "hourglass_discards", "removed", "encountered", "set_aside", "gone"):
        places += state[key]
    table = state["table"]
    places += table["wildcards"] + table["dangers"] + table["set_aside"]
    return places
