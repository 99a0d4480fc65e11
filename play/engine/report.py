"""The event log as a game report: one sentence per event a player at the table would mention,
with names ("Amiri explores the Village", "Amiri's check to defeat the Ghoul: 11 against 13,
failed"), never ids. Events that only bookkeep (random draws, actions) are left out."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .game import State

Event = dict[str, Any]


class _Names:
    def __init__(self, state: State, players: dict[str, str]):
        self.players = players
        self.defs = state["defs"]
        self.sheets = state["characters"]
        self.cards = state["cards"]

    def card(self, card: str | None) -> str:
        if not card:
            return "a card"
        card_id = self.cards.get(card, card)
        return str(self.defs.get(card_id, {}).get("name", card_id))

    def who(self, character: str | None) -> str:
        sheet = self.sheets.get(character or "")
        if sheet is None:
            return str(character)
        return str(self.defs.get(sheet["card"], {}).get("name", character))

    def cards_list(self, cards: list[str]) -> str:
        return ", ".join(self.card(card) for card in cards) or "nothing"


PURPOSES = {"defeat": "defeat", "acquire": "acquire", "close": "close", "guard": "guard", "recovery": "recover"}


def _check(n: _Names, e: Event) -> str:
    against = f" the {n.card(e['against'])}" if e.get("against") else ""
    verdict = "succeeds" if e["success"] else "fails"
    purpose = PURPOSES.get(e["purpose"], e["purpose"])
    return f"{n.who(e['character'])}'s check to {purpose}{against}: {e['result']} against {e['difficulty']}, {verdict}"


def _declared(n: _Names, e: Event) -> str:
    what = n.card(e["card"]) if e.get("card") else "a power"
    by = n.players.get(e["player"], e["player"])
    return f"{n.who(e['character'])} plays {what} with a power declared by {by}: {e['text']}"


SENTENCES: dict[str, Callable[[_Names, Event], str]] = {
    "turn_started": lambda n, e: f"Turn {e['turn']}: {n.who(e['character'])}",
    "hour_advanced": lambda n, e: f"The hour is {n.card(e['hour'])} ({e['left']} left)",
    "gave": lambda n, e: f"{n.who(e['character'])} gives {n.card(e['card'])} to {n.who(e['to'])}",
    "moved": lambda n, e: f"{n.who(e['character'])} moves to {n.card(e['location'])}",
    "explored": lambda n, e: f"{n.who(e['character'])} explores {n.card(e['location'])}",
    "encountered": lambda n, e: f"{n.who(e['character'])} encounters {n.card(e['card'])}",
    "examined": lambda n, e: f"{n.who(e['character'])} examines {n.cards_list(e.get('cards', []))}",
    "summoned": lambda n, e: f"{n.who(e['character'])} summons {n.cards_list(e['cards'])}",
    "summon_refused": lambda n, e: f"No summoning: {e['reason']}",
    "check_entered": lambda n, e: f"{n.who(e['character'])} enters {n.card(e['card'])}'s check: {e['check']}",
    "power_declared": _declared,
    "card_played": lambda n, e: f"{n.who(e['character'])} {e['action']}s {n.card(e['card'])}",
    "rolled": lambda n, e: f"{n.who(e.get('character'))} rolls {e.get('dice', '')}: {e.get('faces')}",
    "rerolled": lambda n, e: f"Reroll: {e['before']} becomes {e['face']}",
    "check_resolved": _check,
    "defeated": lambda n, e: f"{n.who(e['character'])} defeats {n.card(e['card'])}",
    "undefeated": lambda n, e: f"{n.card(e['card'])} is undefeated",
    "evaded": lambda n, e: f"{n.who(e.get('character'))} evades {n.card(e.get('card'))}",
    "acquired": lambda n, e: f"{n.who(e['character'])} acquires {n.card(e['card'])}",
    "not_acquired": lambda n, e: f"{n.who(e['character'])} does not acquire {n.card(e['card'])}",
    "declined": lambda n, e: f"{n.who(e['character'])} lets {n.card(e['card'])} go",
    "damage_dealt": lambda n, e: f"{n.who(e['character'])} is dealt {e['amount']} {e['damage_type']} damage",
    "damage_reduced": lambda n, e: f"Damage reduced by {e['by']} ({e['left']} left)",
    "damage_suffered": lambda n, e: f"{n.who(e['character'])} discards {n.cards_list(e.get('discarded', []))}",
    "healed": lambda n, e: f"{n.who(e['character'])} heals {n.cards_list(e['cards'])}",
    "drew": lambda n, e: f"{n.who(e['character'])} draws {e['count']}",
    "scourge_suffered": lambda n, e: f"{n.who(e['character'])} suffers {n.card(e['scourge'])}",
    "location_closed": lambda n, e: f"{n.card(e.get('location'))} is closed",
    "villain_escaped": lambda n, e: f"{n.card(e['card'])} escapes",
    "villain_cornered": lambda n, e: f"{n.card(e.get('card'))} is cornered",
    "died": lambda n, e: f"{n.who(e['character'])} dies",
    "scenario_ended": lambda n, e: f"The scenario is {e['result']}: {e['reason']}",
}


def report(state: State, events: list[Event], players: dict[str, str] | None = None) -> list[str]:
    """The sentences for these events, in order (state gives the names; `players` the people
    behind the engine's player ids)."""
    names = _Names(state, players or {})
    lines = []
    for event in events:
        sentence = SENTENCES.get(event["type"])
        if sentence is None:
            continue
        try:
            lines.append(sentence(names, event))
        except KeyError:
            continue  # an event of an older shape: leave it out rather than fail the page
    return lines
