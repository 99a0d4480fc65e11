"""Writes of the campaign manager. Every change to a party's state is an event appended to its
log, after the log with that event replays without breaking a rule."""

from __future__ import annotations

import copy
import math
from collections import Counter
from collections.abc import Iterable
from itertools import combinations
from typing import Any, cast

from django.contrib.auth.models import AbstractBaseUser
from django.contrib.auth.models import User as UserModel
from django.core.cache import cache
from django.db import transaction
from django.db.models import Q

from cards.models import Card, CardSet
from cards.vocabulary import BOON_TYPES
from pacg_site.errors import DomainError, Forbidden, NotFoundError

from .log import CHARACTER_KINDS, PARTY_KINDS, InvalidEvent
from .models import Character, LogEvent, Party
from .selectors import events_of, log_for, party_state, state_key
from .state import PartyState

PARTY_EVENTS = PARTY_KINDS - {"character_created"}
CHARACTER_EVENTS = CHARACTER_KINDS
KINDS = PARTY_KINDS | CHARACTER_KINDS
# Entries that their own operation makes, with the checks it owns (who may revert what, the
# character's card and player).
OWN_ACTION = {
    "revert": "revert the entry instead (the Revert button, or POST .../log/{seq}/revert/)",
    "character_created": "add the character instead (the party page, or POST .../characters/)",
}
LOGGABLE = KINDS - set(OWN_ACTION)

# The card types a product puts in the vault: what decks are built from, and the boons and banes
# the locations are dealt from (core "Build the Locations").
VAULT_TYPES = {"pacg": (*BOON_TYPES, "monster", "barrier"), "aventuria": ("action", "aventuria_card")}
# "You can build up to four decks at once with just the Core Set" (core, "Deck Suggestions").
FULL_PARTY = 4
# "draw 30 random blessings from the vault" (core "Create the Hourglass"; wotr "Blessings Deck").
HOURGLASS = 30
MAX_COPIES = 99


def clean_text(value: str, field: str, *, lines: bool = False) -> str:
    """Text as stored: trimmed, and without control characters (newlines and tabs are allowed
    where the text may have several lines), which would garble pages, exports and logs."""
    allowed = "\n\t" if lines else ""
    bad = next((c for c in value if (ord(c) < 32 or 127 <= ord(c) < 160) and c not in allowed), None)
    if bad is not None:
        raise DomainError(
            f"{field} contains the control character U+{ord(bad):04X} at position {value.index(bad) + 1}; remove it",
            details={"field": field, "position": value.index(bad) + 1},
        )
    return value.strip()


def _user(user: AbstractBaseUser) -> UserModel:
    """The user as the model the foreign keys name: the services take what DRF types request.user
    as, and AUTH_USER_MODEL is Django's User (pacg_site.settings leaves it unset)."""
    return cast(UserModel, user)


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
    vault_copies: dict[str, int] | None = None,
    notes: str = "",
) -> Party:
    """A new party; with products, its vault is built from their cards (see products_add)."""
    name, notes = clean_text(name, "name"), clean_text(notes, "notes", lines=True)
    if not name:
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
    sets = _products_of(game, products or [])
    party = Party.objects.create(
        owner=_user(owner), name=name, game=game, ruleset=ruleset, adventure_path=path, notes=notes
    )
    party.members.add(_user(owner))
    if sets:
        products_add(party=party, by=owner, products=[s.code for s in sets], vault_copies=vault_copies)
    elif vault_copies:
        raise DomainError(
            "vault_copies needs products: choose the products whose cards build the vault",
            details={"vault_copies": vault_copies},
        )
    return party


def product_choices(game: str) -> list[CardSet]:
    """The products a party of this game can own: its card sets that hold cards for the vault."""
    return list(CardSet.objects.filter(game=game, cards__type__in=VAULT_TYPES[game]).distinct())


