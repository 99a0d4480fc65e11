"""Writes of the campaign manager. Every change to a party's state is an event appended to its
log, after the log with that event replays without breaking a rule."""

from __future__ import annotations

import copy
from collections import Counter
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.contrib.auth.models import User as UserModel
from django.core.cache import cache
from django.db import transaction
from rest_framework import status

from cards.models import Card, CardSet
from pacg_site.api import DomainError, NotFoundError

from .log import CHARACTER_KINDS, PARTY_KINDS, InvalidEvent, PartyState
from .models import Character, LogEvent, Party
from .selectors import events_of, log_for, party_state, state_key

PARTY_EVENTS = PARTY_KINDS - {"character_created"}
CHARACTER_EVENTS = CHARACTER_KINDS
KINDS = PARTY_KINDS | CHARACTER_KINDS


class Forbidden(DomainError):
    code = "forbidden"
    status_code = status.HTTP_403_FORBIDDEN


def _owner_only(party: Party, user: AbstractBaseUser, what: str) -> None:
    if party.owner_id != user.pk:
        raise Forbidden(f"only the party's owner may {what}")


@transaction.atomic
def party_create(
    *,
    owner: AbstractBaseUser,
    name: str,
    game: str,
    ruleset: str,
    adventure_path: str | None = None,
    products: list[str] | None = None,
    notes: str = "",
) -> Party:
    if not name.strip():
        raise DomainError("a party needs a name", details={"name": name})
    if game not in {"pacg", "aventuria"}:
        raise DomainError("game must be pacg or aventuria", details={"game": game})
    allowed = {"pacg": {"core-2019", "classic"}, "aventuria": {"aventuria"}}[game]
    if ruleset not in allowed:
        raise DomainError(f"a {game} party plays by {' or '.join(sorted(allowed))}", details={"ruleset": ruleset})
    path = None
    if adventure_path:
        path = Card.objects.filter(uid=adventure_path, type__in=["adventure_path", "aventuria_story"]).first()
        if path is None:
            raise DomainError(
                f"no adventure path has the id {adventure_path!r}", details={"adventure_path": adventure_path}
            )
    sets = list(CardSet.objects.filter(code__in=products or []))
    missing = set(products or []) - {s.code for s in sets}
    if missing:
        raise DomainError(f"no product has the code {sorted(missing)[0]!r}", details={"products": sorted(missing)})
    party = Party.objects.create(
        owner=owner, name=name.strip(), game=game, ruleset=ruleset, adventure_path=path, notes=notes
    )
    party.products.set(sets)
    party.members.add(owner)
    return party


@transaction.atomic
def member_invite(*, party: Party, by: AbstractBaseUser, username: str) -> AbstractBaseUser:
    _owner_only(party, by, "invite members")
    user = UserModel.objects.filter(username=username).first()
    if user is None:
        raise DomainError(f"no user is called {username!r}", details={"username": username})
    party.members.add(user)
    return user


@transaction.atomic
def party_update(*, party: Party, by: AbstractBaseUser, name: str | None = None, notes: str | None = None) -> Party:
    _owner_only(party, by, "change the party")
    if name is not None:
        if not name.strip():
            raise DomainError("a party needs a name")
        party.name = name.strip()
    if notes is not None:
        party.notes = notes
    party.save()
    return party


def _locked(party: Party) -> Party:
    """Appends to one party's log happen one at a time."""
    return Party.objects.select_for_update().get(pk=party.pk)


@transaction.atomic
def append_event(
    *,
    party: Party,
    by: AbstractBaseUser,
    kind: str,
    data: dict[str, Any],
    character: Character | None = None,
    dry_run: bool = False,
) -> tuple[LogEvent | None, PartyState]:
    """Check the event against the rules by replaying the log with it; store it unless dry_run."""
    if kind not in KINDS:
        raise InvalidEvent(
            f"unknown event kind {kind!r}; use one of {', '.join(sorted(KINDS))}", details={"kind": kind}
        )
    if not isinstance(data, dict):
        raise InvalidEvent("data must be a JSON object")
    party = _locked(party)
    if kind == "decks_rebuilt" and _plays_all(party, by, (data.get("decks") or {}).keys()):
        pass  # a player rebuilds their own characters' decks
    elif kind in PARTY_EVENTS - {"revert"}:
        _owner_only(party, by, f"log a {kind.replace('_', ' ')}")
    elif kind in CHARACTER_EVENTS:
        if character is None:
            raise InvalidEvent(f"a {kind} event names a character")
        if character.party_id != party.pk:
            raise NotFoundError(f"no character {character.pk} in this party")
        if by.pk not in {character.player_id, party.owner_id}:
            raise Forbidden("only the character's player or the party's owner may change this character")
    return _append(party, by, kind, data, character, dry_run)


