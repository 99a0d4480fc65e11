"""The campaign API. A party and everything in it answer 404 to anyone who is not a member."""

from __future__ import annotations

from collections import Counter
from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from cards.models import Card
from pacg_site.api import PAGE_PARAMETERS, StrictSerializer, documented, flag, page_of, paginated, text
from pacg_site.errors import DomainError

from . import schemas
from .models import Character, LogEvent, Party
from .selectors import card_info, character_for, parties_for, party_for, party_state
from .services import (
    LOGGABLE,
    MAX_COPIES,
    VAULT_TYPES,
    append_event,
    character_create,
    member_invite,
    party_create,
    party_update,
    revert_event,
)
from .sheet import sheet
from .state import PartyState
from .transfer import export_party, import_party


def _valid(serializer: serializers.Serializer) -> dict[str, Any]:
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)


DRY_RUN = OpenApiParameter("dry_run", OpenApiTypes.BOOL, description="check only, change nothing")
MEMBERS_ONLY = (403, 404)  # 403: not logged in; 404: not a member (a party's existence is not told)


VaultCopies = type(
    "VaultCopies",
    (StrictSerializer,),
    {
        kind: serializers.IntegerField(min_value=0, max_value=MAX_COPIES, required=False)
        for kind in sorted({kind for kinds in VAULT_TYPES.values() for kind in kinds})
    },
)


class PartyInput(StrictSerializer):
    name = text(max_length=120)
    game = serializers.ChoiceField(choices=schemas.GAMES)
    ruleset = serializers.ChoiceField(choices=schemas.RULESETS)
    adventure_path = serializers.CharField(required=False, allow_null=True, allow_blank=True)
    products = serializers.ListField(
        child=serializers.CharField(), required=False, help_text="card set codes; their cards build the vault"
    )
    vault_copies = VaultCopies(
        required=False,
        help_text="copies of each card per card type (the rulebooks don't say; defaults fit four first decks)",
    )
    notes = serializers.CharField(required=False, allow_blank=True)


class PartyChange(StrictSerializer):
    name = text(max_length=120, required=False)
    notes = serializers.CharField(required=False, allow_blank=True)
    products = serializers.ListField(
        child=serializers.CharField(), required=False, help_text="every product the party owns; new ones fill the vault"
    )
    vault_copies = VaultCopies(required=False, help_text="copies of each new card per card type")


class MemberInput(StrictSerializer):
    username = text(max_length=150)


class CharacterInput(StrictSerializer):
    card = text(help_text="the character card's id, e.g. core.ezren")
    player_name = serializers.CharField(required=False, allow_blank=True, max_length=80)
    deck = serializers.DictField(child=serializers.IntegerField(min_value=0), required=False)
    quick_start = serializers.BooleanField(default=False)


class DeckInput(StrictSerializer):
    deck = serializers.DictField(child=serializers.IntegerField(min_value=0), help_text="card id: copies")


class EventInput(StrictSerializer):
    kind = serializers.ChoiceField(choices=sorted(LOGGABLE))
    character = serializers.IntegerField(required=False, allow_null=True)
    data = serializers.DictField(required=False, default=dict)


def state_summary(party: Party, state: PartyState) -> dict[str, Any]:
    return {
        "adventure": state.adventure,
        "last_played_adventure": state.last_played,
        "last_completed_adventure": state.last_completed,
        "completed": {scenario: sorted(modes) for scenario, modes in sorted(state.completed.items())},
        "vault_size": sum(state.vault.values()),
        "characters": {
            str(c.id): {"card": c.card, "status": c.status, "hero_points": c.hero_points, "feats": len(c.feats)}
            for c in state.characters.values()
        },
    }