def _products_of(game: str, codes: Iterable[str]) -> list[CardSet]:
    codes = list(dict.fromkeys(codes))
    sets = {s.code: s for s in CardSet.objects.filter(code__in=codes)}
    choices = ", ".join(f"{s.name} ({s.code})" for s in product_choices(game)) or "none yet"
    for code in codes:
        if code not in sets:
            raise DomainError(
                f"no product has the code {code!r}; the {game} products are: {choices}", details={"products": [code]}
            )
        if sets[code].game != game:
            raise DomainError(
                f"{sets[code].name} is a {sets[code].game} product, and this is a {game} party; "
                f"choose among: {choices}",
                details={"products": [code]},
            )
    return [sets[code] for code in codes]


def products_in_vault(party: Party) -> list[str]:
    """The codes of the products whose cards a live (not reverted) log entry put in the vault."""
    state = party_state(party)
    codes: list[str] = []
    for seq, data in party.log.filter(kind="vault_changed").order_by("seq").values_list("seq", "data"):
        if seq not in state.reverted:
            codes += [code for code in data.get("products") or [] if code not in codes]
    return codes


def default_vault_copies(party: Party, products: Iterable[CardSet]) -> dict[str, int]:
    """Copies of each card, per type, that the rulebooks never state: enough that any full party
    of the products' characters quick-starts its suggested decks (every named card for each
    character that names it, and the rest of each deck list) and, for blessings, that 30 stay
    in the vault for the hourglass."""
    sets = {s.pk for s in products} | set(party.products.values_list("pk", flat=True))
    types = VAULT_TYPES[party.game]
    eligible: Counter[str] = Counter()
    for card in Card.objects.filter(card_set__in=sets, type__in=types):
        if first_deck_card(party, card):
            eligible[card.type] += 1
    characters = list(Card.objects.filter(card_set__in=sets, type="character"))
    copies = {}
    for kind in types:
        demand, fillers, named = 0, 0, 0
        for group in combinations(characters, min(FULL_PARTY, len(characters))):
            counts = sum(((c.data.get("deck_list") or {}).get(kind) or {}).get("count", 0) for c in group)
            names = Counter(name for c in group for name in (c.data.get("suggested_deck") or {}).get(kind, []))
            demand = max(demand, counts)
            fillers = max(fillers, counts - sum(names.values()))
            named = max(named, max(names.values(), default=0))
        if kind == "blessing" and party.game == "pacg":
            demand += HOURGLASS
            fillers += HOURGLASS
        if not eligible[kind]:
            copies[kind] = 1
            continue
        # A named card is taken by the characters naming it, and by other decks' fillers at most
        # once per round of one copy of each card.
        copies[kind] = max(1, math.ceil(demand / eligible[kind]), named + math.ceil(fillers / eligible[kind]))
    return copies


def _copies(party: Party, sets: list[CardSet], given: dict[str, int] | None) -> dict[str, int]:
    copies = default_vault_copies(party, sets)
    unknown = sorted(set(given or {}) - set(copies))
    if unknown:
        raise DomainError(
            f"vault_copies has no card type {', '.join(map(repr, unknown))}; use {', '.join(copies)}",
            details={"vault_copies": unknown},
        )
    for kind, count in (given or {}).items():
        if not isinstance(count, int) or isinstance(count, bool) or not 0 <= count <= MAX_COPIES:
            raise DomainError(
                f"copies of each {kind} must be a whole number from 0 to {MAX_COPIES}",
                details={"vault_copies": {kind: count}},
            )
        copies[kind] = count
    return copies


