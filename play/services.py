"""Writes of the play module: starting a session and applying an action, around the engine."""

from __future__ import annotations

from dataclasses import dataclass, field
from http import HTTPStatus
from typing import Any

from django.contrib.auth.models import User as UserModel
from django.db import transaction

from campaigns.models import Character, LogEvent, Party
from campaigns.selectors import party_for, party_state
from campaigns.services import append_event
from cards.models import Card
from pacg_site.errors import ConflictError, DomainError

from . import engine
from .combats import COMBATS, combat_create, combat_finish
from .definitions import (
    FACTS,
    ScenarioData,
    definitions_for,
    entered_facts,
    missing_facts,
    scenario_data,
    with_feats,
)
from .engine import aventuria
from .engine.cards import BOON_TYPES
from .engine.errors import SetupError
from .engine.sandbox import CHARACTERS as SANDBOX_CHARACTERS
from .engine.sandbox import sandbox_deck, sandbox_definitions, sandbox_setup
from .engine.setup import location_list
from .games import engine_for
from .models import GameSession, SessionAction, Simulation
from .players import players_for, store_session
from .refusals import EngineRefusal
from .selectors import viewer

SCENARIOS = {
    "sandbox.the-warlock": "The Warlock (homebrew starter scenario)",
    "sandbox.the-patrol": "The Patrol (homebrew; close every location, no villain)",
}

# Core rulebook, Play It Your Way: "Normal mode uses medium-sized locations (typically 9 cards plus
# any story banes) ... small locations (typically 3 fewer cards) ... large locations (typically 3
# more cards)": the number of cards players choose for a location card without a deck list.
CHOSEN_DECK_SIZES = {"small": 6, "medium": 9, "large": 12}
# Core rulebook, Setting Up leaves the count to each scenario's list ("use all of the locations
# listed up to the number of characters you have"); its Example of Play sets out 4 locations for
# 3 characters. Where the data lacks the list, players choose one location per character plus one.
EXTRA_LOCATIONS = 1
LOCATION_DECK_TYPES = (*BOON_TYPES, "monster", "barrier")


def scenario_choices() -> dict[str, str]:
    """The scenarios a party may play, id -> name: the homebrew starters, then the scenario
    cards of the card database."""
    cards = Card.objects.filter(type="scenario").exclude(uid__in=SCENARIOS).select_related("card_set")
    return SCENARIOS | {
        card.uid: f"{card.name} ({card.card_set.name})" for card in cards.order_by("card_set__code", "name")
    }


@dataclass(frozen=True)
class Seat:
    """A character at the table: its card, its deck (card uids), the user who plays it, and
    the facts a player entered for it where the card data lacks them."""

    card: str
    deck: list[str]
    user: UserModel
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
    by: UserModel,
    scenario: str,
    game: str = "pacg",
    ruleset: str = "core-2019",
    characters: list[str] | None = None,
    players: list[str] | None = None,
    party: int | None = None,
    options: dict[str, Any] | None = None,
    facts: dict[str, Any] | None = None,
    locations: list[str] | None = None,
    location_decks: dict[str, list[str]] | None = None,
) -> GameSession:
    """Set up a scenario, ad hoc or from a party. Ad hoc, `characters` are card ids of the homebrew
    starter pack (default: the first two) and `players` names the user who plays each (default:
    the creator). From a party, `characters` are the party's character ids (default: all living),
    each played by its player with its deck and feats, the location decks and the hourglass come
    from the party's vault, and the ruleset is the party's; `facts` gives, per character id, what
    the card data lacks (skills, hand size, favored card type).

    A party may also play a scenario card of the database: its locations for that many characters,
    its villains and henchmen; where the data lacks them, `locations` are the location cards the
    players set out and `location_decks` ({location uid: [vault card uids]}) the cards they chose
    for each location without a deck list. Refusals say what to choose from."""
    if game == "aventuria" or scenario in COMBATS:
        return combat_create(
            by=by, game=game, scenario=scenario, characters=characters, players=players, party=party, facts=facts
        )
    played_by = party_for(by, party) if party is not None else None
    setup, ruleset, table = build_setup(
        by=by,
        scenario=scenario,
        ruleset=ruleset,
        party=played_by,
        characters=characters,
        players=players,
        options=options,
        facts=facts,
        locations=locations,
        location_decks=location_decks,
    )
    seats = table.seats
    try:
        state = engine.new_game(setup, ruleset=ruleset)
    except engine.EngineError as error:
        raise EngineRefusal(error) from error
    users = [seat.user for seat in seats]
    return store_session(
        by=by, party=played_by, scenario=scenario, ruleset=ruleset, setup=setup, state=state, users=users
    )