def party_body(party: Party) -> dict[str, Any]:
    return {
        "id": party.pk,
        "name": party.name,
        "game": party.game,
        "ruleset": party.ruleset,
        "owner": party.owner.username,
        "members": sorted(party.members.values_list("username", flat=True)),
        "adventure_path": party.adventure_path.uid if party.adventure_path else None,
        "products": sorted(party.products.values_list("code", flat=True)),
        "notes": party.notes,
        "url": party.get_absolute_url(),
    }


class PartyListAPI(APIView):
    permission_classes = [IsAuthenticated]

    @documented(
        "parties_list",
        "The parties you belong to",
        page_of(schemas.Party, "PartyPage"),
        errors=(400, 403, 404),
        parameters=PAGE_PARAMETERS,
    )
    def get(self, request: Request) -> Response:
        parties = parties_for(request.user).select_related("owner", "adventure_path").order_by("pk")
        return paginated(request, parties, party_body)

    @documented("parties_create", "Start a party", schemas.Party, created=True, request=PartyInput, errors=(400, 403))
    def post(self, request: Request) -> Response:
        """Start a party; you own it."""
        data = _valid(PartyInput(data=request.data))
        party = party_create(owner=request.user, **data)
        return Response(party_body(party), status=status.HTTP_201_CREATED)


class PartyAPI(APIView):
    permission_classes = [AllowAny]  # party_for / character_for answer 404 to anyone not a member

    @documented("parties_get", "A party and its state", schemas.PartyDetail, errors=MEMBERS_ONLY)
    def get(self, request: Request, party_id: int) -> Response:
        """The party, with its state as derived from the log."""
        party = party_for(request.user, party_id)
        return Response(party_body(party) | {"state": state_summary(party, party_state(party))})

    @documented("parties_update", "Change a party", schemas.Party, request=PartyChange, errors=(400, *MEMBERS_ONLY))
    def patch(self, request: Request, party_id: int) -> Response:
        """Rename the party, change its notes or add products to its vault (its owner)."""
        party = party_for(request.user, party_id)
        party = party_update(party=party, by=request.user, **_valid(PartyChange(data=request.data)))
        return Response(party_body(party))


class MembersAPI(APIView):
    permission_classes = [AllowAny]  # party_for / character_for answer 404 to anyone not a member

    @documented(
        "parties_members_invite",
        "Invite a member",
        schemas.Party,
        created=True,
        request=MemberInput,
        errors=(400, *MEMBERS_ONLY),
    )
    def post(self, request: Request, party_id: int) -> Response:
        """Invite a member by username (the owner)."""
        party = party_for(request.user, party_id)
        member_invite(party=party, by=request.user, **_valid(MemberInput(data=request.data)))
        return Response(party_body(party), status=status.HTTP_201_CREATED)


def character_body(character: Character, state: PartyState) -> dict[str, Any]:
    current = state.characters.get(character.pk)
    if current is None:
        return {"id": character.pk, "card": character.card.uid, "name": character.card.name}
    role = Card.objects.filter(uid=current.role[0]).first() if current.role else None
    computed = sheet(card_info(character.card), current, card_info(role) if role else None)
    return {
        "id": character.pk,
        "party": character.party_id,
        "card": character.card.uid,
        "name": character.card.name,
        "player": character.player.username,
        "player_name": character.player_name,
        "status": current.status,
        "hero_points": current.hero_points,
        "role": list(current.role) if current.role else None,
        "mythic_path": current.mythic_path,
        "cohort_removed": current.cohort_removed,
        "skills": [line.text for line in computed["skills"]],
        "hand_size": computed["hand_size"],
        "deck_list": computed["deck_list"],
        "feats": current.feats,
        "powers": [p.text for p in computed["role_powers"] or computed["powers"]],
        "deck": dict(sorted(current.deck.items())),
        "adventure_points": current.adventure_points,
        "url": character.get_absolute_url(),
    }


