"""API glue shared by every app: the one error shape, pagination and the API root."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.http import Http404
from rest_framework import exceptions, status
from rest_framework.pagination import PageNumberPagination
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler


class DomainError(Exception):
    """A refusal the user can act on. Subclasses set the code and HTTP status."""

    code = "invalid"
    status_code = status.HTTP_400_BAD_REQUEST

    def __init__(self, message: str, *, details: dict[str, Any] | None = None, code: str | None = None):
        super().__init__(message)
        self.message = message
        self.details = details or {}
        if code:
            self.code = code


class NotFoundError(DomainError):
    code = "not_found"
    status_code = status.HTTP_404_NOT_FOUND


class ConflictError(DomainError):
    code = "conflict"
    status_code = status.HTTP_409_CONFLICT


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
    elif isinstance(exc, exceptions.APIException):
        detail = exc.detail
        code = detail.code if hasattr(detail, "code") else exc.default_code
        response.data = error_body(str(code), _first_message(detail))
    return response


class Pagination(PageNumberPagination):
    """{count, next, previous, results}; clients may ask for up to 200 items a page."""

    page_size_query_param = "page_size"
    max_page_size = 200

    def get_page_size(self, request):  # type: ignore[no-untyped-def]
        raw = request.query_params.get(self.page_size_query_param)
        if raw is not None:
            try:
                value = int(raw)
            except ValueError:
                value = 0
            if not 1 <= value <= self.max_page_size:
                raise exceptions.ValidationError(
                    {"page_size": [f"must be a whole number from 1 to {self.max_page_size}"]}
                )
        return super().get_page_size(request)
