"""A whole party as one JSON document, for backup and moving servers: export, and an import that
replays the log with every rule before anything is stored."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.contrib.auth.models import User as UserModel
from django.db import transaction

from pacg_site.errors import DomainError

from .models import Character, LogEvent, Party
from .selectors import log_for
from .services import clean_text, party_create

FORMAT = "pacg-party/1"


def _remap(kind: str, data: dict[str, Any], ids: dict[int, int]) -> dict[str, Any]:
    """Character ids inside event data, from one numbering to another."""
    data = dict(data)
    if kind == "character_created":
        data["id"] = ids[int(data["id"])]
    if "died" in data:
        data["died"] = [ids[int(c)] for c in data["died"]]
    if "decks" in data:
        data["decks"] = {str(ids[int(c)]): deck for c, deck in data["decks"].items()}
    return data


def export_party(party: Party) -> dict[str, Any]:
    characters = list(party.characters.select_related("card", "player").order_by("pk"))
    local = {character.pk: number for number, character in enumerate(characters, start=1)}
    return {
        "format": FORMAT,
        "party": {
            "name": party.name,
            "game": party.game,
            "ruleset": party.ruleset,
            "adventure_path": party.adventure_path.uid if party.adventure_path else None,
            "products": sorted(party.products.values_list("code", flat=True)),
            "notes": party.notes,
        },
        "owner": party.owner.username,
        "members": sorted(party.members.values_list("username", flat=True)),
        "characters": [
            {"id": local[c.pk], "card": c.card.uid, "player": c.player.username, "player_name": c.player_name}
            for c in characters
        ],
        "log": [
            {
                "seq": e.seq,
                "kind": e.kind,
                "character": local.get(e.character_id) if e.character_id else None,
                "data": _remap(e.kind, e.data, local),
                "author": e.author.username if e.author else None,
            }
            for e in party.log.select_related("author").order_by("seq")
        ],
    }


class PartyImportError(DomainError):
    code = "party_import_invalid"


@transaction.atomic
def import_party(*, document: Any, by: AbstractBaseUser) -> Party:
    """Create the party the document describes, owned by the importer. Members and players are
    matched by username (the importer stands in for those this server doesn't know). Nothing
    is stored unless the whole log replays under the rules."""
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise PartyImportError(f"not a party export: format must be {FORMAT!r}")
    try:
        meta = document["party"]
        party = party_create(
            owner=by,
            name=meta["name"],
            game=meta["game"],
            ruleset=meta["ruleset"],
            adventure_path=meta.get("adventure_path"),
            products=meta.get("products", []),
            notes=meta.get("notes", ""),
        )
        users = {u.username: u for u in UserModel.objects.filter(username__in=document.get("members", []))}
        party.members.add(*users.values())
        ids: dict[int, int] = {}
        for entry in document["characters"]:
            character = Character.objects.create(
                party=party,
                player=users.get(entry["player"], by),
                player_name=clean_text(entry.get("player_name", ""), "player_name"),
                card=_card(entry["card"]),
            )
            ids[int(entry["id"])] = character.pk
        events = []
        for number, entry in enumerate(document["log"], start=1):
            if entry["seq"] != number:
                raise PartyImportError(f"log entry #{number} has seq {entry['seq']}; the log must be complete")
            events.append(
                {
                    "seq": number,
                    "kind": entry["kind"],
                    "character": ids[int(entry["character"])] if entry.get("character") else None,
                    "data": _remap(entry["kind"], entry.get("data") or {}, ids),
                }
            )
    except (KeyError, TypeError, ValueError) as error:
        raise PartyImportError(f"the document is incomplete or malformed: {error!r}") from error
    log_for(party, events).replay(events)  # raises, rolling everything back, if a rule breaks
    authors = {u.username: u for u in UserModel.objects.filter(username__in={e.get("author") for e in document["log"]})}
    LogEvent.objects.bulk_create(
        [
            LogEvent(
                party=party,
                seq=event["seq"],
                kind=event["kind"],
                character_id=event["character"],
                data=event["data"],
                author=authors.get(entry.get("author"), by),
            )
            for event, entry in zip(events, document["log"], strict=True)
        ]
    )
    return party


def _card(uid: str):  # type: ignore[no-untyped-def]
    from cards.models import Card

    card = Card.objects.filter(uid=uid).first()
    if card is None:
        raise PartyImportError(f"no card has the id {uid!r} on this server")
    return card
