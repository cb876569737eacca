"""Regression tests of the outside-in probe (issue 14), in-process: metadata limits and
robust reads (2), out-of-range values (8), failed-authentication limit (12), bounded metrics
(13), oversized headers (15), and the audit deadline that frees the worker (1)."""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import update

from auditor.deadline import check
from trail.models import Audit
from trail.queries import encode_cursor
from trail.testing import fake_audit

BODY = {"text": "Adults can take up to 4,000 mg of acetaminophen a day.", "domain": "medical"}


def _nested(levels: int) -> Any:
    value: Any = 1
    for _ in range(levels):
        value = {"a": value}
    return value


@pytest.mark.parametrize(
    ("metadata", "fragment"),
    [
        ({"x": _nested(300)}, "nested deeper"),
        ({f"k{i}": i for i in range(1_001)}, "more than 1000 keys"),
        ({"blob": "x" * 70_000}, "bytes of JSON"),
        ({"n": 2**60}, "2^53"),
    ],
    ids=["deep", "keys", "size", "big-int"],
)
def test_metadata_is_bounded_on_the_way_in(
    api: Any, metadata: dict[str, Any], fragment: str
) -> None:
    r = api.client.post(
        "/v1/audits", json={**BODY, "metadata": metadata}, headers=api.auth("acme-auditor")
    )
    assert r.status_code == 422 and r.json()["error"]["code"] == "invalid_metadata", r.text
    assert fragment in r.json()["error"]["message"]
    assert api.trail.count() == 0


def test_a_body_nested_past_the_parser_is_4xx_not_500(api: Any) -> None:
    raw = (
        '{"text": "t", "domain": "medical", "metadata": {"x": '
        + "[" * 100_000
        + "]" * 100_000
        + "}}"
    )
    r = api.client.post(
        "/v1/audits",
        content=raw,
        headers={**api.auth("acme-auditor"), "Content-Type": "application/json"},
    )
    assert r.status_code in (400, 422) and "error" in r.json()


def test_lists_survive_metadata_stored_before_the_limits(api: Any) -> None:
    ok = api.client.post("/v1/audits", json=BODY, headers=api.auth("acme-auditor"))
    assert ok.status_code == 201
    with api.trail.session(write=True) as s:  # what the old code accepted (256-990 levels)
        s.execute(update(Audit).values(meta={"x": _nested(300)}))
    listed = api.client.get("/v1/audits", headers=api.auth("acme-viewer"))
    assert listed.status_code == 200, listed.text
    assert "_withheld" in listed.json()["items"][0]["metadata"]
    one = api.client.get(f"/v1/audits/{ok.json()['id']}", headers=api.auth("acme-viewer"))
    assert one.status_code == 200 and "_withheld" in one.json()["metadata"]


@pytest.mark.parametrize(
    "query",
    [
        f"cursor={encode_cursor(2**63)}",
        f"cursor={encode_cursor(10**19)}",
        "end=9999-12-31",
        "start=0001-01-01T00:00:00%2B14:00",
    ],
    ids=["cursor-2^63", "cursor-19-digits", "end-max", "start-before-year-1"],
)
def test_out_of_range_values_are_422(api: Any, query: str) -> None:
    r = api.client.get(f"/v1/audits?{query}", headers=api.auth("acme-viewer"))
    assert r.status_code == 422 and set(r.json()["error"]) >= {"code", "message"}, r.text


def _with_graph_cache(make_api: Callable[..., Any]) -> Any:
    """An API whose home holds the built graphs (reports load them; a fresh home rebuilds)."""
    home = os.environ.get("KGAUDIT_HOME")
    return make_api(**({"home": Path(home)} if home else {}), request_timeout_s=300)


def test_reports_over_the_whole_calendar_are_422(make_api: Callable[..., Any]) -> None:
    api = _with_graph_cache(make_api)
    api.client.post("/v1/audits", json=BODY, headers=api.auth("acme-auditor"))
    r = api.client.get("/v1/reports?from=0001-01-01&to=9999-12-31", headers=api.auth("acme-viewer"))
    assert r.status_code == 422 and "out of range" in r.json()["error"]["message"]


