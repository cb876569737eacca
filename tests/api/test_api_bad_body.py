"""A body the API cannot parse is ``400 bad_request`` naming what is wrong, never a 422."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

GOOD = b'{"text": "Metformin treats type 2 diabetes.", "domain": "medical"}'

# (id, Content-Type header or None, body, words the message must hold)
CASES = [
    ("broken-json", "application/json", b'{"text": "x",', "the request body is not valid JSON"),
    ("no-header", None, GOOD, "(this request sent no Content-Type)"),
    ("broken-json-no-header", None, b"{not json", "Content-Type: application/json"),
    ("form-header", "application/x-www-form-urlencoded", GOOD, "Content-Type: application/json"),
    ("text-header", "text/plain", GOOD, "Content-Type: application/json"),
    ("not-utf8", "application/json", b'{"text": "\xff"}', "the request body is not valid JSON"),
]


@pytest.mark.parametrize(
    ("ctype", "body", "words"), [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_unparseable_body_is_400_bad_request(
    make_api: Callable[..., Any], ctype: str | None, body: bytes, words: str
) -> None:
    api = make_api()
    headers = api.auth("acme-auditor")
    if ctype is not None:
        headers["Content-Type"] = ctype
    r = api.client.post("/v1/audits", content=body, headers=headers)
    assert r.status_code == 400, r.text
    err = r.json()["error"]
    assert err["code"] == "bad_request" and words in err["message"]
    assert "details" not in err and "Metformin" not in err["message"]


def test_the_header_is_named_with_what_was_sent(make_api: Callable[..., Any]) -> None:
    api = make_api()
    headers = {**api.auth("acme-auditor"), "Content-Type": "text/plain"}
    r = api.client.post("/v1/audits", content=GOOD, headers=headers)
    assert r.json()["error"]["message"] == (
        "the request body must be JSON: send the header Content-Type: application/json "
        "(this request sent Content-Type: text/plain)"
    )
