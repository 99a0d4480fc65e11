"""Writes of the play module: starting a session and applying an action, around the engine."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.contrib.auth.models import User as UserModel
from django.db import transaction
from rest_framework import status

from campaigns.models import Character, Party
from campaigns.selectors import party_for, party_state
from pacg_site.api import ConflictError, DomainError

from . import engine
from .engine.sandbox import CHARACTERS as SANDBOX_CHARACTERS
from .engine.sandbox import sandbox_deck, sandbox_definitions, sandbox_setup
from .models import GameSession, SessionAction, SessionPlayer
from .selectors import viewer

SCENARIOS = {
    "sandbox.the-warlock": "The Warlock (homebrew starter scenario)",
    "sandbox.the-patrol": "The Patrol (homebrew; close every location, no villain)",
}


class EngineRefusal(DomainError):
    """An engine error, in the site's error shape, with the rule it comes from."""

    def __init__(self, error: engine.EngineError):
        super().__init__(error.message, details={"rule": error.rule, **error.details}, code=error.code)
        self.status_code = {
            "not_your_decision": status.HTTP_403_FORBIDDEN,
            "stale_version": status.HTTP_409_CONFLICT,
            "game_over": status.HTTP_409_CONFLICT,
        }.get(error.code, status.HTTP_400_BAD_REQUEST)


@dataclass(frozen=True)
class Seat:
    """A character at the table: its card, its deck (card uids) and the user who plays it."""

    card: str
    deck: list[str]
    user: AbstractBaseUser


@transaction.atomic
def session_create(
    *,
    by: AbstractBaseUser,
    scenario: str,
    ruleset: str = "core-2019",
    characters: list[str] | None = None,
    players: list[str] | None = None,
    party: int | None = None,
    options: dict[str, Any] | None = None,
) -> GameSession:
    """Set up a scenario, ad hoc or from a party. Ad hoc, `characters` are card ids of the homebrew
    starter pack (default: the first two) and `players` names the user who plays each (default:
    the creator). From a party, `characters` are the party's character ids (default: all living),
    each played by its player with its deck, and the ruleset is the party's."""
    if scenario not in SCENARIOS:
        raise DomainError(
            f"no playable scenario {scenario!r}; use one of {', '.join(SCENARIOS)}", details={"scenario": scenario}
        )
    played_by = None
    if party is not None:
        played_by = party_for(by, party)
        ruleset = played_by.ruleset
        seats = _party_seats(played_by, characters)
    else:
        seats = _ad_hoc_seats(by, characters, players)
    if ruleset not in engine.RULESETS:
        raise DomainError(f"ruleset must be one of {', '.join(engine.RULESETS)}", details={"ruleset": ruleset})
    # The scenario's locations and starting places are those for this many characters.
    setup = sandbox_setup(len(seats), scenario=scenario, options=options)
    setup["characters"] = [
        {
            "id": seat.card.split(".", 1)[1],
            "player": f"player{n}",
            "character": seat.card,
            "deck": seat.deck,
            "location": start["location"],
        }
        for n, (seat, start) in enumerate(zip(seats, setup["characters"], strict=True), start=1)
    ]
    try:
        state = engine.new_game(setup, ruleset=ruleset)
    except engine.EngineError as error:
        raise EngineRefusal(error) from error
    session = GameSession.objects.create(
        created_by=by,
        party=played_by,
        scenario=scenario,
        ruleset=ruleset,
        setup=setup,
        initial_state=state,
        state=state,
        version=state["version"],
        status=state["status"],
    )
    SessionPlayer.objects.bulk_create(
        [SessionPlayer(session=session, user=seat.user, player=f"player{n}") for n, seat in enumerate(seats, start=1)]
    )
    return session


def _ad_hoc_seats(by: AbstractBaseUser, characters: list[str] | None, players: list[str] | None) -> list[Seat]:
    characters = characters or list(SANDBOX_CHARACTERS[:2])
    unknown = [c for c in characters if c not in SANDBOX_CHARACTERS]
    if unknown or not 1 <= len(characters) <= len(SANDBOX_CHARACTERS) or len(set(characters)) != len(characters):
        raise DomainError(
            f"choose 1 to {len(SANDBOX_CHARACTERS)} different characters of {', '.join(SANDBOX_CHARACTERS)}",
            details={"characters": characters},
        )
    usernames = players or [by.get_username()] * len(characters)
    if len(usernames) != len(characters):
        raise DomainError("name one player per character", details={"players": usernames})
    users = {u.username: u for u in UserModel.objects.filter(username__in=set(usernames))}
    missing = sorted(set(usernames) - set(users))
    if missing:
        raise DomainError(f"no user is called {missing[0]!r}", details={"players": missing})
    return [Seat(card, sandbox_deck(card), users[name]) for card, name in zip(characters, usernames, strict=True)]


