"""Routers of the REST API, one module per resource."""

from __future__ import annotations

from typing import Any

from services.api.schemas import ErrorResponse

_DESCRIPTIONS = {
    400: "Malformed request (e.g. a body that is not UTF-8 JSON).",
    401: "Missing, invalid or revoked API key.",
    403: "The key's role does not allow this.",
    404: "Not found (or another tenant's).",
    413: "The request body is too large.",
    422: "Invalid input.",
    429: "Rate limit of the API key exceeded; see Retry-After.",
    500: "Internal error.",
    502: "Gateway mode: the upstream failed, is unreachable, or sent a malformed answer.",
    503: "A dependency (database, auditor, graph) is unavailable.",
    504: "The request took longer than the time limit (or the upstream did not answer in time).",
}


def error_responses(*codes: int) -> dict[int | str, dict[str, Any]]:
    """OpenAPI ``responses`` entries for ``codes``, all with the one error shape."""
    return {
        c: {"model": ErrorResponse, "description": _DESCRIPTIONS[c]}
        for c in sorted({*codes, 400, 422, 500})
    }


AUTH_ERRORS = (401, 403, 429, 504)
