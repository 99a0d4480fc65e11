"""The cards API: search with the query language and facets, card detail, autocomplete, help."""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from django.utils.http import http_date
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema_field, inline_serializer
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from pacg_site.api import PAGE_PARAMETERS, documented, whole_number
from pacg_site.errors import DomainError, NotFoundError

from .dataformat.schema import serialize_card
from .filters import CardFacets
from .models import Card, CardSet
from .schemas import NameSuggestion, SearchHelp, SetName
from .search.fields import FIELDS, ORDERINGS
from .search.parser import SearchSyntaxError
from .selectors import autocomplete, card_detail, namesakes, search_cards, unknown_facts

MAX_PAGE_SIZE = 200


class QueryError(DomainError):
    code = "invalid_query"


class SetSerializer(serializers.ModelSerializer):
    parent = serializers.SlugRelatedField(
        slug_field="code", read_only=True, allow_null=True, help_text="the set this one belongs to"
    )

    class Meta:
        model = CardSet
        fields = ["code", "name", "game", "kind", "language", "ruleset", "parent", "aliases", "homebrew", "provenance"]


class CardSummarySerializer(serializers.Serializer):
    """The key facts a result list shows."""

    id = serializers.CharField(source="uid")
    name = serializers.CharField()
    type = serializers.CharField()
    subtype = serializers.CharField()
    level = serializers.CharField(source="level_display", allow_null=True)
    traits = serializers.ListField(child=serializers.CharField(), allow_null=True)
    check = serializers.SerializerMethodField()
    set = serializers.SerializerMethodField()
    game = serializers.CharField()
    language = serializers.CharField()
    homebrew = serializers.BooleanField(source="card_set.homebrew")
    url = serializers.SerializerMethodField()
    page_url = serializers.SerializerMethodField()

    def get_check(self, card: Card) -> str | None:
        return card.check_text or None

    @extend_schema_field(SetName)
    def get_set(self, card: Card) -> dict[str, str]:
        return {"code": card.card_set.code, "name": card.card_set.name}

    def get_url(self, card: Card) -> str:
        request = self.context.get("request")
        path = reverse("api:cards-detail", args=[card.uid])
        return request.build_absolute_uri(path) if request else path

    def get_page_url(self, card: Card) -> str:
        return card.get_absolute_url()


class CardDetailSerializer(CardSummarySerializer):
    """Every fact, in the data format's canonical form, plus what is unknown and namesakes."""

    facts = serializers.SerializerMethodField()
    unknown = serializers.SerializerMethodField()
    incomplete = serializers.ListField(child=serializers.CharField())
    provenance = serializers.ListField(child=serializers.DictField())
    namesakes = serializers.SerializerMethodField()

    def get_facts(self, card: Card) -> dict[str, Any]:
        record = serialize_card(card.as_record() | {"set_language": card.card_set.language})
        for key in ("id", "name", "type", "provenance", "incomplete"):
            record.pop(key, None)
        return record

    def get_unknown(self, card: Card) -> list[str]:
        return unknown_facts(card)

    @extend_schema_field(CardSummarySerializer(many=True))
    def get_namesakes(self, card: Card) -> list[dict[str, Any]]:
        return CardSummarySerializer(namesakes(card), many=True, context=self.context).data


def _query_parameters() -> list[OpenApiParameter]:
    fields = "; ".join(f"{'/'.join(f.names)} ({' '.join(f.operators)})" for f in FIELDS)
    facets = [
        OpenApiParameter(
            name,
            OpenApiTypes.INT if name.startswith("level") else OpenApiTypes.STR,
            description=str(facet.extra.get("help_text", "")),
            enum=[choice for choice, _ in facet.extra["choices"]] if "choices" in facet.extra else None,
        )
        for name, facet in CardFacets.base_filters.items()
    ]
    return [
        OpenApiParameter(
            "q", OpenApiTypes.STR, description=f"Search language (see /api/cards/search-help/). Fields: {fields}"
        ),
        *facets,
        *PAGE_PARAMETERS,
    ]