def _party_seats(party: Party, characters: list[str] | None) -> list[Seat]:
    """The party's characters with the decks its log gives them. The engine knows only the starter
    pack's cards, so every character and deck card must come from it."""
    if party.game != "pacg":
        raise DomainError("the play module plays the Pathfinder Adventure Card Game", details={"party": party.pk})
    state = party_state(party)
    living = [pk for pk, c in state.characters.items() if c.status == "alive"]
    try:
        wanted = [int(pk) for pk in characters] if characters else living
    except ValueError:
        raise DomainError("a party's characters are given by their ids", details={"characters": characters}) from None
    strangers = [pk for pk in wanted if pk not in living]
    if strangers or not 1 <= len(wanted) <= len(SANDBOX_CHARACTERS) or len(set(wanted)) != len(wanted):
        raise DomainError(
            f"choose 1 to {len(SANDBOX_CHARACTERS)} different living characters of the party",
            details={"characters": strangers or wanted},
        )
    known = sandbox_definitions()
    seats = []
    for character in Character.objects.filter(pk__in=wanted).select_related("player").order_by("pk"):
        deck = list(state.characters[character.pk].deck.elements())
        unplayable = sorted({uid for uid in [character.card.uid, *deck] if uid not in known})
        if unplayable:
            raise DomainError(
                f"{character} cannot be played: the engine has no rules for {', '.join(unplayable)} "
                "(it plays the homebrew starter pack's cards)",
                details={"character": character.pk, "cards": unplayable},
            )
        seats.append(Seat(character.card.uid, deck, character.player))
    if len({seat.card for seat in seats}) != len(seats):
        raise DomainError("a character card can be at the table only once", details={"characters": wanted})
    return seats


@transaction.atomic
def act(
    *,
    session: GameSession,
    by: AbstractBaseUser,
    action: dict[str, Any],
    version: int | None,
    idempotency_key: str | None,
) -> tuple[dict[str, Any], int]:
    """Answer the pending decision as one of `by`'s players. A retried idempotency key gets the
    stored answer; an action based on another version than the session's is a 409."""
    session = GameSession.objects.select_for_update().get(pk=session.pk)
    if idempotency_key:
        done = session.actions.filter(idempotency_key=idempotency_key).first()
        if done is not None:
            return done.response, status.HTTP_201_CREATED
    if version is None:
        raise DomainError("send the version the action is based on", details={"version": None})
    if version != session.version:
        raise ConflictError(
            f"the action was based on version {version}; the game is at version {session.version}",
            code="stale_version",
            details={"version": session.version},
        )
    player = viewer(session, by)
    try:
        state, events = engine.apply(session.state, player, action)
    except engine.EngineError as error:
        raise EngineRefusal(error) from error
    number = session.actions.count() + 1
    label = describe(session.state, action)
    response = {
        "number": number,
        "label": label,
        "version": state["version"],
        "status": state["status"],
        "events": engine.public_events(events),
        "pending": engine.view(state, player)["pending"],
    }
    SessionAction.objects.create(
        session=session,
        number=number,
        user=by,
        player=player,
        action=action,
        label=label,
        events=events,
        version=version,
        idempotency_key=idempotency_key or None,
        response=response,
    )
    session.state, session.version, session.status = state, state["version"], state["status"]
    session.save(update_fields=["state", "version", "status", "updated_at"])
    return response, status.HTTP_201_CREATED


def describe(state: dict[str, Any], action: dict[str, Any]) -> str:
    """An answer in words for the log: the label of the option it is, or the cards it selects."""
    decision = state.get("pending") or {}
    if action.get("type") == "select":
        cards = [c for c in action.get("cards", []) if c in state["cards"]]
        names = ", ".join(state["defs"][state["cards"][c]]["name"] for c in cards)
        return f"{decision.get('prompt', 'Chose')}: {names}"[:300]
    label = next((o["label"] for o in decision.get("options", []) if o["action"] == action), action.get("type", ""))
    return str(label)[:300]
