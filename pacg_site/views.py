from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.views import defaults
from drf_spectacular.utils import extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.reverse import reverse
from rest_framework.views import APIView

from cards.models import Card, CardSet

from .api import error_body
from .health import health


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "home.html", {"card_count": Card.objects.count(), "set_count": CardSet.objects.count()})


def not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """An address no URL matches: under /api/ the error object, as every API error is."""
    if request.path.startswith("/api/"):
        message = f"no API operation at {request.path}; the operations are listed at /api/schema/"
        return JsonResponse(error_body("not_found", message), status=404)
    return defaults.page_not_found(request, exception)  # type: ignore[arg-type]


class APIRoot(APIView):
    permission_classes = [AllowAny]

    @extend_schema(exclude=True)
    def get(self, request: Request) -> Response:
        names = [
            "cards-list",
            "cards-autocomplete",
            "cards-search-help",
            "sets-list",
            "rules-search",
            "rules-ask",
            "rules-books",
            "rules-conflicts",
            "parties-list",
            "parties-import",
            "play-sessions",
            "play-odds",
            "schema",
            "docs",
            "token",
        ]
        return Response({name: reverse(f"api:{name}", request=request) for name in names})


class Health(APIView):
    """`/healthz`: 200 when the database, cache, broker and search indexes all answer, else 503
    with what failed. Open to the probe, no session needed."""

    permission_classes = [AllowAny]
    authentication_classes: list[type] = []

    @extend_schema(exclude=True)
    def get(self, request: Request) -> Response:
        ok, checks = health()
        return Response({"status": "ok" if ok else "failing", "checks": checks}, status=200 if ok else 503)
