"""The play API: sessions, their views, pending decisions with odds, actions, previews, the log."""

from __future__ import annotations

from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from campaigns.selectors import party_for
from pacg_site.api import (
    PAGE_PARAMETERS,
    DomainError,
    StrictSerializer,
    documented,
    page_of,
    paginated,
)

from . import engine, schemas
from .combats import COMBATS
from .engine.simulate import MODE_OPTIONS, POLICIES
from .games import engine_for
from .refusals import EngineRefusal
from .selectors import odds, players_of, session_for, sessions_for, viewer
from .services import SCENARIOS, act, scenario_choices, session_create, session_finish
from .simulations import DEFAULT_SEED, MAX_GAMES, simulation_cancel, simulation_for, simulation_start
from .simulations import describe as describe_simulation

# The session's endpoints are AllowAny: session_for answers 404 to anyone who is not a player,
# logged in or not, so they never answer 403 for want of a log-in.
PLAYERS_ONLY = (404,)
ETAG = OpenApiParameter(
    "ETag",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    response=[200, 304],
    description="changes with the version, the party log entry and who you play; send it as If-None-Match",
)
IF_NONE_MATCH = OpenApiParameter(
    "If-None-Match", OpenApiTypes.STR, OpenApiParameter.HEADER, description="the ETag of the view you have"
)
IDEMPOTENCY_KEY = OpenApiParameter(
    "Idempotency-Key",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    description="1-100 characters; a retried key gets the stored response, even once the version has moved on",
)


class SessionInput(StrictSerializer):
    game = serializers.ChoiceField(choices=["pacg", "aventuria"], default="pacg")
    scenario = serializers.ChoiceField(
        choices=list(SCENARIOS),
        help_text="a starter scenario, or with a party a scenario card of the database; for Aventuria, a combat",
    )
    ruleset = serializers.ChoiceField(choices=schemas.RULESETS, default="core-2019")
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
        self.fields["scenario"].choices = [*scenario_choices(), *COMBATS]


class ActionInput(StrictSerializer):
    version = serializers.IntegerField(min_value=0, help_text="the version the action is based on")
    action = serializers.DictField(help_text="one of the pending decision's options' action (completed where it asks)")


class PreviewInput(StrictSerializer):
    action = serializers.DictField(help_text="the answer to preview, as it would be sent to actions/")
    version = serializers.IntegerField(
        min_value=0, required=False, help_text="the version it is based on; a stale one is a 409"
    )


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

    @documented(
        "play_sessions_list",
        "The sessions you play in",
        page_of(schemas.Session, "SessionPage"),
        errors=(400, 403, 404),
        parameters=PAGE_PARAMETERS,
    )
    def get(self, request: Request) -> Response:
        """The sessions you play in, newest first."""
        sessions = sessions_for(request.user).prefetch_related("players__user").order_by("-created_at", "pk")
        return paginated(request, sessions, summary)

    @documented(
        "play_sessions_create",
        "Set up a scenario",
        schemas.Session,
        created=True,
        request=SessionInput,
        errors=(400, 403, 404),
    )
    def post(self, request: Request) -> Response:
        """Set up a scenario with the homebrew starter pack's characters, for you or named users; or,
        with `party`, the party's characters on a starter scenario or a scenario card of the database
        (400 `facts_needed`, `locations_needed` or `location_decks_needed` say what to add; 404: a
        party you are not in)."""
        serializer = SessionInput(data=request.data)
        serializer.is_valid(raise_exception=True)
        session = session_create(by=request.user, **serializer.validated_data)
        return Response(summary(session), status=status.HTTP_201_CREATED)


