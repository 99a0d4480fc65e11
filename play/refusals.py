"""Engine errors in the site's error shape."""

from __future__ import annotations

from http import HTTPStatus

from pacg_site.errors import DomainError

from .engine.errors import EngineError


class EngineRefusal(DomainError):
    """An engine error, in the site's error shape, with the rule it comes from."""

    def __init__(self, error: EngineError):
        super().__init__(error.message, details={"rule": error.rule, **error.details}, code=error.code)
        self.status_code = {
            "not_your_decision": HTTPStatus.FORBIDDEN,
            "stale_version": HTTPStatus.CONFLICT,
            "game_over": HTTPStatus.CONFLICT,
        }.get(error.code, HTTPStatus.BAD_REQUEST)