class PartyCharactersAPI(APIView):
    permission_classes = [AllowAny]  # party_for / character_for answer 404 to anyone not a member

    @documented(
        "parties_characters_list",
        "The party's characters",
        page_of(schemas.Character, "CharacterPage"),
        errors=(400, *MEMBERS_ONLY),
        parameters=PAGE_PARAMETERS,
    )
    def get(self, request: Request, party_id: int) -> Response:
        """Every character of the party, each with its sheet."""
        party = party_for(request.user, party_id)
        state = party_state(party)
        characters = party.characters.select_related("card", "player").order_by("pk")
        return paginated(request, characters, lambda c: character_body(c, state))

    @documented(
        "parties_characters_create",
        "Add a character",
        schemas.Character,
        created=True,
        request=CharacterInput,
        errors=(400, *MEMBERS_ONLY),
    )
    def post(self, request: Request, party_id: int) -> Response:
        """A new character you play; quick_start builds the rulebook's suggested deck."""
        party = party_for(request.user, party_id)
        data = _valid(CharacterInput(data=request.data))
        character = character_create(party=party, by=request.user, **data)
        return Response(character_body(character, party_state(party)), status=status.HTTP_201_CREATED)


class CharacterAPI(APIView):
    permission_classes = [AllowAny]  # party_for / character_for answer 404 to anyone not a member

    @documented("characters_get", "A character sheet", schemas.Character, errors=MEMBERS_ONLY)
    def get(self, request: Request, character_id: int) -> Response:
        """The character sheet: what the checked feats mean."""
        character = character_for(request.user, character_id)
        return Response(character_body(character, party_state(character.party)))


class DeckAPI(APIView):
    permission_classes = [AllowAny]  # party_for / character_for answer 404 to anyone not a member

    @documented("characters_deck_get", "A character's deck", schemas.Deck, errors=MEMBERS_ONLY)
    def get(self, request: Request, character_id: int) -> Response:
        """The character's current deck: card id and copies."""
        character = character_for(request.user, character_id)
        state = party_state(character.party)
        return Response({"deck": dict(sorted(state.characters[character.pk].deck.items()))})

    @documented(
        "characters_deck_rebuild",
        "Rebuild a character's deck",
        schemas.DeckRebuilt,
        request=DeckInput,
        errors=(400, *MEMBERS_ONLY),
        parameters=[DRY_RUN],
    )
    def put(self, request: Request, character_id: int) -> Response:
        """Rebuild this character's deck ({card id: count}) between scenarios, as the rules allow;
        with ?dry_run=true only check it."""
        character = character_for(request.user, character_id)
        dry_run = flag(request, "dry_run")
        deck = _valid(DeckInput(data=request.data))["deck"]
        event, state = append_event(
            party=character.party,
            by=request.user,
            kind="decks_rebuilt",
            data={"decks": {str(character.pk): deck}},
            dry_run=dry_run,
        )
        current = state.characters[character.pk]
        return Response(
            {
                "valid": True,
                "dry_run": dry_run,
                "deck": dict(sorted(current.deck.items())),
                "event": event.seq if event else None,
            }
        )


def event_body(event: LogEvent) -> dict[str, Any]:
    return {
        "seq": event.seq,
        "kind": event.kind,
        "character": event.character_id,
        "data": event.data,
        "author": event.author.username if event.author else None,
        "created_at": event.created_at,
    }