class SessionAPI(APIView):
    permission_classes = [AllowAny]  # session_for answers 404 to anyone not a player

    @documented(
        "play_sessions_get",
        "The game as you see it",
        schemas.game_view(),
        errors=PLAYERS_ONLY,
        parameters=[IF_NONE_MATCH, ETAG],
        also={304: OpenApiResponse(description="Not modified: If-None-Match is the current ETag. No body.")},
    )
    def get(self, request: Request, session_id: str) -> Response:
        """The game as you may see it (never deck order, face-down cards or the seed), with an ETag."""
        session = session_for(request.user, session_id)
        players = players_of(session, request.user)
        # Writing the result to the party's log changes what the view says without a new version.
        etag = f'"{session.pk}-{session.version}-{session.logged_seq or 0}-{"+".join(players)}"'
        if request.headers.get("If-None-Match") == etag:
            return Response(status=status.HTTP_304_NOT_MODIFIED, headers={"ETag": etag})
        return Response(
            engine_for(session.state).view(session.state, players) | {"session": summary(session)},
            headers={"ETag": etag},
        )


class FinishAPI(APIView):
    permission_classes = [AllowAny]  # session_for answers 404 to anyone not a player

    @documented(
        "play_sessions_finish",
        "Write the result to the party's log",
        schemas.Finished,
        created=True,
        errors=(400, 403, *PLAYERS_ONLY, 409),
    )
    def post(self, request: Request, session_id: str) -> Response:
        """Write the finished scenario to the party's campaign log (a scenario_played entry: mode,
        won or lost, who died, cards acquired and banished). 400 for a session without a party; 403
        if the campaign rules do not let you log it (the party's owner does); 409 while playing or
        once written."""
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
    permission_classes = [AllowAny]  # session_for answers 404 to anyone not a player

    @documented("play_pending_get", "The decision waiting", schemas.PendingView, errors=PLAYERS_ONLY)
    def get(self, request: Request, session_id: str) -> Response:
        """The decision waiting: who may answer, the legal options, and for a check the dice pool
        and the exact odds so far."""
        session = session_for(request.user, session_id)
        shown = engine_for(session.state).view(session.state, players_of(session, request.user))
        return Response(
            {
                "version": session.version,
                "status": session.status,
                "pending": shown["pending"],
                "check": shown.get("check"),
            }
        )


class ActionsAPI(APIView):
    permission_classes = [AllowAny]  # session_for answers 404 to anyone not a player

    @documented(
        "play_actions_create",
        "Answer the pending decision",
        schemas.ActionResult,
        created=True,
        request=ActionInput,
        errors=(400, 403, *PLAYERS_ONLY, 409),
        parameters=[IDEMPOTENCY_KEY],
    )
    def post(self, request: Request, session_id: str) -> Response:
        """Answer the pending decision. A stale `version` is a 409 (so is an answer once the scenario
        is over); an illegal action a 400 naming the rule; a decision that is not yours a 403. A
        retried Idempotency-Key gets the stored 201 again."""
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
    permission_classes = [AllowAny]  # session_for answers 404 to anyone not a player

    @documented(
        "play_preview",
        "Preview an answer",
        schemas.Preview,
        request=PreviewInput,
        errors=(400, 403, *PLAYERS_ONLY, 409),
    )
    def post(self, request: Request, session_id: str) -> Response:
        """What an answer would do to the dice and the odds, changing nothing. An action that would
        be refused is refused the same way (400, 403; 409 for a stale `version` or a scenario that is
        over)."""
        session = session_for(request.user, session_id)
        serializer = PreviewInput(data=request.data if isinstance(request.data, dict) else {})
        serializer.is_valid(raise_exception=True)
        action = serializer.validated_data["action"]
        if "version" in serializer.validated_data:
            # The engine refuses an action based on another version (and ignores the key otherwise).
            action = action | {"version": serializer.validated_data["version"]}
        try:
            result = engine_for(session.state).preview(session.state, viewer(session, request.user, action), action)
        except engine.EngineError as error:
            raise EngineRefusal(error) from error
        return Response(result | {"version": session.version})


