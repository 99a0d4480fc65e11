"""The play pages: your sessions, and the table, which drives the same API from the browser."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from campaigns.selectors import parties_for
from campaigns.views import party_page
from cards.models import Card
from pacg_site.errors import DomainError, NotFoundError

from .combats import COMBATS, HERO_FACTS
from .definitions import FACTS
from .engine.aventuria.starter import HEROES as STARTER_HEROES
from .engine.cards import BOON_TYPES
from .engine.sandbox import CHARACTERS
from .engine.simulate import MODE_OPTIONS
from .selectors import session_for, sessions_for
from .services import SCENARIOS, lacking_in_words, scenario_choices, session_create
from .simulations import DEFAULT_SEED, MAX_GAMES, describe, simulation_for, simulation_start, simulations_of

ASKED = {"facts_needed", "locations_needed", "location_decks_needed"}


def _facts_from(post: Any) -> dict[str, dict[str, str]]:
    """facts-<character id>-<fact> fields of the lobby's form."""
    facts: dict[str, dict[str, str]] = {}
    for key, value in post.items():
        parts = key.split("-")
        if len(parts) == 3 and parts[0] == "facts" and parts[2] in (*FACTS, *HERO_FACTS) and value.strip():
            facts.setdefault(parts[1], {})[parts[2]] = value.strip()
    return facts


def _decks_from(post: Any) -> dict[str, list[str]]:
    """decks-<location uid> fields of the lobby's form: the vault cards chosen for it."""
    return {key[len("decks-") :]: post.getlist(key) for key in post if key.startswith("decks-") and post.getlist(key)}


def _carried(post: Any, asked: str) -> list[tuple[str, str]]:
    """The answers of the earlier steps, sent again as hidden fields with the next step's form."""
    prefixes = {"facts_needed": "facts-", "locations_needed": "locations", "location_decks_needed": "decks-"}
    return [
        (key, value)
        for key in post
        if any(key.startswith(prefix) for kind, prefix in prefixes.items() if kind != asked)
        for value in post.getlist(key)
    ]


def _asking(error: DomainError, post: Any) -> dict[str, Any]:
    """What the lobby asks for next, from a facts_needed, locations_needed or location_decks_needed refusal."""
    asking: dict[str, Any] = {
        "kind": error.code,
        "message": error.message,
        "party": post.get("party"),
        "scenario": post.get("scenario", ""),
        "game": post.get("game", "pacg"),
        "carried": _carried(post, error.code),
    }
    details = error.details
    if error.code == "facts_needed":
        asking["characters"] = [
            {"id": pk, "name": name, "missing": details["missing"].get(pk, [])}
            for pk, name in details["characters"].items()
            if pk in details["missing"]
        ]
    elif error.code == "locations_needed":
        asking |= {"count": details["count"], "available": details["available"]}
    else:
        asking |= {"locations": details["locations"], "vault": details["vault"]}
    return asking


STARTERS = SCENARIOS | COMBATS
HERO_FACT_LABELS = list(
    zip(HERO_FACTS, ["Close combat", "Ranged combat", "Magic", "Dodge", "Basic attack damage"], strict=True)
)


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
                game=request.POST.get("game", "pacg"),
                ruleset=request.POST.get("ruleset", "core-2019"),
                # The Aventuria form's hero boxes are the homebrew heroes: a party plays its own.
                characters=None
                if party and request.POST.get("game") == "aventuria"
                else request.POST.getlist("characters") or None,
                party=int(party) if party else None,
                facts=_facts_from(request.POST),
                locations=request.POST.getlist("locations") or None,
                location_decks=_decks_from(request.POST) or None,
            )
            return redirect(session)
        except DomainError as error:
            if error.code in ASKED and party:
                asking = _asking(error, request.POST)
            else:
                messages.error(request, error.message)
    sessions = list(sessions_for(request.user).select_related("party").defer("state", "initial_state", "setup"))
    names = dict(Card.objects.filter(uid__in={s.scenario for s in sessions}).values_list("uid", "name"))
    return render(
        request,
        "play/lobby.html",
        {
            "sessions": [(s, names.get(s.scenario, STARTERS.get(s.scenario, s.scenario))) for s in sessions],
            "scenarios": SCENARIOS,
            "party_scenarios": scenario_choices(),
            "characters": dict(Card.objects.filter(uid__in=CHARACTERS).values_list("uid", "name"))
            or {c: c for c in CHARACTERS},
            "parties": parties_for(request.user).filter(game="pacg"),
            "aventuria_parties": parties_for(request.user).filter(game="aventuria"),
            "asking": asking,
            "heroes": {hero["id"]: hero["name"] for hero in STARTER_HEROES},
            "boon_types": BOON_TYPES,
            "hero_facts": HERO_FACT_LABELS,
        },
    )