class CardListAPI(APIView):
    permission_classes = [AllowAny]
    filterset_class = CardFacets

    @documented(
        "cards_search",
        "Search cards",
        inline_serializer(
            "CardPage",
            {
                "count": serializers.IntegerField(),
                "next": serializers.URLField(allow_null=True),
                "previous": serializers.URLField(allow_null=True),
                "results": CardSummarySerializer(many=True),
            },
        ),
        errors=(400, 404),
        parameters=_query_parameters(),
    )
    def get(self, request: Request) -> Response:
        """Search cards with the query language `q` and the facets; malformed queries get a 400
        whose error says what is wrong and at which position."""
        facets = CardFacets(request.query_params, queryset=Card.objects.none())
        if not facets.is_valid():
            errors = {key: [str(e) for e in value] for key, value in facets.form.errors.items()}
            first = next(iter(errors.items()))
            raise DomainError(f"{first[0]}: {first[1][0]}", details=errors)
        page = whole_number(request, "page", 1)
        page_size = whole_number(request, "page_size", 50, MAX_PAGE_SIZE)
        query = request.query_params.get("q", "")
        try:
            result = search_cards(
                query=query, facets=facets.terms(), order=facets.ordering_value, page=page, page_size=page_size
            )
        except SearchSyntaxError as error:
            raise QueryError(str(error), details=error.details) from error
        if page > result.pages:
            raise NotFoundError(f"page {page} does not exist; there are {result.pages}")
        return Response(
            {
                "count": result.total,
                "next": _page_link(request, page + 1) if result.has_next else None,
                "previous": _page_link(request, page - 1) if result.has_previous else None,
                "results": CardSummarySerializer(result.cards, many=True, context={"request": request}).data,
            }
        )


def _page_link(request: Request, page: int) -> str:
    params = request.query_params.copy()
    params["page"] = str(page)
    return request.build_absolute_uri(f"{request.path}?{params.urlencode()}")


class CardDetailAPI(APIView):
    permission_classes = [AllowAny]

    @documented("cards_get", "A card", CardDetailSerializer, errors=(404,))
    def get(self, request: Request, uid: str) -> Response:
        """One card with every known fact, what the rulebooks leave unknown, and its namesakes."""
        try:
            card = card_detail(uid)
        except Card.DoesNotExist as error:
            raise NotFoundError(f"no card has the id {uid!r}") from error
        response = Response(CardDetailSerializer(card, context={"request": request}).data)
        response["Last-Modified"] = http_date(card.updated_at.timestamp())
        return response


class AutocompleteAPI(APIView):
    permission_classes = [AllowAny]

    @documented(
        "cards_autocomplete",
        "Card names for a search box",
        inline_serializer("Names", {"results": NameSuggestion(many=True)}),
        errors=(400,),
        parameters=[OpenApiParameter("q", OpenApiTypes.STR, description="the start of a card name")],
    )
    def get(self, request: Request) -> Response:
        """Card names for a search box: names starting with `q`, then names with a word that does."""
        query = request.query_params.get("q", "")
        if len(query) > 100:
            raise DomainError("q must be at most 100 characters")
        return Response({"results": autocomplete(query)})


def search_help() -> dict[str, Any]:
    return {
        "syntax": [
            {"form": "word", "meaning": "cards with the word in their name or powers (accents optional)"},
            {"form": '"a phrase"', "meaning": "the words in this order"},
            {"form": '!"Exact Name"', "meaning": "a card with exactly this name"},
            {"form": "field:value, field=value, field!=value", "meaning": "a fact equals / differs"},
            {"form": "field<3, field<=3, field>3, field>=3", "meaning": "compare a number"},
            {"form": "-term", "meaning": "exclude cards matching the term"},
            {"form": "a b", "meaning": "both (terms are ANDed)"},
            {"form": "a or b", "meaning": "either"},
            {"form": "( ... )", "meaning": "group"},
        ],
        "fields": [
            {
                "names": list(f.names),
                "operators": list(f.operators),
                "summary": f.summary,
                "examples": list(f.examples),
                "values": list(f.values),
            }
            for f in FIELDS
        ],
        "orderings": ORDERINGS,
        "sets": [{"code": s.code, "name": s.name, "aliases": s.aliases, "game": s.game} for s in CardSet.objects.all()],
    }


class SearchHelpAPI(APIView):
    permission_classes = [AllowAny]

    @documented("cards_search_help", "The search language", SearchHelp)
    def get(self, request: Request) -> Response:
        """The search language, generated from the same field registry the parser uses."""
        return Response(search_help())


class SetListAPI(APIView):
    permission_classes = [AllowAny]

    @documented("sets_list", "The products (sets)", SetSerializer(many=True))
    def get(self, request: Request) -> Response:
        """Every product (set) with its code for `set:` searches."""
        return Response(SetSerializer(CardSet.objects.select_related("parent"), many=True).data)
