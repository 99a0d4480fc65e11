"""Writes of the play module: starting a session and applying an action, around the engine."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.contrib.auth.models import User as UserModel
from django.db import transaction
from rest_framework import status

from campaigns.models import Character, LogEvent, Party
from campaigns.selectors import party_for, party_state
from campaigns.services import append_event
from pacg_site.api import ConflictError, DomainError

from . import engine
from .definitions import FACTS, definitions_for, entered_facts, missing_facts, with_feats
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
    """A character at the table: its card, its deck (card uids), the user who plays it, and
    the facts a player entered for it where the card data lacks them."""

    card: str
    deck: list[str]
    user: AbstractBaseUser
    facts: dict[str, Any] = field(default_factory=dict)
    character: int | None = None  # the party's character id


@dataclass(frozen=True)
class Table:
    """Who sits at the table, the cards the engine needs, and the vault location decks and the
    hourglass are built from."""

    seats: list[Seat]
    cards: dict[str, Any]
    vault: dict[str, int] | None = None


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
    facts: dict[str, Any] | None = None,
) -> GameSession:
    """Set up a scenario, ad hoc or from a party. Ad hoc, `characters` are card ids of the homebrew
    starter pack (default: the first two) and `players` names the user who plays each (default:
    the creator). From a party, `characters` are the party's character ids (default: all living),
    each played by its player with its deck and feats, the location decks and the hourglass come
    from the party's vault, and the ruleset is the party's; `facts` gives, per character id, what
    the card data lacks (skills, hand size, favored card type)."""
    if scenario not in SCENARIOS:
        raise DomainError(
            f"no playable scenario {scenario!r}; use one of {', '.join(SCENARIOS)}", details={"scenario": scenario}
        )
    played_by = None
    if party is not None:
        played_by = party_for(by, party)
        ruleset = played_by.ruleset
        table = _party_table(played_by, characters, facts or {})
    else:
        table = Table(_ad_hoc_seats(by, characters, players), sandbox_definitions())
    if ruleset not in engine.RULESETS:
        raise DomainError(f"ruleset must be one of {', '.join(engine.RULESETS)}", details={"ruleset": ruleset})
    seats = table.seats
    # The scenario's locations and starting places are those for this many characters.
    setup = sandbox_setup(len(seats), scenario=scenario, options=options)
    setup["cards"] = table.cards
    if table.vault is not None:
        setup["vault"] = table.vault
    setup["party_characters"] = {seat.card.split(".", 1)[1]: seat.character for seat in seats if seat.character}
    setup["characters"] = [
        {
            "id": seat.card.split(".", 1)[1],
            "player": f"player{n}",
            "character": seat.card,
            "deck": seat.deck,
            "location": start["location"],
            **seat.facts,
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


def _party_table(party: Party, characters: list[str] | None, facts: dict[str, Any]) -> Table:
    """The party's characters with the decks and feats its log gives them, every card's
    definition from the card database (powers not encoded are declared in play), and its vault."""
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
    chosen = list(Character.objects.filter(pk__in=wanted).select_related("player", "card").order_by("pk"))
    if len({character.card_id for character in chosen}) != len(chosen):
        raise DomainError("a character card can be at the table only once", details={"characters": wanted})
    vault = dict(state.vault)
    decks = {character.pk: list(state.characters[character.pk].deck.elements()) for character in chosen}
    cards = dict(sandbox_definitions())
    database = definitions_for({c.card.uid for c in chosen} | set(vault) | {uid for d in decks.values() for uid in d})
    cards.update({uid: d for uid, d in database.items() if uid not in cards})
    seats, missing, errors = [], {}, []
    remembered = remembered_facts(party)
    for character in chosen:
        name = character.card.name
        given = facts.get(str(character.pk)) or facts.get(name) or remembered.get(character.card.uid, {})
        try:
            entered = entered_facts(name, given)
        except ValueError as error:
            errors.append(str(error))
            continue
        definition = with_feats({**cards[character.card.uid], **entered}, state.characters[character.pk].feats)
        cards[character.card.uid] = definition
        lacking = missing_facts(definition)
        if lacking:
            missing[str(character.pk)] = lacking
        seats.append(Seat(character.card.uid, decks[character.pk], character.player, entered, character.pk))
    if errors:
        raise DomainError(errors[0], details={"facts": errors})
    if missing:
        raise DomainError(
            _missing_message(chosen, missing),
            code="facts_needed",
            details={"missing": missing, "characters": {str(c.pk): c.card.name for c in chosen}},
        )
    return Table(seats, cards, vault)


def remembered_facts(party: Party) -> dict[str, dict[str, Any]]:
    """The facts entered for the party's characters in its latest session, by character card:
    entered once, they are not asked for again."""
    last = GameSession.objects.filter(party=party).order_by("-created_at").only("setup").first()
    if last is None:
        return {}
    return {
        entry["character"]: {fact: entry[fact] for fact in FACTS if fact in entry}
        for entry in last.setup.get("characters", [])
    }


def _missing_message(chosen: list[Character], missing: dict[str, list[str]]) -> str:
    words = {"skills": "skills", "hand_size": "hand size", "favored": "favored card type"}
    parts = [
        f"{c.card.name}'s {' and '.join(words[f] for f in missing[str(c.pk)])}" for c in chosen if str(c.pk) in missing
    ]
    return (
        f"the card database does not give {'; '.join(parts)}: enter them as printed on the character cards "
        "(facts: {character id: {skills, hand_size, favored}}; the lobby asks for them)"
    )


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
    player = viewer(session, by, action)
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


@transaction.atomic
def session_finish(*, session: GameSession, by: AbstractBaseUser) -> LogEvent:
    """Write a finished party session's result to the party's log as a scenario_played entry,
    checked by the campaign rules like any other entry: mode, won or lost, who died, and the
    cards acquired and banished during play."""
    session = GameSession.objects.select_for_update().get(pk=session.pk)
    if session.party_id is None:
        raise DomainError("only a session started from a party has a campaign log to write to")
    if session.status == "playing":
        raise ConflictError(
            "the scenario is still being played: finish it on the table first (win, or lose)", code="still_playing"
        )
    if session.logged_seq is not None:
        raise ConflictError(
            f"the result is already in the party's log, as entry #{session.logged_seq}", code="already_logged"
        )
    party = Party.objects.get(pk=session.party_id)
    state = session.state
    ids = session.setup.get("party_characters", {})
    acquired: dict[str, list[str]] = {}
    banished: list[str] = []
    for action in session.actions.order_by("number"):
        for event in action.events:
            if event["type"] == "acquired" and event["character"] in ids:
                acquired.setdefault(str(ids[event["character"]]), []).append(event["card"])
            elif event["type"] == "card_played" and event.get("action") == "banish":
                banished.append(event["card"])
    data = {
        "scenario": session.scenario,
        "adventure": state["adventure"],
        "mode": state["options"]["mode"],
        "won": state["status"] == "won",
        "died": [ids[name] for name, sheet in state["characters"].items() if not sheet["alive"] and name in ids],
        "acquired": acquired,
        "banished": banished,
        "session": str(session.pk),
    }
    event, _ = append_event(party=party, by=by, kind="scenario_played", data=data)
    assert event is not None
    session.logged_seq = event.seq
    session.save(update_fields=["logged_seq", "updated_at"])
    return event
