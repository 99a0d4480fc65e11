"""The play API: sessions, their views, pending decisions with odds, actions, previews, the log."""

from __future__ import annotations

from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from pacg_site.api import DomainError

from . import engine
from .selectors import odds, players_of, session_for, sessions_for, viewer
from .services import SCENARIOS, EngineRefusal, act, scenario_choices, session_create, session_finish


class SessionInput(serializers.Serializer):
    scenario = serializers.ChoiceField(
        choices=list(SCENARIOS), help_text="a starter scenario, or with a party a scenario card of the database"
    )
    ruleset = serializers.ChoiceField(choices=list(engine.RULESETS), default="core-2019")
    party = serializers.IntegerField(required=False, help_text="play the party's characters with their decks")
    characters = serializers.ListField(child=serializers.CharField(), required=False)
    players = serializers.ListField(child=serializers.CharField(), required=False)
    options = serializers.DictField(required=False)
    facts = serializers.DictField(
        child=serializers.DictField(),
        required=False,
        help_text="per party character id: skills, hand_size, favored, where the card data lacks them",
    )
    locations = serializers.ListField(
        child=serializers.CharField(),
        required=False,
        help_text="location card uids to set out, where the scenario card's data does not list them",
    )
    location_decks = serializers.DictField(
        child=serializers.ListField(child=serializers.CharField()),
        required=False,
        help_text="per location uid: the party's vault cards (uids) chosen for a location without a deck list",
    )

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        # The database's scenarios change with the card data: read them per request.
        self.fields["scenario"].choices = list(scenario_choices())


class ActionInput(serializers.Serializer):
    version = serializers.IntegerField(min_value=0)
    action = serializers.DictField()


def summary(session: Any) -> dict[str, Any]:
    return {
        "id": str(session.pk),
        "scenario": session.scenario,
        "ruleset": session.ruleset,
        "status": session.status,
        "version": session.version,
        "party": session.party_id,
        "logged": session.logged_seq,
        "players": {p.player: p.user.username for p in session.players.all()},
        "url": session.get_absolute_url(),
    }


class SessionListAPI(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request: Request) -> Response:
        """The sessions you play in."""
        return Response([summary(s) for s in sessions_for(request.user).prefetch_related("players__user")])

    @extend_schema(request=SessionInput, responses=OpenApiTypes.OBJECT)
    def post(self, request: Request) -> Response:
        """Set up a scenario with the homebrew starter pack's characters, for you or named users; or,
        with `party`, the party's characters on a starter scenario or a scenario card of the database
        (400 `facts_needed`, `locations_needed` or `location_decks_needed` say what to add)."""
        serializer = SessionInput(data=request.data)
        serializer.is_valid(raise_exception=True)
        session = session_create(by=request.user, **serializer.validated_data)
        return Response(summary(session), status=status.HTTP_201_CREATED)


class SessionAPI(APIView):
    permission_classes = [AllowAny]  # session_for answers 404 to anyone not a player

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request: Request, session_id: str) -> Response:
        """The game as you may see it (never deck order, face-down cards or the seed), with an ETag."""
        session = session_for(request.user, session_id)
        players = players_of(session, request.user)
        # Writing the result to the party's log changes what the view says without a new version.
        etag = f'"{session.pk}-{session.version}-{session.logged_seq or 0}-{"+".join(players)}"'
        if request.headers.get("If-None-Match") == etag:
            return Response(status=status.HTTP_304_NOT_MODIFIED, headers={"ETag": etag})
        return Response(engine.view(session.state, players) | {"session": summary(session)}, headers={"ETag": etag})


class FinishAPI(APIView):
    permission_classes = [AllowAny]  # session_for answers 404 to anyone not a player

    @extend_schema(request=None, responses=OpenApiTypes.OBJECT)
    def post(self, request: Request, session_id: str) -> Response:
        """Write the finished scenario to the party's campaign log (a scenario_played entry: mode,
        won or lost, who died, cards acquired and banished). 409 while playing or once written."""
        session = session_for(request.user, session_id)
        event = session_finish(session=session, by=request.user)
        return Response(
            {
                "seq": event.seq,
                "kind": event.kind,
                "data": event.data,
                "session": summary(session_for(request.user, session_id)),
            },
            status=status.HTTP_201_CREATED,
        )


