"""An expired API key cannot sign in to the review UI, and ends a session it opened."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

from services.api.keys import KeyStore
from trail.models import ApiKey


def _expire(workbench, name: str) -> None:
    (key,) = [k for k in KeyStore(workbench.trail).list(tenant="acme") if k["name"] == name]
    with workbench.trail.session() as s:
        s.get(ApiKey, key["id"]).expires_at = datetime.now(UTC) - timedelta(seconds=1)


def test_an_expiring_key_ends_its_session(workbench) -> None:
    workbench.login("acme-reviewer")
    assert workbench.client.get("/review").status_code == 200
    _expire(workbench, "acme-reviewer")
    assert workbench.client.get("/review", follow_redirects=False).status_code == 303


def test_an_expired_key_is_told_so_at_sign_in(workbench) -> None:
    _expire(workbench, "acme-reviewer")
    page = workbench.client.get("/review/login")
    token = re.search(r'name="csrf" value="([^"]+)"', page.text).group(1)
    r = workbench.client.post(
        "/review/login",
        data={"csrf": token, "api_key": workbench.tokens["acme-reviewer"]},
        follow_redirects=False,
    )
    assert r.status_code == 401
    assert "The API key expired at " in r.text
