"""The play pages: your sessions, and the table, which drives the same API from the browser."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from campaigns.selectors import parties_for
from cards.models import Card
from pacg_site.api import DomainError, NotFoundError

from .definitions import FACTS
from .engine.cards import BOON_TYPES
from .engine.sandbox import CHARACTERS
from .selectors import session_for, sessions_for
from .services import SCENARIOS, session_create


def _facts_from(post: Any) -> dict[str, dict[str, str]]:
    """facts-<character id>-<fact> fields of the lobby's form."""
    facts: dict[str, dict[str, str]] = {}
    for key, value in post.items():
        parts = key.split("-")
        if len(parts) == 3 and parts[0] == "facts" and parts[2] in FACTS and value.strip():
            facts.setdefault(parts[1], {})[parts[2]] = value.strip()
    return facts


def lobby(request: HttpRequest) -> HttpResponse:
    asking = None
    if request.method == "POST" and request.user.is_authenticated:
        party = request.POST.get("party")
        try:
            if party is not None and not party.isdigit():
                raise DomainError("choose one of your parties")
            session = session_create(
                by=request.user,
                scenario=request.POST.get("scenario", ""),
                ruleset=request.POST.get("ruleset", "core-2019"),
                characters=request.POST.getlist("characters") or None,
                party=int(party) if party else None,
                facts=_facts_from(request.POST),
            )
            return redirect(session)
        except DomainError as error:
            if error.code == "facts_needed":
                asking = {
                    "party": party,
                    "scenario": request.POST.get("scenario", ""),
                    "characters": [
                        {"id": pk, "name": name, "missing": error.details["missing"].get(pk, [])}
                        for pk, name in error.details["characters"].items()
                        if pk in error.details["missing"]
                    ],
                }
            else:
                messages.error(request, error.message)
    sessions = list(sessions_for(request.user).select_related("party").defer("state", "initial_state", "setup"))
    names = dict(Card.objects.filter(uid__in={s.scenario for s in sessions}).values_list("uid", "name"))
    return render(
        request,
        "play/lobby.html",
        {
            "sessions": [(s, names.get(s.scenario, SCENARIOS.get(s.scenario, s.scenario))) for s in sessions],
            "scenarios": SCENARIOS,
            "characters": dict(Card.objects.filter(uid__in=CHARACTERS).values_list("uid", "name"))
            or {c: c for c in CHARACTERS},
            "parties": parties_for(request.user).filter(game="pacg"),
            "asking": asking,
            "boon_types": BOON_TYPES,
        },
    )


def table(request: HttpRequest, session_id: str) -> HttpResponse:
    try:
        session = session_for(request.user, session_id)
    except NotFoundError as error:
        raise Http404(str(error)) from error
    return render(request, "play/table.html", {"session": session, "scenario_name": session.state["scenario"]["name"]})