class PendingAPI(APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request: Request, session_id: str) -> Response:
        """The decision waiting: who may answer, the legal options, and for a check the dice pool
        and the exact odds so far."""
        session = session_for(request.user, session_id)
        shown = engine.view(session.state, players_of(session, request.user))
        return Response(
            {"version": session.version, "status": session.status, "pending": shown["pending"], "check": shown["check"]}
        )


class ActionsAPI(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        request=ActionInput,
        responses=OpenApiTypes.OBJECT,
        parameters=[
            OpenApiParameter(
                "Idempotency-Key",
                OpenApiTypes.STR,
                OpenApiParameter.HEADER,
                description="a retried key gets the stored response",
            )
        ],
    )
    def post(self, request: Request, session_id: str) -> Response:
        """Answer the pending decision. A stale `version` is a 409; an illegal action a 400 naming
        the rule; a decision that is not yours a 403."""
        session = session_for(request.user, session_id)
        key = request.headers.get("Idempotency-Key")
        if key is not None and not 1 <= len(key) <= 100:
            raise DomainError("Idempotency-Key must be 1 to 100 characters")
        # A retry repeats the same body; act() answers it from the stored response, before
        # looking at the (by then stale) version.
        serializer = ActionInput(data=request.data if isinstance(request.data, dict) else {})
        serializer.is_valid(raise_exception=True)
        response, code = act(
            session=session,
            by=request.user,
            action=serializer.validated_data["action"],
            version=serializer.validated_data["version"],
            idempotency_key=key,
        )
        return Response(response, status=code)


class PreviewAPI(APIView):
    permission_classes = [AllowAny]

    @extend_schema(request=ActionInput, responses=OpenApiTypes.OBJECT)
    def post(self, request: Request, session_id: str) -> Response:
        """What an answer would do to the dice and the odds, changing nothing."""
        session = session_for(request.user, session_id)
        action = request.data.get("action") if isinstance(request.data, dict) else None
        if not isinstance(action, dict):
            raise DomainError('send the action to preview: {"action": {...}}')
        try:
            result = engine.preview(session.state, viewer(session, request.user, action), action)
        except engine.EngineError as error:
            raise EngineRefusal(error) from error
        return Response(result | {"version": session.version})


class EventsAPI(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        parameters=[OpenApiParameter("after", OpenApiTypes.INT, description="actions after this number")],
        responses=OpenApiTypes.OBJECT,
    )
    def get(self, request: Request, session_id: str) -> Response:
        """The log of applied actions and what they caused, for catching up and replay."""
        session = session_for(request.user, session_id)
        after = request.query_params.get("after", "0")
        if not after.isdigit():
            raise DomainError("after must be a whole number", details={"after": after})
        actions = session.actions.filter(number__gt=int(after)).order_by("number")[:500]
        people = {p.player: p.user.username for p in session.players.select_related("user")}
        return Response(
            {
                "version": session.version,
                "actions": [
                    {
                        "number": a.number,
                        "player": a.player,
                        "action": a.action,
                        "label": a.label,
                        "version": a.version,
                        "events": engine.public_events(a.events),
                        "report": engine.report(session.state, a.events, people),
                    }
                    for a in actions
                ],
            }
        )


class OddsAPI(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        parameters=[
            OpenApiParameter("dice", OpenApiTypes.STR, required=True, description="e.g. 3d8+1d6+2"),
            OpenApiParameter("difficulty", OpenApiTypes.INT, required=True),
        ],
        responses=OpenApiTypes.OBJECT,
    )
    def get(self, request: Request) -> Response:
        """Exact odds of a check: probability, exact fraction, distribution, expected damage."""
        return Response(odds(request.query_params.get("dice", ""), request.query_params.get("difficulty", "")))