def build_setup(
    *,
    by: UserModel,
    scenario: str,
    ruleset: str,
    party: Party | None,
    characters: list[str] | None = None,
    players: list[str] | None = None,
    options: dict[str, Any] | None = None,
    facts: dict[str, Any] | None = None,
    locations: list[str] | None = None,
    location_decks: dict[str, list[str]] | None = None,
) -> tuple[dict[str, Any], str, Table]:
    """The engine setup of a PACG scenario, its ruleset (a party's own) and who sits at the table:
    what a session starts from, and what a simulation plays many times."""
    if scenario not in SCENARIOS:
        if party is None:
            raise DomainError(
                f"a session without a party plays a starter scenario "
                f"({', '.join(name.split(' (')[0] for name in SCENARIOS.values())}); "
                "a scenario of the card database is played by a party",
                details={"scenario": scenario},
            )
        if not Card.objects.filter(uid=scenario, type="scenario").exists():
            raise DomainError(
                f"no scenario {scenario!r} in the card database; the lobby lists the playable ones",
                details={"scenario": scenario},
            )
    if party is not None:
        ruleset = party.ruleset
        table = _party_table(party, characters, facts or {})
    else:
        table = Table(_ad_hoc_seats(by, characters, players), sandbox_definitions())
    if ruleset not in engine.RULESETS:
        raise DomainError(f"ruleset must be one of {', '.join(engine.RULESETS)}", details={"ruleset": ruleset})
    seats = table.seats
    if scenario in SCENARIOS:
        # The scenario's locations and starting places are those for this many characters.
        setup = sandbox_setup(len(seats), scenario=scenario, options=options)
    else:
        data = scenario_data(scenario)
        assert data is not None and table.vault is not None
        setup = _database_setup(data, table, len(seats), options or {}, locations, location_decks)
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
    return setup, ruleset, table


def _ad_hoc_seats(by: UserModel, characters: list[str] | None, players: list[str] | None) -> list[Seat]:
    characters = characters or list(SANDBOX_CHARACTERS[:2])
    users = players_for(by, characters, list(SANDBOX_CHARACTERS), players)
    return [Seat(card, sandbox_deck(card), user) for card, user in zip(characters, users, strict=True)]


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
    if not wanted:
        raise DomainError(
            f"{party.name} has no living character: add one on the party's page first", details={"characters": []}
        )
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


def _database_setup(
    data: ScenarioData,
    table: Table,
    characters: int,
    options: dict[str, Any],
    locations: list[str] | None,
    location_decks: dict[str, list[str]] | None,
) -> dict[str, Any]:
    """The engine setup of a database scenario: its story banes, the locations it lists or the
    players chose, and the cards chosen for each location without a deck list."""
    if data.unknown:
        raise DomainError(
            f"the card database does not give {data.name}'s {' or '.join(data.unknown)} (the storybook lists them), "
            "so it cannot be set up yet; choose another scenario",
            code="scenario_incomplete",
            details={"scenario": data.name, "unknown": data.unknown},
        )
    if data.unfound:
        raise DomainError(
            f"{data.name} lists {', '.join(data.unfound)}, which the card database does not hold; "
            "choose another scenario",
            code="scenario_incomplete",
            details={"scenario": data.name, "missing_cards": data.unfound},
        )
    scenario = data.definition
    try:
        delta = int(options.get("location_count_delta", 0))
    except (TypeError, ValueError):
        raise DomainError("location_count_delta is -1, 0 or 1", details={"options": options}) from None
    if scenario.get("locations"):
        if locations:
            raise DomainError(
                f"{data.name} lists its own locations; do not choose them", details={"locations": locations}
            )
        try:
            chosen = location_list(scenario, characters, delta)
        except SetupError as error:
            raise EngineRefusal(error) from error
    else:
        chosen = _chosen_locations(data, characters, delta, locations)
    henchmen = scenario.get("henchmen") or []
    banes = {*scenario.get("villains", []), *scenario.get("dangers", [])}
    banes |= {entry[key] for entry in henchmen for key in ("card", "proxy") if entry.get(key)}
    table.cards.update(definitions_for({*chosen, *banes} - set(table.cards)))
    table.cards[data.uid] = scenario
    decks = _chosen_decks(data, chosen, table, options, location_decks)
    setup: dict[str, Any] = {
        "scenario": data.uid,
        "options": dict(options),
        "location_decks": decks,
        # Each character starts at a location in turn (the players may choose; Setting Up).
        "characters": [{"location": chosen[n % len(chosen)]} for n in range(characters)],
    }
    if not scenario.get("locations"):
        setup["locations"] = chosen
    return setup


