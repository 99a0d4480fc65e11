"""The play pages: your sessions, and the table, which drives the same API from the browser."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from campaigns.selectors import parties_for
from pacg_site.api import DomainError, NotFoundError

from .engine.sandbox import CHARACTERS
from .selectors import session_for, sessions_for
from .services import SCENARIOS, session_create


def lobby(request: HttpRequest) -> HttpResponse:
    if request.method == "POST" and request.user.is_authenticated:
        try:
            party = request.POST.get("party")
            if party is not None and not party.isdigit():
                raise DomainError("choose one of your parties")
            session = session_create(
                by=request.user,
                scenario=request.POST.get("scenario", ""),
                ruleset=request.POST.get("ruleset", "core-2019"),
                characters=request.POST.getlist("characters") or None,
                party=int(party) if party else None,
            )
            return redirect(session)
        except DomainError as error:
            messages.error(request, error.message)
    return render(
        request,
        "play/lobby.html",
        {
            "sessions": sessions_for(request.user),
            "scenarios": SCENARIOS,
            "characters": CHARACTERS,
            "parties": parties_for(request.user).filter(game="pacg"),
        },
    )


def table(request: HttpRequest, session_id: str) -> HttpResponse:
    try:
        session = session_for(request.user, session_id)
    except NotFoundError as error:
        raise Http404(str(error)) from error
    return render(request, "play/table.html", {"session": session})
