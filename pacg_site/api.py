"""API glue shared by every app: the one error shape, strict input, pagination and how each
operation is documented in the OpenAPI schema."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.http import Http404
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema, inline_serializer
from rest_framework import exceptions, serializers
from rest_framework.pagination import PageNumberPagination
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from .errors import DomainError, NotFoundError


def error_body(code: str, message: str, details: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"error": {"code": code, "message": message, "details": details or {}}}


def _first_message(detail: Any) -> str:
    if isinstance(detail, dict):
        for key, value in detail.items():
            text = _first_message(value)
            return text if key == "non_field_errors" else f"{key}: {text}"
        return "Invalid input."
    if isinstance(detail, list):
        return _first_message(detail[0]) if detail else "Invalid input."
    return str(detail)


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """Turn every error into {"error": {"code", "message", "details"}} with a real 4xx status."""
    if isinstance(exc, DomainError):
        return Response(error_body(exc.code, exc.message, exc.details), status=exc.status_code)
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied()
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, exceptions.ValidationError):
        details = exc.detail if isinstance(exc.detail, dict) else {"non_field_errors": exc.detail}
        response.data = error_body("invalid", _first_message(exc.detail), details)
    elif isinstance(exc, exceptions.UnsupportedMediaType):
        message = f"{exc.detail} Send the body as JSON, with the header Content-Type: application/json."
        response.data = error_body("unsupported_media_type", message)
    elif isinstance(exc, exceptions.Throttled):
        response.data = error_body("throttled", str(exc.detail), {"retry_after": exc.wait})
    elif isinstance(exc, exceptions.APIException):
        detail = exc.detail
        code = detail.code if hasattr(detail, "code") else exc.default_code
        response.data = error_body(str(code), _first_message(detail))
    return response


def whole_number(request: Request, name: str, default: int, maximum: int | None = None) -> int:
    """A query parameter that must be a whole number from 1 (to `maximum`), or the default."""
    raw = request.query_params.get(name)
    if raw is None:
        return default
    if not raw.isdigit() or int(raw) < 1 or (maximum is not None and int(raw) > maximum):
        limit = f" from 1 to {maximum}" if maximum else ", 1 or more"
        raise DomainError(f"{name} must be a whole number{limit}", details={name: raw})
    return int(raw)


TRUE, FALSE = {"1", "true", "yes", "on"}, {"0", "false", "no", "off", ""}


def flag(request: Request, name: str) -> bool:
    """A yes/no query parameter; anything else is refused rather than read as no."""
    raw = request.query_params.get(name, "").lower()
    if raw not in TRUE | FALSE:
        raise DomainError(f"{name} must be true or false", details={name: raw})
    return raw in TRUE


class Pagination(PageNumberPagination):
    """{count, next, previous, results}; clients may ask for up to 200 items a page."""

    page_size_query_param = "page_size"
    max_page_size = 200

    def get_page_size(self, request):  # type: ignore[no-untyped-def]
        return whole_number(request, self.page_size_query_param, self.page_size or 50, self.max_page_size)

    def get_page_number(self, request, paginator):  # type: ignore[no-untyped-def]
        page = whole_number(request, self.page_query_param, 1)
        if page > max(paginator.num_pages, 1):
            raise NotFoundError(f"page {page} does not exist; there are {paginator.num_pages}")
        return page


def paginated(request: Request, items: Iterable[Any], body: Callable[[Any], dict[str, Any]]) -> Response:
    """One page of `items` (a queryset or a list), each shown by `body`, the way /api/cards/ pages."""
    paginator = Pagination()
    page = paginator.paginate_queryset(items, request)  # type: ignore[arg-type]
    return paginator.get_paginated_response([body(item) for item in page or []])


CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")  # newlines and tabs are text; the rest garble pages


def json_type_error(field: serializers.Field, value: Any) -> str | None:
    """What is wrong with a JSON value for a field, by the type the schema gives it. DRF would
    read 0 as "0" or "1" as 1; a client that sends the wrong type has a bug it should hear of."""
    if value is None:
        return None  # allow_null decides
    if isinstance(field, serializers.BooleanField):
        return None if isinstance(value, bool) else "must be true or false"
    if isinstance(field, serializers.IntegerField):
        return None if isinstance(value, int) and not isinstance(value, bool) else "must be a whole number"
    if isinstance(field, serializers.FloatField):
        return None if isinstance(value, int | float) and not isinstance(value, bool) else "must be a number"
    if isinstance(field, serializers.CharField | serializers.ChoiceField):
        if not isinstance(value, str):
            return "must be a string"
        bad = CONTROL.search(value)
        if bad:
            return f"contains the control character U+{ord(bad.group()):04X} at position {bad.start() + 1}; remove it"
        return None
    if isinstance(field, serializers.ListField | serializers.ListSerializer):
        if not isinstance(value, list):
            return "must be a list"
        child = field.child
        return next((f"item {i + 1} {e}" for i, v in enumerate(value) if (e := json_type_error(child, v))), None)
    if isinstance(field, serializers.DictField):
        if not isinstance(value, dict):
            return "must be an object"
        return next((f"{k!r} {e}" for k, v in value.items() if (e := json_type_error(field.child, v))), None)
    if isinstance(field, serializers.Serializer):
        return None if isinstance(value, dict) else "must be an object"
    return None


def text(**kwargs: Any) -> serializers.CharField:
    """A required text field that must not be blank; the schema says so with a pattern."""
    return serializers.RegexField(r"\S", error_messages={"invalid": "must not be blank"}, **kwargs)


class StrictSerializer(serializers.Serializer):
    # Input is refused, never silently read otherwise, when it names a field the operation
    # doesn't take or gives a field a value of another JSON type than the schema says.

    def to_internal_value(self, data: Any) -> Any:
        if not isinstance(data, dict):
            raise serializers.ValidationError({"non_field_errors": ["send a JSON object"]})
        writable = [name for name, field in self.fields.items() if not field.read_only]
        errors = {
            name: [f"unknown field; this takes {', '.join(writable) or 'no fields'}"]
            for name in sorted(set(data) - set(writable))
        }
        for name in writable:
            if name in data and (problem := json_type_error(self.fields[name], data[name])):
                errors[name] = [problem]
        if errors:
            raise serializers.ValidationError(errors)
        return super().to_internal_value(data)


# --- the OpenAPI contract ---------------------------------------------------------------------


class ErrorBody(serializers.Serializer):
    code = serializers.CharField(help_text="machine-readable: invalid, not_found, conflict, throttled, ...")
    message = serializers.CharField(help_text="what is wrong and what to do next, for people")
    details = serializers.DictField(help_text="per field or per item: what was refused")


class Error(serializers.Serializer):
    error = ErrorBody()


ERRORS = {
    400: "Bad input: the error says what is wrong and where; nothing was changed.",
    403: "Not allowed: log in, or this decision or change is not yours to make.",
    404: "No such resource, or it belongs to a party or game you are not in.",
    409: "Conflict with the current state (a stale version, or already done); read it again and retry.",
    429: "Too many requests; retry after the seconds in the Retry-After header.",
}


def whole_number_parameter(name: str, description: str, maximum: int | None = None) -> OpenApiParameter:
    schema: dict[str, Any] = {"type": "integer", "minimum": 1} | ({"maximum": maximum} if maximum else {})
    return OpenApiParameter(name, schema, description=description)  # type: ignore[arg-type]


PAGE_PARAMETERS = [
    whole_number_parameter("page", "page number, from 1"),
    whole_number_parameter("page_size", "items a page, default 50", Pagination.max_page_size),
]


def page_of(item: type[serializers.Serializer], name: str) -> serializers.Serializer:
    """The schema of one page of `item`s, as `paginated` answers."""
    return inline_serializer(
        name,
        {
            "count": serializers.IntegerField(),
            "next": serializers.URLField(allow_null=True),
            "previous": serializers.URLField(allow_null=True),
            "results": item(many=True),
        },
    )


def documented(
    operation_id: str,
    summary: str,
    response: Any,
    *,
    errors: Sequence[int] = (),
    created: bool = False,
    request: Any = None,
    parameters: Sequence[OpenApiParameter] = (),
    also: dict[int, OpenApiResponse] | None = None,
    public: bool = False,
) -> Callable[[Any], Any]:
    """An operation's contract: its id and summary, what it answers (and `also`, e.g. a 304), and
    each error it can answer (always the Error object). A `public` one needs no credentials."""
    responses: dict[int, Any] = {201 if created else 200: response, **(also or {})}
    for code in errors:
        responses[code] = OpenApiResponse(Error, description=ERRORS[code])
    return extend_schema(
        operation_id=operation_id,
        summary=summary,
        request=request,
        responses=responses,
        parameters=list(parameters),
        auth=[] if public else None,
    )


# What a client does next with what an operation created: OpenAPI links, which clients and
# Schemathesis's stateful tests follow (create a party, then add its characters, log, ...).
PARTY = {"party_id": "$response.body#/id"}
CHARACTER = {"character_id": "$response.body#/id"}
SESSION = {"session_id": "$response.body#/id"}
LINKS: dict[str, dict[str, dict[str, str]]] = {
    "parties_create": {
        name: PARTY
        for name in ("parties_get", "parties_characters_create", "parties_log_append", "parties_members_invite")
    },
    "parties_import": {"parties_get": PARTY, "parties_log_list": PARTY},
    "parties_characters_create": {
        name: CHARACTER for name in ("characters_get", "characters_deck_get", "characters_deck_rebuild")
    },
    "parties_log_append": {
        "parties_log_revert": {"party_id": "$request.path.party_id", "seq": "$response.body#/event/seq"}
    },
    "play_sessions_create": {"play_sessions_get": SESSION, "play_pending_get": SESSION, "play_actions_create": SESSION},
}


def add_links(result: dict[str, Any], generator: Any, request: Any, public: bool) -> dict[str, Any]:
    """drf-spectacular post-processing hook: the LINKS above, on each creating operation's 201."""
    for item in result["paths"].values():
        for operation in item.values():
            for target, parameters in LINKS.get(operation.get("operationId"), {}).items():
                links = operation["responses"]["201"].setdefault("links", {})
                links[target] = {"operationId": target, "parameters": parameters}
    return result