def _plays_all(party: Party, user: AbstractBaseUser, character_ids: Any) -> bool:
    ids = {int(c) for c in character_ids if str(c).isdigit()}
    return bool(ids) and party.characters.filter(pk__in=ids, player=user).count() == len(ids)


def _append(
    party: Party, by: AbstractBaseUser, kind: str, data: dict[str, Any], character: Character | None, dry_run: bool
) -> tuple[LogEvent | None, PartyState]:
    """Apply the event to the current state (a revert changes the past, so the log replays)."""
    last = LogEvent.objects.filter(party=party).order_by("-seq").first()
    seq = (last.seq if last else 0) + 1
    event = {"seq": seq, "kind": kind, "character": character.pk if character else None, "data": data}
    if kind == "revert":
        events = events_of(party)
        state = log_for(party, events, [event]).replay([*events, event])
    else:
        state = copy.deepcopy(party_state(party))
        log_for(party, [], [event]).apply(state, event)
    if dry_run:
        return None, state
    stored = LogEvent.objects.create(party=party, seq=seq, kind=kind, character=character, data=data, author=by)
    cache.set(state_key(party, stored), state, timeout=24 * 3600)
    return stored, state


@transaction.atomic
def revert_event(*, party: Party, by: AbstractBaseUser, seq: int) -> tuple[LogEvent, PartyState]:
    """Undo an entry by logging its revert; the log replays without it, or the revert is refused."""
    target = LogEvent.objects.filter(party=party, seq=seq).first()
    if target is None:
        raise NotFoundError(f"no log entry #{seq} in this party")
    if target.kind == "character_created":
        raise InvalidEvent("a character's creation is not reverted; retire the character instead")
    if by.pk not in {party.owner_id, target.author_id}:
        raise Forbidden("only the party's owner or the entry's author may revert it")
    event, state = _append(_locked(party), by, "revert", {"event": seq}, None, dry_run=False)
    assert event is not None
    return event, state


@transaction.atomic
def character_create(
    *,
    party: Party,
    by: AbstractBaseUser,
    card: str,
    player_name: str = "",
    deck: dict[str, int] | None = None,
    quick_start: bool = False,
) -> Character:
    """A new character of the party, played by `by`; with quick_start, its deck is the
    rulebook's suggested deck completed from the vault with cards a first deck may hold."""
    party = _locked(party)
    character_card = Card.objects.filter(uid=card, type__in=["character", "hero"], card_set__game=party.game).first()
    if character_card is None:
        raise DomainError(f"no {party.game} character has the id {card!r}", details={"card": card})
    if quick_start:
        deck = suggested_deck(party, character_card)
    character = Character.objects.create(party=party, player=by, player_name=player_name, card=character_card)
    _append(
        party,
        by,
        "character_created",
        {"id": character.pk, "card": character_card.uid, "deck": deck or {}},
        character,
        dry_run=False,
    )
    return character


def first_deck_card(party: Party, card: Card) -> bool:
    """A card a new character's deck may hold: level 0 (core), the Basic trait (classic)."""
    if party.ruleset == "classic":
        return "Basic" in (card.traits or []) or "Básico" in (card.traits or [])
    return (card.level or 0) == 0


def suggested_deck(party: Party, character: Card) -> dict[str, int]:
    """The named suggestions of the Deck Suggestions, then the vault's lowest-level cards of each
    type the deck list still needs."""
    state = party_state(party)
    deck_list = character.data.get("deck_list") or {}
    suggested = character.data.get("suggested_deck") or {}
    available = Counter(state.vault)
    cards = {c.uid: c for c in Card.objects.filter(uid__in=list(available))}
    by_name = {}
    for uid in available:
        by_name.setdefault(cards[uid].name, uid)
    deck: Counter[str] = Counter()
    for kind, entry in deck_list.items():
        need = entry["count"]
        for name in suggested.get(kind, []):
            uid = by_name.get(name)
            if uid and available[uid] and need:
                deck[uid] += 1
                available[uid] -= 1
                need -= 1
        fillers = sorted(
            (
                uid
                for uid in available
                if available[uid] and cards[uid].type == kind and first_deck_card(party, cards[uid])
            ),
            key=lambda uid: cards[uid].name,
        )
        for uid in fillers:
            while need and available[uid]:
                deck[uid] += 1
                available[uid] -= 1
                need -= 1
        if need:
            raise DomainError(
                f"the vault lacks {need} {kind}(s) for {character.name}'s deck", details={"type": kind, "missing": need}
            )
    return dict(deck)
