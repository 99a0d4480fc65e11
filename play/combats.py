"""Aventuria combats as sessions: set up ad hoc with the homebrew heroes or from an Aventuria
party, and their result written to the party's campaign log."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User as UserModel

from campaigns.models import Character, LogEvent, Party
from campaigns.selectors import party_for, party_state
from campaigns.services import append_event
from cards.models import Card
from pacg_site.errors import DomainError

from .engine import aventuria
from .engine.aventuria.starter import CARDS, HEROES, starter_setup
from .engine.errors import EngineError
from .models import GameSession
from .players import players_for, store_session
from .refusals import EngineRefusal

# The rulebook gives no hero's or opponent's full values, so the playable combat is ours.
COMBATS = {"aventuria.kobold-warren": "The Kobold Warren (homebrew Aventuria combat)"}
# What a party's hero needs that the card database lacks (the book prints no hero's values).
HERO_FACTS = ("close_combat", "ranged_combat", "magic", "dodge", "basic_attack")
# Adventure points for each hero when the homebrew combat is won (ours: the campaign books say
# what each of their adventures is worth).
ADVENTURE_POINTS_FOR_A_WIN = 1


def combat_create(
    *,
    by: UserModel,
    game: str,
    scenario: str,
    characters: list[str] | None,
    players: list[str] | None,
    party: int | None,
    facts: dict[str, Any] | None = None,
) -> GameSession:
    """An Aventuria combat: ad hoc, the homebrew heroes (default: the first two), each played by a
    named user (default: the creator); from an Aventuria party, its living heroes (or those named
    by id), each played by their player, with the values `facts` gives per hero."""
    if game != "aventuria" or scenario not in COMBATS:
        raise DomainError(
            f"an Aventuria session plays {', '.join(COMBATS.values())}; a PACG scenario is played with game pacg",
            details={"game": game, "scenario": scenario},
        )
    played_by = party_for(by, party) if party is not None else None
    if played_by is not None:
        setup, users = _party_setup(played_by, characters, facts or {})
    else:
        heroes = characters or [hero["id"] for hero in HEROES[:2]]
        users = players_for(by, heroes, [hero["id"] for hero in HEROES], players, what="heroes")
        setup = starter_setup(heroes=heroes)
    for number, hero in enumerate(setup["heroes"], start=1):
        hero["player"] = f"player{number}"
    try:
        state = aventuria.new_combat(setup)
    except EngineError as error:
        raise EngineRefusal(error) from error
    return store_session(
        by=by, party=played_by, scenario=scenario, ruleset="aventuria", setup=setup, state=state, users=users
    )


def _party_setup(
    party: Party, characters: list[str] | None, facts: dict[str, Any]
) -> tuple[dict[str, Any], list[UserModel]]:
    """The homebrew combat with the party's heroes: their decks from the log, their values as
    entered (kept for the party's next combats). A card whose values the database lacks is
    played as endurance only."""
    if party.game != "aventuria":
        raise DomainError(
            f"{party.name} plays the Pathfinder Adventure Card Game: start a PACG scenario with it",
            details={"party": party.pk},
        )
    state = party_state(party)
    living = [pk for pk, c in state.characters.items() if c.status == "alive"]
    try:
        wanted = [int(pk) for pk in characters] if characters else living
    except ValueError:
        raise DomainError("a party's heroes are given by their ids", details={"characters": characters}) from None
    if not 1 <= len(wanted) <= 4 or any(pk not in living for pk in wanted) or len(set(wanted)) != len(wanted):
        raise DomainError("choose 1 to 4 different living heroes of the party", details={"characters": wanted})
    chosen = list(Character.objects.filter(pk__in=wanted).select_related("player", "card").order_by("pk"))
    remembered = _remembered(party)
    heroes, missing = [], {}
    for character in chosen:
        given = facts.get(str(character.pk)) or remembered.get(str(character.pk), {})
        lacking = [fact for fact in HERO_FACTS if fact not in given]
        if lacking:
            missing[str(character.pk)] = lacking
            continue
        heroes.append(_party_hero(character, given, list(state.characters[character.pk].deck.elements())))
    if missing:
        names = {str(character.pk): character.card.name for character in chosen}
        named = "; ".join(f"{names[pk]}: {', '.join(lacking)}" for pk, lacking in missing.items())
        raise DomainError(
            f"the card database lacks these heroes' values, as printed on their hero cards ({named}): send them "
            'as facts, per hero id, e.g. {"close_combat": 12, "ranged_combat": 8, "magic": null, "dodge": 10, '
            '"basic_attack": "1D6"}',
            code="facts_needed",
            details={"missing": missing, "characters": names},
        )
    setup = starter_setup(heroes=[])
    setup["heroes"] = heroes
    names = dict(Card.objects.filter(uid__in={c for h in heroes for c in h["deck"]}).values_list("uid", "name"))
    setup["cards"] = {**CARDS, **{uid: {"name": name, "cost": 0, "kind": "unencoded"} for uid, name in names.items()}}
    setup["party_characters"] = {hero["id"]: character.pk for hero, character in zip(heroes, chosen, strict=True)}
    return setup, [character.player for character in chosen]


def _party_hero(character: Character, given: dict[str, Any], deck: list[str]) -> dict[str, Any]:
    """A party's hero as the engine plays it: the values given, its basic equipment a close
    combat attack."""
    attributes = {}
    for fact in HERO_FACTS[:4]:
        value = _number(given[fact])
        if value is not None and (not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= 20):
            raise DomainError(
                f"{character.card.name}'s {fact.replace('_', ' ')} must be a whole number from 0 to 20, or null "
                'for a value printed "—"',
                details={"facts": {str(character.pk): given}},
            )
        attributes[fact] = value
    damage = str(given["basic_attack"])
    try:
        aventuria.parse_damage(damage)
    except ValueError as error:
        raise DomainError(f"{character.card.name}'s basic attack: {error} (write its damage: 1D6+1)") from error
    return {
        "id": f"hero-{character.pk}",
        "name": character.card.name,
        "attributes": attributes,
        "basic_attack": {"name": "Basic equipment", "type": "close_combat", "damage": damage},
        "deck": deck,
        "facts": {**attributes, "basic_attack": damage},
    }


def _number(value: Any) -> Any:
    """A value as the lobby's form sends it ("12", or "—" for a value printed so) or as the API does."""
    if isinstance(value, str):
        value = value.strip()
        if value in ("", "—", "-"):
            return None
        return int(value) if value.isdigit() else value
    return value


def _remembered(party: Party) -> dict[str, dict[str, Any]]:
    """The values entered for the party's heroes in its latest combat, by character id."""
    last = GameSession.objects.filter(party=party, ruleset="aventuria").order_by("-created_at").only("setup").first()
    if last is None:
        return {}
    ids = last.setup.get("party_characters", {})
    return {str(ids[hero["id"]]): hero["facts"] for hero in last.setup.get("heroes", []) if hero["id"] in ids}


def combat_finish(*, session: GameSession, by: UserModel) -> LogEvent:
    """The combat's result in the party's log: a scenario_played entry, and the adventure points
    each hero earns when it is won."""
    party = session.party
    assert party is not None  # session_finish refuses a session without one
    won = session.state["status"] == "won"
    entry, _ = append_event(
        party=party,
        by=by,
        kind="scenario_played",
        data={"scenario": session.scenario, "won": won, "mode": "normal", "session": str(session.pk)},
    )
    assert entry is not None
    if won:
        for character in Character.objects.filter(pk__in=session.setup["party_characters"].values()).order_by("pk"):
            append_event(
                party=party,
                by=by,
                kind="adventure_points_awarded",
                character=character,
                data={"count": ADVENTURE_POINTS_FOR_A_WIN},
            )
    session.logged_seq = entry.seq
    session.save(update_fields=["logged_seq", "updated_at"])
    return entry