@transaction.atomic
def products_add(
    *, party: Party, by: AbstractBaseUser, products: list[str], vault_copies: dict[str, int] | None = None
) -> LogEvent:
    """The party owns these products: their cards go into the vault as one `vault_changed`
    entry (shown in the log, revertible). How many copies of a card a product holds is not in
    the rulebooks, so each card gets its type's stated copies (vault_copies, else the defaults)."""
    _owner_only(party, by, "add products to the vault")
    # Locked before the vault is read: a product added twice at once would fill the vault twice.
    party = _locked(party)
    sets = _products_of(party.game, products)
    if not sets:
        raise DomainError("choose at least one product", details={"products": products})
    present = set(products_in_vault(party))
    for card_set in sets:
        if card_set.code in present:
            raise DomainError(
                f"the {card_set.name}'s cards are already in the vault; to change how many copies it holds, "
                "correct the vault on the party page (Vault), or revert the log entry that added them",
                details={"products": [card_set.code]},
            )
    copies = _copies(party, sets, vault_copies)
    add = {
        uid: copies[kind]
        for uid, kind in Card.objects.filter(card_set__in=sets, type__in=list(copies))
        .order_by("uid")
        .values_list("uid", "type")
        if copies[kind]
    }
    if not add:
        names = ", ".join(s.name for s in sets)
        raise DomainError(
            f"{names} holds no card the vault takes ({', '.join(copies)}), or every type's copies are 0",
            details={"products": [s.code for s in sets]},
        )
    party.products.add(*sets)
    event, _ = append_event(
        party=party,
        by=by,
        kind="vault_changed",
        data={"add": add, "products": [s.code for s in sets], "copies": copies},
    )
    assert event is not None
    return event


@transaction.atomic
def vault_set_copies(*, party: Party, by: AbstractBaseUser, card: str, count: int) -> LogEvent | None:
    """Correct the vault: it holds `count` copies of the card (a `vault_changed` entry)."""
    found = Card.objects.filter(uid=card).first()
    if found is None:
        raise DomainError(f"no card has the id {card!r}; choose a card of the party's products", details={"card": card})
    if count < 0 or count > MAX_COPIES:
        raise DomainError(f"the vault holds 0 to {MAX_COPIES} copies of {found.name}", details={"count": count})
    # Locked before the copies held are read: two corrections at once would both add the difference.
    held = party_state(_locked(party)).vault[card]
    if count == held:
        return None
    data = {"add": {card: count - held}} if count > held else {"remove": {card: held - count}}
    event, _ = append_event(party=party, by=by, kind="vault_changed", data=data)
    return event


@transaction.atomic
def member_invite(*, party: Party, by: AbstractBaseUser, username: str) -> AbstractBaseUser:
    _owner_only(party, by, "invite members")
    user = UserModel.objects.filter(username=username).first()
    if user is None:
        raise DomainError(f"no user is called {username!r}", details={"username": username})
    party.members.add(user)
    return user