def test_failed_authentications_are_limited_per_address(make_api: Callable[..., Any]) -> None:
    api = make_api(auth_failures_per_minute=5)
    bad = {"Authorization": "Bearer kga_000000000000_wrong"}
    codes = [api.client.get("/v1/audits", headers=bad).status_code for _ in range(7)]
    assert codes == [401] * 5 + [429] * 2
    blocked = api.client.get("/v1/audits", headers=api.auth("acme-viewer"))
    assert blocked.status_code == 429 and int(blocked.headers["Retry-After"]) >= 1
    assert blocked.json()["error"]["code"] == "rate_limited"


def test_made_up_methods_do_not_grow_the_metrics(api: Any) -> None:
    for i in range(20):
        api.client.request(f"PROBE{i}", "/v1/audits")
    text = api.client.get("/metrics").text
    assert "PROBE" not in text and 'method="OTHER"' in text


def test_oversized_headers_get_the_json_error_shape(api: Any) -> None:
    r = api.client.get("/v1/audits", headers={**api.auth("acme-viewer"), "X-Big": "x" * 100_000})
    assert r.status_code == 431 and r.json()["error"]["code"] == "headers_too_large"


def test_an_audit_past_its_time_limit_frees_the_worker(make_api: Callable[..., Any]) -> None:
    calls: list[str] = []

    def slow_until_checked(text: str, **kw: Any) -> Any:
        calls.append(text)
        if text == "slow":
            while True:  # a long audit: stops at the next deadline check
                time.sleep(0.01)
                check()
        return fake_audit(text, **kw)

    api = make_api(audit_fn=slow_until_checked, audit_timeout_s=0.3)
    r = api.client.post(
        "/v1/audits", json={**BODY, "text": "slow"}, headers=api.auth("acme-auditor")
    )
    assert r.status_code == 504 and "nothing was recorded" in r.json()["error"]["message"]
    fast = api.client.post("/v1/audits", json=BODY, headers=api.auth("acme-auditor"))
    assert fast.status_code == 201  # the single audit slot was released
    assert api.trail.count() == 1 and calls == ["slow", BODY["text"]]
    assert json.loads(fast.text)["source"] == "api"


def test_report_integrity_names_no_other_tenants_audit(make_api: Callable[..., Any]) -> None:
    """Issue 14, finding 5: the integrity section quoted another tenant's audit id."""
    from datetime import UTC, datetime

    api = _with_graph_cache(make_api)
    mine = api.client.post("/v1/audits", json=BODY, headers=api.auth("acme-auditor"))
    theirs = api.client.post("/v1/audits", json=BODY, headers=api.auth("beta-auditor"))
    assert mine.status_code == theirs.status_code == 201
    with api.trail.session(write=True) as s:  # beta's record is altered
        s.execute(update(Audit).where(Audit.seq == 2).values(fer=0.99))
    day = datetime.now(UTC).date().isoformat()
    r = api.client.get(f"/v1/reports?from={day}&to={day}", headers=api.auth("acme-viewer"))
    assert r.status_code == 200 and r.json()["integrity"]["chain_verified"] is False
    assert theirs.json()["id"] not in r.text and "seq 2" in r.json()["integrity"]["statement"]


def test_a_raised_metadata_limit_holds_end_to_end(make_api: Callable[..., Any]) -> None:
    """100 KB of metadata under ``max_metadata_bytes=200_000``: the route and the trail read
    the same limit from the settings, so the audit is stored (issue 29: the trail refused it
    with a hard-coded 65,536 after the audit had run)."""
    api = make_api(max_metadata_bytes=200_000)
    meta = {"blob": "x" * 100_000}
    r = api.client.post(
        "/v1/audits", json={**BODY, "metadata": meta}, headers=api.auth("acme-auditor")
    )
    assert r.status_code == 201, r.text
    stored = api.client.get(f"/v1/audits/{r.json()['id']}", headers=api.auth("acme-auditor"))
    assert stored.json()["metadata"] == meta and api.trail.verify().ok


def test_metadata_over_the_default_limit_is_refused_before_the_audit(
    make_api: Callable[..., Any],
) -> None:
    calls: list[str] = []

    def counting(text: str, **kw: Any) -> Any:
        calls.append(text)
        return fake_audit(text, **kw)

    api = make_api(audit_fn=counting)
    r = api.client.post(
        "/v1/audits",
        json={**BODY, "metadata": {"blob": "x" * 100_000}},
        headers=api.auth("acme-auditor"),
    )
    assert r.status_code == 422 and "limit is 65,536" in r.json()["error"]["message"]
    assert calls == [] and api.trail.count() == 0
