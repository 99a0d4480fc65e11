"""Card pages: the browser (search + facets), a card page laid out like the card, search help."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from .api import search_help
from .dataformat.cardtypes import TYPES
from .dataformat.checks import format_check
from .dataformat.fields import format_per_hero, format_skills
from .filters import CardFacets
from .models import Card, CardSet
from .search.fields import ORDERINGS, TYPE_VALUES
from .search.parser import SearchSyntaxError
from .selectors import card_detail, namesakes, related_by_name, search_cards, unknown_facts

PAGE_SIZE = 30


def browse(request: HttpRequest) -> HttpResponse:
    facets = CardFacets(request.GET, queryset=Card.objects.none())
    context = {
        "query": request.GET.get("q", ""),
        "sets": CardSet.objects.all(),
        "types": TYPE_VALUES,
        "orderings": ORDERINGS,
        "facets": request.GET,
    }
    page_number = request.GET.get("page", "1")
    page = int(page_number) if page_number.isdigit() and int(page_number) > 0 else 1
    if not facets.is_valid():
        context["error"] = "; ".join(f"{k}: {' '.join(v)}" for k, v in facets.form.errors.items())
        return render(request, "cards/browse.html", context, status=400)
    try:
        result = search_cards(
            query=context["query"], facets=facets.terms(), order=facets.ordering_value, page=page, page_size=PAGE_SIZE
        )
    except SearchSyntaxError as error:
        context["error"] = str(error)
        context["error_position"] = error.position
        return render(request, "cards/browse.html", context, status=400)
    params = request.GET.copy()
    params.pop("page", None)
    context |= {"result": result, "params": params.urlencode()}
    return render(request, "cards/browse.html", context)


def detail(request: HttpRequest, uid: str) -> HttpResponse:
    try:
        card = card_detail(uid)
    except Card.DoesNotExist as error:
        raise Http404(f"No card has the id {uid}") from error
    data = card.data
    names = [entry["name"] for entry in data.get("locations", [])]
    names += [entry["name"] for key in ("villains", "henchmen") for entry in data.get(key, [])]
    names += data.get("dangers", []) + data.get("scenarios", []) + data.get("adventures", [])
    names += [data[key] for key in ("character", "cohort", "hero", "adventure_path") if isinstance(data.get(key), str)]
    for names_by_type in (data.get("suggested_deck") or {}).values():
        names += names_by_type
    context = {
        "card": card,
        "card_type": TYPES[card.type],
        "check": card.check_text,
        "to_close_check": format_check(data["to_close_check"]) if data.get("to_close_check") else None,
        "to_guard_check": format_check(data["to_guard_check"]) if data.get("to_guard_check") else None,
        "skills": format_skills(data["skills"]) if card.type == "character" and data.get("skills") else None,
        "life_points": format_per_hero(data["life_points"]) if data.get("life_points") else None,
        "links": related_by_name(names, game=card.game),
        "namesakes": namesakes(card),
        "unknown": [name.replace("_", " ") for name in unknown_facts(card)],
        "incomplete": [name.replace("_", " ") for name in card.incomplete],
    }
    return render(request, "cards/detail.html", context)


def help_page(request: HttpRequest) -> HttpResponse:
    return render(request, "cards/help.html", {"help": search_help()})