@transaction.atomic
def party_update(
    *,
    party: Party,
    by: AbstractBaseUser,
    name: str | None = None,
    notes: str | None = None,
    products: list[str] | None = None,
    vault_copies: dict[str, int] | None = None,
) -> Party:
    """Rename, change the notes, or own more products (their cards go into the vault). A product
    already in the vault stays: its cards leave it by reverting or correcting the vault."""
    _owner_only(party, by, "change the party")
    # The row as it is now, not as the caller read it: saving a stale copy would undo a change
    # made in between (a rename and a notes edit at once).
    party = _locked(party)
    if name is not None:
        name = clean_text(name, "name")
        if not name:
            raise DomainError("a party needs a name", details={"name": name})
        party.name = name
    if notes is not None:
        party.notes = clean_text(notes, "notes", lines=True)
    party.save()
    if products is not None:
        present = products_in_vault(party)
        dropped = [code for code in present if code not in products]
        if dropped:
            names = ", ".join(CardSet.objects.filter(code__in=dropped).values_list("name", flat=True))
            raise DomainError(
                f"products lists what the party owns, and {names} would leave it; a product's cards leave the "
                "vault by reverting the log entry that added them (party page, Log)",
                details={"products": dropped},
            )
        new = [code for code in dict.fromkeys(products) if code not in present]
        if new:
            products_add(party=party, by=by, products=new, vault_copies=vault_copies)
        elif vault_copies:
            raise DomainError(
                "vault_copies applies to the products being added; to change copies already in the vault, "
                "correct the vault on the party page (Vault)",
                details={"vault_copies": vault_copies},
            )
    elif vault_copies:
        raise DomainError(
            "vault_copies needs products: list the products to add", details={"vault_copies": vault_copies}
        )
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
    if kind in OWN_ACTION:
        raise InvalidEvent(f"a {kind} entry is not logged directly: {OWN_ACTION[kind]}", details={"kind": kind})
    if kind not in LOGGABLE:
        raise InvalidEvent(
            f"unknown event kind {kind!r}; use one of {', '.join(sorted(LOGGABLE))}", details={"kind": kind}
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
    return bool(ids) and party.characters.filter(pk__in=ids, player=_user(user)).count() == len(ids)


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
        try:
            log_for(party, [], [event]).apply(state, event)
        except KeyError as error:  # the rules read the entry's data; what they found missing
            raise InvalidEvent(
                f"a {kind} entry's data needs {error.args[0]!r}", details={"data": {str(error.args[0]): "required"}}
            ) from error
        except (TypeError, ValueError, AttributeError) as error:
            raise InvalidEvent(f"a {kind} entry's data is malformed: {error}", details={"kind": kind}) from error
    if dry_run:
        return None, state
    stored = LogEvent.objects.create(party=party, seq=seq, kind=kind, character=character, data=data, author=_user(by))
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
    player_name = clean_text(player_name, "player_name")
    character = Character.objects.create(party=party, player=_user(by), player_name=player_name, card=character_card)
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
    """The named suggestions of the Deck Suggestions, then the vault's cards a first deck may hold
    of each type the deck list still needs."""
    state = party_state(party)
    deck_list = character.data.get("deck_list") or {}
    suggested = character.data.get("suggested_deck") or {}
    available = Counter(state.vault)
    cards = {c.uid: c for c in Card.objects.filter(uid__in=list(available))}
    by_name: dict[str, str] = {}
    for uid in available:
        by_name.setdefault(cards[uid].name, uid)
    named = {
        name
        for other in Card.objects.filter(
            Q(card_set__in=party.products.all()) | Q(card_set=character.card_set_id), type="character"
        ).only("data")
        for names in (other.data.get("suggested_deck") or {}).values()
        for name in names
    }
    deck: Counter[str] = Counter()
    for kind, entry in deck_list.items():
        need = entry["count"]
        for name in suggested.get(kind, []):
            named_uid = by_name.get(name)
            if named_uid and available[named_uid] and need:
                deck[named_uid] += 1
                available[named_uid] -= 1
                need -= 1
        # The card with the most copies left, one at a time (a varied deck that drains no card): a
        # stated level before an unknown one, and cards no suggestion names before those others want.
        fillers = sorted(
            (uid for uid in available if cards[uid].type == kind and first_deck_card(party, cards[uid])),
            key=lambda uid: (cards[uid].level is None, cards[uid].name in named, cards[uid].name),
        )
        tiers: dict[tuple[bool, bool], list[str]] = {}
        for uid in fillers:
            tiers.setdefault((cards[uid].level is None, cards[uid].name in named), []).append(uid)
        for tier in tiers.values():
            while need and any(available[uid] for uid in tier):
                uid = min(tier, key=lambda uid: (-available[uid], tier.index(uid)))
                deck[uid] += 1
                available[uid] -= 1
                need -= 1
        if need:
            raise DomainError(
                f"the vault lacks {need} {kind}(s) for {character.name}'s deck; {_fill_the_vault(party, character)}, "
                "or untick Quick start and build the deck in the deck editor",
                details={"type": kind, "missing": need},
            )
    return dict(deck)


def _fill_the_vault(party: Party, character: Card) -> str:
    product = character.card_set
    if product.code in products_in_vault(party):
        return "add copies to the vault on the party page (Vault: correct the vault, or add another product)"
    return f"add the {product.name}'s cards to the vault on the party page (Vault)"
