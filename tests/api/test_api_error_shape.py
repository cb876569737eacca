"""Every 4xx/5xx response has exactly the one error shape (pinned here for each status)."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from typing import Any

import jsonschema
import pytest

BODY = {
    "text": "Adults should not take more than 4,000 mg of acetaminophen a day.",
    "domain": "medical",
}


def _slow(*args: Any, **kwargs: Any) -> Any:
    time.sleep(0.4)


def _broken(*args: Any, **kwargs: Any) -> Any:
    raise RuntimeError("bug")


def _unavailable(*args: Any, **kwargs: Any) -> Any:
    raise ImportError("auditor.pipeline")


# (id, app overrides, who, method, path, body, expected status)
CASES: list[tuple[str, dict[str, Any], str | None, str, str, Any, int]] = [
    ("401-no-key", {}, None, "GET", "/v1/audits", None, 401),
    ("403-role", {}, "acme-viewer", "POST", "/v1/audits", BODY, 403),
    (
        "404-audit",
        {},
        "acme-viewer",
        "GET",
        "/v1/audits/00000000-0000-0000-0000-000000000000",
        None,
        404,
    ),
    ("404-route", {}, "acme-viewer", "GET", "/v2/nothing", None, 404),
    ("405-method", {}, "acme-viewer", "PUT", "/v1/audits", None, 405),
    (
        "413-body",
        {"max_body_bytes": 1024},
        "acme-auditor",
        "POST",
        "/v1/audits",
        {**BODY, "text": "x" * 4096},
        413,
    ),
    ("422-validation", {}, "acme-auditor", "POST", "/v1/audits", {"text": 1}, 422),
    ("400-json", {}, "acme-auditor", "POST", "/v1/audits", b"{not json", 400),
    ("422-query", {}, "acme-viewer", "GET", "/v1/audits?limit=0", None, 422),
    ("429-rate", {"rate_limit_per_minute": 1}, "acme-viewer", "GET", "/v1/audits", None, 429),
    ("500-bug", {"audit_fn": _broken}, "acme-auditor", "POST", "/v1/audits", BODY, 500),
    ("503-auditor", {"audit_fn": _unavailable}, "acme-auditor", "POST", "/v1/audits", BODY, 503),
    ("503-no-checkpoint-key", {}, "operator", "POST", "/v1/trail/checkpoints", None, 503),
    (
        "504-timeout",
        {"audit_fn": _slow, "request_timeout_s": 0.1},
        "acme-auditor",
        "POST",
        "/v1/audits",
        BODY,
        504,
    ),
]


@pytest.mark.parametrize(
    ("overrides", "who", "method", "path", "body", "status"),
    [c[1:] for c in CASES],
    ids=[c[0] for c in CASES],
)
def test_error_shape(
    make_api: Callable[..., Any],
    overrides: dict,
    who: str | None,
    method: str,
    path: str,
    body: Any,
    status: int,
) -> None:
    api = make_api(**overrides)
    headers = api.auth(who) if who else {}
    kw: dict[str, Any] = {"content": body} if isinstance(body, bytes) else {"json": body}
    if isinstance(body, bytes):
        headers["Content-Type"] = "application/json"
    r = None
    for _ in range(2 if status == 429 else 1):
        r = api.client.request(method, path, headers=headers, **kw)
    assert r is not None and r.status_code == status, r.text
    assert r.headers["content-type"] == "application/json"
    payload = r.json()
    assert set(payload) == {"error"}
    err = payload["error"]
    assert set(err) - {"details"} == {"code", "message", "request_id"}
    assert re.fullmatch(r"[a-z_]+", err["code"])
    assert err["message"] and "\n" not in err["message"] and "Traceback" not in err["message"]
    assert err["request_id"] == r.headers["X-Request-ID"]
    _error_validator(api.client.app).validate(payload)


_VALIDATORS: dict[str, Any] = {}


def _error_validator(app: Any) -> Any:
    """A validator for the OpenAPI ``ErrorResponse`` schema, built (and the schema checked)
    once: every app serves the same document, and building it takes about a second."""
    if "error" not in _VALIDATORS:
        spec = app.openapi()
        schema = {
            **spec["components"]["schemas"]["ErrorResponse"],
            "components": spec["components"],
        }
        resolved = _resolve(schema, spec)
        cls = jsonschema.validators.validator_for(resolved)
        cls.check_schema(resolved)
        _VALIDATORS["error"] = cls(resolved)
    return _VALIDATORS["error"]


def _resolve(schema: dict, spec: dict) -> dict:
    """Inline ``#/components/schemas`` references so jsonschema can validate standalone."""
    return {**schema, "$defs": spec["components"]["schemas"]} | {
        "properties": {k: _fix(v) for k, v in schema["properties"].items()}
    }


def _fix(node: Any) -> Any:
    if isinstance(node, dict):
        return {
            k: (v.replace("#/components/schemas/", "#/$defs/") if k == "$ref" else _fix(v))
            for k, v in node.items()
        }
    if isinstance(node, list):
        return [_fix(v) for v in node]
    return node


def test_client_request_id_is_echoed_when_safe(api: Any) -> None:
    r = api.client.get("/v1/audits", headers={"X-Request-ID": "trace-123"})
    assert r.json()["error"]["request_id"] == "trace-123"
    r = api.client.get("/v1/audits", headers={"X-Request-ID": "bad id\twith spaces"})
    assert r.json()["error"]["request_id"] != "bad id\twith spaces"