def _chosen_locations(data: ScenarioData, characters: int, delta: int, given: list[str] | None) -> list[str]:
    count = characters + EXTRA_LOCATIONS + (delta if delta in (-1, 1) else 0)
    offered = Card.objects.filter(type="location", card_set_id=data.card_set)
    if not offered.exists():
        offered = Card.objects.filter(type="location", language=data.language)
    available = [{"uid": uid, "name": name} for uid, name in offered.order_by("name").values_list("uid", "name")]
    details = {"scenario": data.name, "count": count, "characters": characters, "available": available}
    if not given:
        raise DomainError(
            f"the card database does not list {data.name}'s locations: choose {count} location cards for "
            f"{characters} characters (locations: [location uids]; one per character plus one, as in the Core "
            f"rulebook's Example of Play); available: {', '.join(a['name'] for a in available)}",
            code="locations_needed",
            details=details,
        )
    names = dict(Card.objects.filter(type="location", uid__in=given).values_list("uid", "name"))
    unknown = [uid for uid in given if uid not in names]
    if unknown:
        raise DomainError(
            f"{unknown[0]!r} is not a location card of the database; choose from "
            f"{', '.join(a['name'] for a in available)}",
            code="locations_needed",
            details=details | {"unknown": unknown},
        )
    twice = sorted({names[uid] for uid in given if given.count(uid) > 1})
    if twice:
        raise DomainError(f"{twice[0]} is chosen twice; each location is set out once", details=details)
    if len(given) != count:
        raise DomainError(
            f"{data.name} with {characters} characters uses {count} locations; {len(given)} chosen",
            code="locations_needed",
            details=details,
        )
    return list(given)


def _deck_size(options: dict[str, Any], location: str) -> str:
    sizes = options.get("location_size", "medium")
    size = sizes.get(location, "medium") if isinstance(sizes, dict) else sizes
    return str(size) if size in CHOSEN_DECK_SIZES else "medium"


def _chosen_decks(
    data: ScenarioData,
    locations: list[str],
    table: Table,
    options: dict[str, Any],
    given: dict[str, list[str]] | None,
) -> dict[str, list[str]]:
    """The vault cards the players chose for each location without a deck list, checked: each
    such location gets its number of cards, every card is in the vault, no card more often than
    the vault holds it."""
    cards, vault = table.cards, table.vault or {}
    name = {uid: str(cards[uid]["name"]) if uid in cards else uid for uid in {*locations, *vault}}
    needing = [loc for loc in locations if not cards.get(loc, {}).get("deck_list")]
    given = dict(given or {})
    for location in given:
        if location not in locations:
            raise DomainError(
                f"cards are chosen for {name.get(location, location)!s}, which is not one of this session's "
                f"locations ({', '.join(name[loc] for loc in locations)})",
                details={"location": location},
            )
        if location not in needing:
            raise DomainError(
                f"{name[location]} is built from its deck list; do not choose its cards", details={"location": location}
            )
    if not needing:
        return {}
    by_type: dict[str, list[dict[str, Any]]] = {}
    for uid, copies in sorted(vault.items(), key=lambda item: name[item[0]]):
        kind = cards.get(uid, {}).get("type")
        if kind in LOCATION_DECK_TYPES and copies > 0:
            by_type.setdefault(kind, []).append({"uid": uid, "name": name[uid], "copies": copies})
    wanted = {
        loc: {"name": name[loc], "size": _deck_size(options, loc), "cards": CHOSEN_DECK_SIZES[_deck_size(options, loc)]}
        for loc in needing
    }
    details = {
        "scenario": data.name,
        "locations": wanted,
        "vault": by_type,
        "rule": 'Core rulebook, Play It Your Way: "Normal mode uses medium-sized locations (typically 9 cards '
        'plus any story banes)"; small 3 fewer, large 3 more',
    }
    missing = [loc for loc in needing if not given.get(loc)]
    if missing:
        raise DomainError(
            f"{', '.join(name[loc] for loc in missing)} {'has' if len(missing) == 1 else 'have'} no deck list in the "
            "card database: choose the cards from the party's vault "
            f"({', '.join(str(wanted[loc]['name']) + ': ' + str(wanted[loc]['cards']) for loc in missing)}; "
            "location_decks: {location uid: [card uids]}); the story banes are shuffled in, and the hourglass then "
            "takes its blessings from what is left",
            code="location_decks_needed",
            details=details | {"missing": missing},
        )
    used: dict[str, list[str]] = {}
    for location in needing:
        chosen = given[location]
        for uid in chosen:
            if uid not in vault:
                known = Card.objects.filter(uid=uid).values_list("name", flat=True).first()
                raise DomainError(
                    f"{name[location]}: {known or repr(uid)} is not in the party's vault",
                    details=details | {"location": location, "card": uid},
                )
            if cards.get(uid, {}).get("type") not in LOCATION_DECK_TYPES:
                raise DomainError(
                    f"{name[location]}: {name[uid]} is a {cards.get(uid, {}).get('type')}; a location holds boons, "
                    "monsters and barriers",
                    details=details | {"location": location, "card": uid},
                )
            used.setdefault(uid, []).append(location)
        if len(chosen) != wanted[location]["cards"]:
            raise DomainError(
                f"{name[location]} takes {wanted[location]['cards']} cards ({wanted[location]['size']}); "
                f"{len(chosen)} chosen",
                details=details | {"location": location},
            )
    for uid, where in used.items():
        if len(where) > vault[uid]:
            places = ", ".join(dict.fromkeys(name[loc] for loc in where))
            held = "1 copy" if vault[uid] == 1 else f"{vault[uid]} copies"
            raise DomainError(
                f"{name[uid]} is chosen {len(where)} times ({places}) but the party's vault holds {held}",
                details=details | {"card": uid, "chosen_at": where},
            )
    return {location: list(given[location]) for location in needing}


