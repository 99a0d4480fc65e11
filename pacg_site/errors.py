"""Refusals a user can act on, raised by services, selectors and the campaign log. Free of the
REST framework on purpose: the API's exception handler (pacg_site/api.py) turns each into the
one error shape with its HTTP status; pages show its message."""

from __future__ import annotations

from http import HTTPStatus
from typing import Any


class DomainError(Exception):
    """Subclasses set the code and HTTP status."""

    code = "invalid"
    status_code: int = HTTPStatus.BAD_REQUEST

    def __init__(self, message: str, *, details: dict[str, Any] | None = None, code: str | None = None):
        super().__init__(message)
        self.message = message
        self.details = details or {}
        if code:
            self.code = code


class NotFoundError(DomainError):
    code = "not_found"
    status_code = HTTPStatus.NOT_FOUND


class ConflictError(DomainError):
    code = "conflict"
    status_code = HTTPStatus.CONFLICT


class Forbidden(DomainError):
    code = "forbidden"
    status_code = HTTPStatus.FORBIDDEN