class EventsAPI(APIView):
    permission_classes = [AllowAny]  # session_for answers 404 to anyone not a player

    @documented(
        "play_events_list",
        "The session's log",
        schemas.SessionLog,
        errors=(400, *PLAYERS_ONLY),
        parameters=[
            OpenApiParameter(
                "after",
                {"type": "integer", "minimum": 0},  # type: ignore[arg-type]
                description="actions after this number (default 0)",
            )
        ],
    )
    def get(self, request: Request, session_id: str) -> Response:
        """The log of applied actions and what they caused, for catching up and replay: up to 500
        actions after `after`."""
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
                        "events": engine_for(session.state).public_events(a.events),
                        "report": engine_for(session.state).report(session.state, a.events, people),
                    }
                    for a in actions
                ],
            }
        )


class OddsAPI(APIView):
    @documented(
        "play_odds",
        "The exact odds of a check",
        schemas.DiceOdds,
        errors=(400,),
        parameters=[
            OpenApiParameter("dice", OpenApiTypes.STR, required=True, description="e.g. 3d8+1d6+2"),
            OpenApiParameter("difficulty", OpenApiTypes.INT, required=True),
        ],
    )
    def get(self, request: Request) -> Response:
        """Exact odds of a check: probability, exact fraction, distribution, expected damage."""
        return Response(odds(request.query_params.get("dice", ""), request.query_params.get("difficulty", "")))


class SimulationInput(StrictSerializer):
    scenario = serializers.ChoiceField(
        choices=list(SCENARIOS), help_text="a starter scenario or a scenario card of the database"
    )
    mode = serializers.ChoiceField(choices=list(MODE_OPTIONS), default="normal")
    games = serializers.IntegerField(min_value=1, max_value=MAX_GAMES, default=200)
    policy = serializers.ChoiceField(choices=list(POLICIES), default="greedy")
    seed = serializers.CharField(max_length=100, default=DEFAULT_SEED, help_text="the same seed, the same result")
    characters = serializers.ListField(child=serializers.CharField(), required=False)
    facts = serializers.DictField(child=serializers.DictField(), required=False)

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.fields["scenario"].choices = list(scenario_choices())  # they change with the card data


class SimulationListAPI(APIView):
    permission_classes = [AllowAny]  # party_for / simulation_for answer 404 to anyone not a member

    @documented(
        "parties_simulations_create",
        "Simulate a scenario for the party",
        schemas.Simulation,
        created=True,
        request=SimulationInput,
        errors=(400, 404),
        also={200: OpenApiResponse(schemas.Simulation, description="the same request on the same log: the cache")},
    )
    def post(self, request: Request, party_id: int) -> Response:
        """Auto-play the scenario `games` times with the party's current characters and decks, on
        the Celery workers; poll the answer's id for progress. The same request on the same party
        log answers 200 with the simulation already made (or running)."""
        party_for(request.user, party_id)  # a stranger learns nothing, not even what the body lacks
        serializer = SimulationInput(data=request.data)
        serializer.is_valid(raise_exception=True)
        simulation, started = simulation_start(by=request.user, party=party_id, **serializer.validated_data)
        return Response(describe_simulation(simulation), status=201 if started else 200)


class SimulationAPI(APIView):
    permission_classes = [AllowAny]  # party_for / simulation_for answer 404 to anyone not a member

    @documented("simulations_get", "A simulation's progress and result", schemas.Simulation, errors=(404,))
    def get(self, request: Request, simulation_id: str) -> Response:
        return Response(describe_simulation(simulation_for(request.user, simulation_id)))


class SimulationCancelAPI(APIView):
    permission_classes = [AllowAny]  # party_for / simulation_for answer 404 to anyone not a member

    @documented("simulations_cancel", "Cancel a simulation", schemas.Simulation, errors=(404, 409))
    def post(self, request: Request, simulation_id: str) -> Response:
        """Stop a running simulation; the games already played keep their summary. 409 once it ended."""
        simulation = simulation_cancel(simulation=simulation_for(request.user, simulation_id))
        return Response(describe_simulation(simulation))