def table(request: HttpRequest, session_id: str) -> HttpResponse:
    try:
        session = session_for(request.user, session_id)
    except NotFoundError as error:
        raise Http404(str(error)) from error
    if session.state.get("game") == "aventuria":
        return render(request, "play/combat.html", {"session": session, "scenario_name": session.state["title"]})
    return render(request, "play/table.html", {"session": session, "scenario_name": session.state["scenario"]["name"]})


def simulate(request: HttpRequest, party_id: int) -> HttpResponse:
    """The party's difficulty simulations: the form that starts one, and the latest ones."""
    party = party_page(request, party_id)
    asking = None
    if request.method == "POST":
        try:
            games = request.POST.get("games", "200")
            if not games.isdigit():
                raise DomainError(f"games is a whole number from 1 to {MAX_GAMES}; {games!r} is not")
            simulation, _ = simulation_start(
                by=request.user,
                party=party.pk,
                scenario=request.POST.get("scenario", ""),
                mode=request.POST.get("mode", "normal"),
                games=int(games),
                policy=request.POST.get("policy", "greedy"),
                seed=request.POST.get("seed", "").strip() or DEFAULT_SEED,
                facts=_facts_from(request.POST),
            )
            return redirect("play:simulation", simulation.pk)
        except DomainError as error:
            if error.code != "facts_needed":
                messages.error(request, error.message)
            else:  # the page's own words, not the API's
                asking = _asking(error, request.POST)
                lacking = "; ".join(lacking_in_words(c["name"], c["missing"]) for c in asking["characters"])
                messages.error(request, f"Enter {lacking} below, as printed on the character cards, then simulate.")
    return render(
        request,
        "play/simulate.html",
        {
            "party": party,
            "scenarios": scenario_choices(),
            "modes": list(MODE_OPTIONS),
            "policies": {
                "greedy": "Greedy: the best odds, never a check it could pass failed",
                "random": "Random legal",
            },
            "simulations": simulations_of(party),
            "max_games": MAX_GAMES,
            "asking": asking,
            "posted": request.POST,
            "boon_types": BOON_TYPES,
        },
    )


def simulation(request: HttpRequest, simulation_id: str) -> HttpResponse:
    try:
        made = simulation_for(request.user, simulation_id)
    except NotFoundError as error:
        raise Http404(str(error)) from error
    shown = describe(made)
    return render(
        request,
        "play/simulation.html",
        {"simulation": shown, "party_id": made.party_id, "plot": outcome_plot(shown["result"])},
    )


def outcome_plot(result: dict[str, Any] | None) -> dict[str, Any]:
    """The outcome distribution as SVG bars, 60 units tall at most: the games lost, then the
    games won by the turns left."""
    if not result or not result["games"]:
        return {"bars": [], "width": 0, "label": ""}
    counts = [("lost", result["games"] - result["wins"], "lost")]
    counts += [(str(turns), n, "won") for turns, n in result["turns_left_distribution"].items()]
    tallest = max(n for _, n, _ in counts) or 1
    bars = []
    for place, (label, games, kind) in enumerate(counts):
        height = round(60 * games / tallest, 1)
        title = f"{games} lost" if kind == "lost" else f"{games} won with {label} turns left"
        bars.append(
            {"x": 12 * place + 1, "middle": 12 * place + 6, "y": round(60 - height, 1), "height": height}
            | {"label": label, "kind": kind, "title": title}
        )
    described = "; ".join(bar["title"] for bar in bars)
    return {"bars": bars, "width": 12 * len(bars), "label": f"games by outcome: {described}"}
