"""Campaign pages: parties, the dashboard, character sheets and the deck editor. Forms post here
and call the same services as the API; every party page answers 404 to non-members."""

from __future__ import annotations

import json
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from cards.models import Card
from pacg_site.errors import DomainError, NotFoundError

from .api import character_body
from .models import Character
from .selectors import character_for, parties_for, party_for, party_state
from .services import (
    append_event,
    character_create,
    member_invite,
    party_create,
    product_choices,
    products_add,
    products_in_vault,
    revert_event,
)
from .transfer import export_party, import_party

LOG_SHOWN = 50  # the latest entries; the API serves the whole log


def party_page(request: HttpRequest, party_id: int):  # type: ignore[no-untyped-def]
    try:
        return party_for(request.user, party_id)
    except NotFoundError as error:
        raise Http404(str(error)) from error


def party_list(request: HttpRequest) -> HttpResponse:
    if not request.user.is_authenticated:
        return render(request, "campaigns/list.html", {"parties": []})
    if request.method == "POST":
        try:
            party = party_create(
                owner=request.user,
                name=request.POST.get("name", ""),
                game=request.POST.get("game", ""),
                ruleset=request.POST.get("ruleset", ""),
                products=request.POST.getlist("products"),
                notes=request.POST.get("notes", ""),
            )
            return redirect(party)
        except DomainError as error:
            messages.error(request, error.message)
    products = [*product_choices("pacg"), *product_choices("aventuria")]
    return render(request, "campaigns/list.html", {"parties": parties_for(request.user), "products": products})


def dashboard(request: HttpRequest, party_id: int) -> HttpResponse:
    party = party_page(request, party_id)
    state = party_state(party)
    characters = [character_body(c, state) for c in party.characters.select_related("card", "player")]
    events = list(party.log.select_related("author", "character__card").order_by("-seq")[:LOG_SHOWN])[::-1]
    scenarios = list(party.log.filter(kind="scenario_played").order_by("seq"))
    played = {str(e.data.get("scenario")) for e in scenarios}
    names = dict(Card.objects.filter(uid__in=[*state.vault, *played]).values_list("uid", "name"))
    for event in scenarios:
        event.scenario_name = names.get(str(event.data.get("scenario")), event.data.get("scenario"))
    choices = Card.objects.filter(type__in=["character", "hero"], card_set__game=party.game).select_related("card_set")
    owned = products_in_vault(party)
    # A new party's next steps: products into the vault, characters, a first scenario.
    steps = [
        ("Build the vault from your products", bool(owned), "#vault"),
        ("Add your characters (quick start builds their decks)", bool(characters), "#add-character"),
        ("Play a first scenario at the table", bool(scenarios), "/play/"),
    ]
    return render(
        request,
        "campaigns/dashboard.html",
        {
            "party": party,
            "state": state,
            "characters": characters,
            "events": events,
            "scenarios": scenarios,
            "vault": sorted(((names.get(uid, uid), n) for uid, n in state.vault.items() if n)),
            "is_owner": party.owner_id == request.user.pk,
            "character_cards": choices,
            "steps": steps if not all(done for _, done, _ in steps) else [],
            "products": [p for p in product_choices(party.game) if p.code not in owned],
            "owned": [p.name for p in product_choices(party.game) if p.code in owned],
        },
    )


@require_POST
def party_action(request: HttpRequest, party_id: int, action: str) -> HttpResponse:
    party = party_page(request, party_id)
    try:
        if action == "invite":
            member_invite(party=party, by=request.user, username=request.POST.get("username", ""))
        elif action == "character":
            character_create(
                party=party,
                by=request.user,
                card=request.POST.get("card", ""),
                player_name=request.POST.get("player_name", ""),
                quick_start=request.POST.get("quick_start") == "on",
            )
        elif action == "scenario":
            data: dict[str, Any] = {
                "scenario": request.POST.get("scenario", ""),
                "mode": request.POST.get("mode", "normal"),
                "won": request.POST.get("won") == "on",
                "adventure": int(request.POST.get("adventure") or 0),
            }
            append_event(party=party, by=request.user, kind="scenario_played", data=data)
        elif action == "revert":
            revert_event(party=party, by=request.user, seq=int(request.POST.get("seq", "0")))
        elif action == "products":
            products_add(party=party, by=request.user, products=request.POST.getlist("products"))
        elif action == "vault":
            cards = json.loads(request.POST.get("cards") or "{}")
            append_event(party=party, by=request.user, kind="vault_changed", data={"add": cards})
        else:
            raise Http404(action)
        messages.success(request, "Done.")
    except (DomainError, ValueError, json.JSONDecodeError) as error:
        messages.error(request, getattr(error, "message", str(error)))
    return redirect(party)


def sheet_page(request: HttpRequest, character_id: int) -> HttpResponse:
    character = _character(request, character_id)
    state = party_state(character.party)
    body = character_body(character, state)
    names = dict(Card.objects.filter(uid__in=list(body.get("deck", {}))).values_list("uid", "name"))
    return render(request, "campaigns/sheet.html", {"character": character, "sheet": body, "names": names})


def _character(request: HttpRequest, character_id: int) -> Character:
    try:
        return character_for(request.user, character_id)
    except NotFoundError as error:
        raise Http404(str(error)) from error


def deck_editor(request: HttpRequest, character_id: int) -> HttpResponse:
    character = _character(request, character_id)
    state = party_state(character.party)
    deck = state.characters[character.pk].deck
    uids = set(deck) | {uid for uid, n in state.vault.items() if n}
    cards = {c.uid: c for c in Card.objects.filter(uid__in=uids)}
    rows = sorted(
        (
            {
                "uid": uid,
                "name": cards[uid].name,
                "type": cards[uid].type_label,
                "level": cards[uid].level_display,
                "in_deck": deck[uid],
                "in_vault": state.vault[uid],
            }
            for uid in uids
            if uid in cards
        ),
        key=lambda row: (row["type"], row["name"]),
    )
    return render(request, "campaigns/deck.html", {"character": character, "rows": rows})


@login_required
def export_download(request: HttpRequest, party_id: int) -> JsonResponse:
    party = party_page(request, party_id)
    response = JsonResponse(export_party(party), json_dumps_params={"indent": 2, "ensure_ascii": False})
    response["Content-Disposition"] = f'attachment; filename="party-{party.pk}.json"'
    return response


@login_required
def import_upload(request: HttpRequest) -> HttpResponse:
    if request.method == "POST" and request.FILES.get("file"):
        try:
            party = import_party(document=json.loads(request.FILES["file"].read().decode("utf-8")), by=request.user)
            return redirect(party)
        except (DomainError, UnicodeDecodeError, json.JSONDecodeError) as error:
            messages.error(request, getattr(error, "message", str(error)))
    return redirect("campaigns:list")
