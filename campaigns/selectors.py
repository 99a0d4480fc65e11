"""Reads of the campaign manager: parties a user may see, the state derived from a log, sheets."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.core.cache import cache
from django.db.models import Q, QuerySet

from cards.models import Card
from pacg_site.errors import NotFoundError

from .log import Log
from .models import Character, LogEvent, Party
from .state import CardInfo, PartyState

_UID = re.compile(r"^[a-z0-9-]+\.[a-z0-9-]+$")


def parties_for(user: AbstractBaseUser | AnonymousUser) -> QuerySet[Party]:
    if not user.is_authenticated:
        return Party.objects.none()
    return Party.objects.filter(Q(owner=user) | Q(members=user)).distinct()


def party_for(user: AbstractBaseUser | AnonymousUser, party_id: int) -> Party:
    """The party if the user belongs to it; a non-member learns nothing, not even that it exists."""
    party = parties_for(user).filter(pk=party_id).select_related("owner", "adventure_path").first()
    if party is None:
        raise NotFoundError(f"no party {party_id}")
    return party


def character_for(user: AbstractBaseUser | AnonymousUser, character_id: int) -> Character:
    character = (
        Character.objects.filter(pk=character_id, party__in=parties_for(user))
        .select_related("party", "card", "card__card_set", "player")
        .first()
    )
    if character is None:
        raise NotFoundError(f"no character {character_id}")
    return character


def card_info(card: Card) -> CardInfo:
    return CardInfo(
        uid=card.uid,
        name=card.name,
        type=card.type,
        subtype=card.subtype,
        level=card.level,
        traits=tuple(card.traits or ()),
        owner=card.owner,
        data=card.data,
    )


def referenced_uids(values: Iterable[Any]) -> set[str]:
    """Every card id an event mentions, as a value or a key, at any depth."""
    found: set[str] = set()
    stack = list(values)
    while stack:
        value = stack.pop()
        if isinstance(value, str):
            if _UID.match(value):
                found.add(value)
        elif isinstance(value, Mapping):
            stack += list(value.keys()) + list(value.values())
        elif isinstance(value, list | tuple):
            stack += list(value)
    return found


class CardBook(dict[str, CardInfo]):
    """The cards a log names, fetched in one query; any other card is fetched when a rule asks."""

    def __missing__(self, uid: str) -> CardInfo:
        card = Card.objects.filter(uid=uid).first()
        if card is None:
            raise KeyError(uid)
        self[uid] = card_info(card)
        return self[uid]

    def __contains__(self, uid: object) -> bool:
        if dict.__contains__(self, uid):
            return True
        try:
            self[str(uid)]
        except KeyError:
            return False
        return True


def cards_by_uid(uids: Iterable[str]) -> CardBook:
    return CardBook({card.uid: card_info(card) for card in Card.objects.filter(uid__in=set(uids))})


def events_of(party: Party) -> list[dict[str, Any]]:
    return [
        {"seq": seq, "kind": kind, "character": character_id, "data": data}
        for seq, kind, character_id, data in LogEvent.objects.filter(party=party)
        .order_by("seq")
        .values_list("seq", "kind", "character_id", "data")
    ]


def log_for(party: Party, events: list[dict[str, Any]], extra: Iterable[Mapping[str, Any]] = ()) -> Log:
    uids = referenced_uids([event["data"] for event in [*events, *extra]])
    return Log(cards_by_uid(uids), party.ruleset)


def state_key(party: Party, last: LogEvent | None) -> str:
    """Names the log's last entry exactly (ids can come back after a rollback; times don't)."""
    if last is None:
        return f"campaigns:party:{party.pk}:{party.created_at.timestamp()}:0"
    return f"campaigns:party:{party.pk}:{party.created_at.timestamp()}:{last.seq}:{last.created_at.timestamp()}"


def party_state(party: Party) -> PartyState:
    """The party's current state, derived from its log; cached for the log's last entry (an
    append stores the state it produced, so only a cold cache replays the whole log)."""
    last = LogEvent.objects.filter(party=party).order_by("-seq").only("seq", "created_at").first()
    key = state_key(party, last)
    state = cache.get(key)
    if state is None:
        events = events_of(party)
        state = log_for(party, events).replay(events)
        cache.set(key, state, timeout=24 * 3600)
    return state