def remembered_facts(party: Party) -> dict[str, dict[str, Any]]:
    """The facts entered for the party's characters in its latest session or simulation, by
    character card: entered once, they are not asked for again."""
    latest = [
        model.objects.filter(party=party).order_by("-created_at").only("setup", "created_at").first()
        for model in (GameSession, Simulation)
    ]
    last = max((made for made in latest if made is not None), key=lambda made: made.created_at, default=None)
    if last is None:
        return {}
    return {
        entry["character"]: {fact: entry[fact] for fact in FACTS if fact in entry}
        for entry in last.setup.get("characters", [])
    }


FACT_WORDS = {"skills": "skills", "hand_size": "hand size", "favored": "favored card type"}


def lacking_in_words(name: str, missing: list[str]) -> str:
    """What the card database lacks of one character, in words."""
    return f"{name}'s {' and '.join(FACT_WORDS[fact] for fact in missing)}"


def _missing_message(chosen: list[Character], missing: dict[str, list[str]]) -> str:
    parts = [lacking_in_words(c.card.name, missing[str(c.pk)]) for c in chosen if str(c.pk) in missing]
    return (
        f"the card database does not give {'; '.join(parts)}: enter them as printed on the character cards "
        "(facts: {character id: {skills, hand_size, favored}}; the lobby asks for them)"
    )


@transaction.atomic
def act(
    *,
    session: GameSession,
    by: UserModel,
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
            return done.response, HTTPStatus.CREATED
    if version is None:
        raise DomainError("send the version the action is based on", details={"version": None})
    if version != session.version:
        raise ConflictError(
            f"the action was based on version {version}; the game is at version {session.version}",
            code="stale_version",
            details={"version": session.version},
        )
    player = viewer(session, by, action)
    rules = engine_for(session.state)
    try:
        state, events = rules.apply(session.state, player, action)
    except engine.EngineError as error:
        raise EngineRefusal(error) from error
    number = session.actions.count() + 1
    label = describe(session.state, action)
    response = {
        "number": number,
        "label": label,
        "version": state["version"],
        "status": state["status"],
        "events": rules.public_events(events),
        "pending": rules.view(state, player)["pending"],
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
    return response, HTTPStatus.CREATED


def describe(state: dict[str, Any], action: dict[str, Any]) -> str:
    """An answer in words for the log: the label of the option it is, or the cards it selects."""
    if state.get("game") == "aventuria":
        return str(aventuria.describe(state, action))
    decision = state.get("pending") or {}
    if action.get("type") == "select":
        cards = [c for c in action.get("cards", []) if c in state["cards"]]
        names = ", ".join(state["defs"][state["cards"][c]]["name"] for c in cards)
        return f"{decision.get('prompt', 'Chose')}: {names}"[:300]
    label = next((o["label"] for o in decision.get("options", []) if o["action"] == action), action.get("type", ""))
    return str(label)[:300]


@transaction.atomic
def session_finish(*, session: GameSession, by: UserModel) -> LogEvent:
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
    if session.state.get("game") == "aventuria":
        return combat_finish(session=session, by=by)
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
    entry, _ = append_event(party=party, by=by, kind="scenario_played", data=data)
    assert entry is not None
    session.logged_seq = entry.seq
    session.save(update_fields=["logged_seq", "updated_at"])
    return entry