class LogAPI(APIView):
    permission_classes = [AllowAny]  # party_for / character_for answer 404 to anyone not a member

    @documented(
        "parties_log_list",
        "The campaign log",
        page_of(schemas.LogListEntry, "LogPage"),
        errors=(400, *MEMBERS_ONLY),
        parameters=PAGE_PARAMETERS,
    )
    def get(self, request: Request, party_id: int) -> Response:
        """The campaign log, oldest first; reverted entries stay, marked."""
        party = party_for(request.user, party_id)
        state = party_state(party)
        events = party.log.select_related("author").order_by("seq")
        return paginated(request, events, lambda e: event_body(e) | {"reverted": e.seq in state.reverted})

    @documented(
        "parties_log_append",
        "Log what happened",
        schemas.LogAppended,
        created=True,
        request=EventInput,
        errors=(400, *MEMBERS_ONLY),
        parameters=[DRY_RUN],
        also={200: OpenApiResponse(schemas.LogAppended, description="a dry run: the state it would give; not stored")},
    )
    def post(self, request: Request, party_id: int) -> Response:
        """Append an entry; refused with the rule and its rulebook section if it breaks one. A dry
        run answers 200 with the state it would give."""
        party = party_for(request.user, party_id)
        dry_run = flag(request, "dry_run")
        data = _valid(EventInput(data=request.data))
        character = None
        if data.get("character") is not None:
            character = party.characters.filter(pk=data["character"]).first()
            if character is None:
                raise DomainError(
                    f"no character {data['character']} in this party", details={"character": data["character"]}
                )
        event, state = append_event(
            party=party, by=request.user, kind=data["kind"], data=data["data"], character=character, dry_run=dry_run
        )
        body = {"dry_run": dry_run, "state": state_summary(party, state)}
        if event:
            body["event"] = event_body(event)
        return Response(body, status=status.HTTP_200_OK if dry_run else status.HTTP_201_CREATED)


class RevertAPI(APIView):
    permission_classes = [AllowAny]  # party_for / character_for answer 404 to anyone not a member

    @documented(
        "parties_log_revert",
        "Revert a log entry",
        schemas.Reverted,
        created=True,
        errors=(400, *MEMBERS_ONLY, 409),
    )
    def post(self, request: Request, party_id: int, seq: int) -> Response:
        """Revert an entry by logging its revert; refused if the log without it breaks a rule."""
        party = party_for(request.user, party_id)
        event, state = revert_event(party=party, by=request.user, seq=seq)
        return Response(
            {"event": event_body(event), "state": state_summary(party, state)}, status=status.HTTP_201_CREATED
        )


class VaultAPI(APIView):
    permission_classes = [AllowAny]  # party_for / character_for answer 404 to anyone not a member

    @documented("parties_vault_get", "The party's vault", schemas.Vault, errors=MEMBERS_ONLY)
    def get(self, request: Request, party_id: int) -> Response:
        """What is in the vault, removed from the game, and waiting for future adventures."""
        party = party_for(request.user, party_id)
        state = party_state(party)
        names = dict(
            Card.objects.filter(uid__in=set(state.vault) | set(state.removed) | set(state.future)).values_list(
                "uid", "name"
            )
        )

        def listing(counter: Counter[str]) -> list[dict[str, Any]]:
            return [{"card": uid, "name": names.get(uid, uid), "count": n} for uid, n in sorted(counter.items()) if n]

        return Response(
            {
                "vault": listing(state.vault),
                "removed_from_game": listing(state.removed),
                "future_adventures": listing(state.future),
            }
        )


class ExportAPI(APIView):
    permission_classes = [AllowAny]  # party_for / character_for answer 404 to anyone not a member

    @documented("parties_export", "Export a party", schemas.PartyDocument, errors=MEMBERS_ONLY)
    def get(self, request: Request, party_id: int) -> Response:
        """The whole party as one JSON document, for backup or another server."""
        party = party_for(request.user, party_id)
        response = Response(export_party(party))
        response["Content-Disposition"] = f'attachment; filename="party-{party.pk}.json"'
        return response


class ImportAPI(APIView):
    permission_classes = [IsAuthenticated]

    @documented(
        "parties_import",
        "Import a party",
        schemas.Party,
        created=True,
        request=schemas.PartyDocument,
        errors=(400, 403),
    )
    def post(self, request: Request) -> Response:
        """Create a party from an export; nothing is stored unless its whole log keeps the rules."""
        document = _valid(schemas.PartyDocument(data=request.data))
        party = import_party(document=document, by=request.user)
        return Response(party_body(party), status=status.HTTP_201_CREATED)
