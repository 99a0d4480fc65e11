"""The rules API: passage search, the assistant, books, passages and edition conflicts."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from django.db.models import Count
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from pacg_site.api import documented, whole_number, whole_number_parameter
from pacg_site.errors import NotFoundError

from . import schemas
from .models import Passage, Rulebook
from .selectors import MAX_QUESTION, ask, conflicts, passage_result, search_passages

FILTERS = [
    OpenApiParameter(
        "q",
        {"type": "string", "pattern": r"\S", "maxLength": MAX_QUESTION},  # type: ignore[arg-type]
        required=True,
        description="the question or search words",
    ),
    OpenApiParameter(
        "game",
        OpenApiTypes.STR,
        enum=["pacg", "aventuria"],
        description="one game; by default the assistant works out which game the question is about",
    ),
    OpenApiParameter(
        "book", OpenApiTypes.STR, many=True, description="rulebook slug(s): core, wotr, rotr_es, aventuria"
    ),
]


def _books(request: Request) -> list[str]:
    return [slug for value in request.query_params.getlist("book") for slug in value.split(",") if slug]


class RulesSearchAPI(APIView):
    permission_classes = [AllowAny]

    @documented(
        "rules_search",
        "Search the rulebooks",
        schemas.SearchResults,
        errors=(400,),
        parameters=[
            *FILTERS,
            OpenApiParameter("kind", OpenApiTypes.STR, many=True, enum=Passage.KINDS),
            whole_number_parameter("limit", "how many passages, default 10", 50),
        ],
    )
    def get(self, request: Request) -> Response:
        """Ranked passages for the words of `q` (no confidence cut-off: the best matches)."""
        kinds = [k for value in request.query_params.getlist("kind") for k in value.split(",") if k]
        found = search_passages(
            request.query_params.get("q", ""),
            game=request.query_params.get("game") or None,
            books=_books(request),
            kinds=kinds,
            limit=whole_number(request, "limit", 10, 50),
        )
        passages = Passage.objects.shown().in_bulk([hit.pid for hit in found.hits])
        return Response(
            {
                "query": request.query_params.get("q", ""),
                "game": found.game,
                "results": [passage_result(passages[hit.pid], found.question, hit.score) for hit in found.hits],
            }
        )


class AskAPI(APIView):
    permission_classes = [AllowAny]
    throttle_scope = "ask"  # each question is embedded: CPU a scraper must not have for free

    @documented("rules_ask", "Ask the rules assistant", schemas.Answer, errors=(400, 429), parameters=FILTERS)
    def get(self, request: Request) -> Response:
        """The assistant's answer: the passages that answer the question, quoted, highlighted and
        cited; glossary definitions of its terms; "did you mean"; each edition's rule where the
        editions disagree; the cards it names; `other_game` when the question could be about the
        other game too. `found` is false when no rule answers it."""
        answer = ask(
            request.query_params.get("q", ""), game=request.query_params.get("game") or None, books=_books(request)
        )
        return Response(asdict(answer))


def book_summary(book: Rulebook) -> dict[str, Any]:
    return {
        "slug": book.slug,
        "title": book.title,
        "game": book.game,
        "ruleset": book.ruleset,
        "edition": book.edition,
        "language": book.language,
        "passages": book.passage_count,  # type: ignore[attr-defined]
        "kept_chars": book.kept_chars,
        "dropped_chars": book.dropped_chars,
        "duplicate_chars": book.duplicate_chars,
        "url": book.get_absolute_url(),
    }


class BookListAPI(APIView):
    permission_classes = [AllowAny]

    @documented("rules_books_list", "The rulebooks", schemas.Book(many=True))
    def get(self, request: Request) -> Response:
        """The rulebooks (the four of the manifest, so not paged), with how much of each text became passages."""
        return Response(
            [
                book_summary(book)
                for book in Rulebook.objects.annotate(passage_count=Count("passages")).order_by("order", "slug")
            ]
        )


class PassageAPI(APIView):
    permission_classes = [AllowAny]

    @documented("rules_passages_get", "A rule passage", schemas.PassageDetail, errors=(404,))
    def get(self, request: Request, book: str, anchor: str) -> Response:
        """One passage with its heading path, concepts, cross-references and the questions it answers."""
        passage = Passage.objects.shown().filter(book__slug=book, anchor=anchor).first()
        if passage is None:
            raise NotFoundError(f"no passage {anchor!r} in book {book!r}")
        return Response(
            {
                "id": passage.pk,
                "book": passage.book.slug,
                "anchor": passage.anchor,
                "kind": passage.kind,
                "heading": passage.heading,
                "path": passage.path,
                "part": passage.part,
                "text": passage.text,
                "concepts": passage.concepts,
                "links": passage.links,
                "questions": passage.questions,
                "url": passage.get_absolute_url(),
            }
        )


class ConflictsAPI(APIView):
    permission_classes = [AllowAny]

    @documented("rules_conflicts_list", "Where the editions disagree", schemas.Conflict(many=True))
    def get(self, request: Request) -> Response:
        """Where the editions disagree, and where a book contradicts itself, each side quoted (a
        curated table, so not paged)."""
        return Response(conflicts())
