"""What one player may see: their own hands, every face-up card, counts of face-down stacks,
and cards the party has examined. Never deck order, face-down cards, or the seed."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .check import Check
from .flow import powers_by_card
from .game import Game, State

SECRET_EVENT_FIELDS = ("order", "index")


def _card(game: Game, card: str) -> dict[str, str]:
    return {"id": card, "card": game.effective_id(card), "name": game.name(card), "type": game.card_type(card)}


def _faceup(game: Game, cards: list[str]) -> list[dict[str, str]]:
    return [_card(game, card) for card in cards]


def _character(game: Game, name: str, sheet: dict[str, Any], mine: bool) -> dict[str, Any]:
    return {
        "name": name,
        "card_name": game.character_name(name),
        "character": sheet["card"],
        "player": sheet["player"],
        "location": sheet["location"],
        "alive": sheet["alive"],
        "hand_size": sheet["hand_size"],
        "hero_points": sheet["hero_points"],
        "skills": sheet["skills"],
        "scourges": sheet["scourges"],
        "deck": {"count": len(sheet["deck"])},
        "hand": _faceup(game, sheet["hand"]) if mine else {"count": len(sheet["hand"])},
        "discards": _faceup(game, sheet["discards"]),
        "buried": _faceup(game, sheet["buried"]),
        "recovery": _faceup(game, sheet["recovery"]),
        "displayed": _faceup(game, sheet["displayed"]),
    }


def _location(game: Game, name: str) -> dict[str, Any]:
    place = game.location(name)
    revealed = set(game.state["revealed"])
    known = [
        {"position": index, "card": game.effective_id(card), "name": game.name(card)}
        for index, card in enumerate(place["cards"])
        if card in revealed
    ]
    return {
        "id": name,
        "name": game.location_definition(name)["name"],
        "in_play": place["in_play"],
        "closed": place["closed"],
        "count": len(place["cards"]),
        "known": known,
        "characters": [other for other in game.living() if game.location_of(other) == name],
    }


def _pending(game: Game, players: set[str]) -> dict[str, Any] | None:
    decision = game.state["pending"]
    if decision is None:
        return None
    if not players & set(decision["players"]):
        return {"kind": decision["kind"], "prompt": decision["prompt"], "waiting_for": decision["players"]}
    shown = dict(decision)
    # Other players' options name the cards in their hands: each player sees only their own.
    shown["options"] = [entry for entry in decision["options"] if entry["player"] in players]
    shown["by_card"] = powers_by_card(shown["options"])
    return shown


def view(state: State, player: str | Sequence[str]) -> dict[str, Any]:
    """What one player sees (or one person who plays several of the engine's players)."""
    game = Game(state)
    players = {player} if isinstance(player, str) else set(player)
    characters = {
        name: _character(game, name, sheet, sheet["player"] in players) for name, sheet in state["characters"].items()
    }
    check = game.innermost("check")
    encounters = [
        {"character": step["character"], "card": game.effective_id(step["card"]), "name": game.name(step["card"])}
        for step in state["stack"]
        if step["kind"] == "encounter" and step["card"] in state["encountered"]
    ]
    hour = state["hourglass_discards"][0] if state["hourglass_discards"] else None
    return {
        "version": state["version"],
        "ruleset": state["ruleset"],
        "status": state["status"],
        "outcome": state["outcome"],
        "scenario": state["scenario"],
        "adventure": state["adventure"],
        "bane_adventure": state["bane_adventure"],
        "options": state["options"],
        "turn": {"number": state["table"]["turn_number"], "character": state["table"]["active"]},
        "order": state["table"]["order"],
        "you": [name for name, sheet in state["characters"].items() if sheet["player"] in players],
        "characters": characters,
        "locations": [_location(game, name) for name in state["location_order"]],
        "hourglass": {"count": len(state["hourglass"]), "timer": game.ruleset.timer},
        "hour": _card(game, hour) if hour else None,
        "hourglass_discards": _faceup(game, state["hourglass_discards"]),
        "dangers": _faceup(game, state["table"]["dangers"]),
        "wildcards": _faceup(game, state["table"]["wildcards"]),
        "encounters": encounters,
        "summoned": _faceup(game, state["set_aside"]),
        "check": Check.summary(game, check) if check is not None and check.get("skill") is not None else None,
        "effects": state["effects"],
        "pending": _pending(game, players),
    }


def public_events(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The log without what players may not know (the order of shuffled stacks, which card was
    drawn at random from the vault)."""
    return [{key: value for key, value in event.items() if key not in SECRET_EVENT_FIELDS} for event in events]
