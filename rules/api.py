"""The rules API: passage search, the assistant, books, passages and edition conflicts."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from pacg_site.api import DomainError, NotFoundError

from .models import Passage, Rulebook
from .selectors import ask, conflicts, passage_result, search_passages

FILTERS = [
    OpenApiParameter("q", OpenApiTypes.STR, required=True, description="the question or search words"),
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


def _limit(request: Request, default: int, maximum: int) -> int:
    raw = request.query_params.get("limit", str(default))
    if not raw.isdigit() or not 1 <= int(raw) <= maximum:
        raise DomainError(f"limit must be a whole number from 1 to {maximum}", details={"limit": raw})
    return int(raw)


class RulesSearchAPI(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        parameters=[
            *FILTERS,
            OpenApiParameter("kind", OpenApiTypes.STR, many=True, enum=Passage.KINDS),
            OpenApiParameter("limit", OpenApiTypes.INT, description="1-50, default 10"),
        ],
        responses=OpenApiTypes.OBJECT,
    )
    def get(self, request: Request) -> Response:
        """Ranked passages for the words of `q` (no confidence cut-off: the best matches)."""
        kinds = [k for value in request.query_params.getlist("kind") for k in value.split(",") if k]
        found = search_passages(
            request.query_params.get("q", ""),
            game=request.query_params.get("game") or None,
            books=_books(request),
            kinds=kinds,
            limit=_limit(request, 10, 50),
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

    @extend_schema(parameters=FILTERS, responses=OpenApiTypes.OBJECT)
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
        "passages": book.passages.count(),
        "kept_chars": book.kept_chars,
        "dropped_chars": book.dropped_chars,
        "duplicate_chars": book.duplicate_chars,
        "url": book.get_absolute_url(),
    }


class BookListAPI(APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request: Request) -> Response:
        """The rulebooks, with how much of each text became passages."""
        return Response([book_summary(book) for book in Rulebook.objects.all()])


class PassageAPI(APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses=OpenApiTypes.OBJECT)
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

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request: Request) -> Response:
        """Where the editions disagree (and where a book contradicts itself), each side quoted."""
        return Response(conflicts())
