"""API keys can expire: ``kgaudit keys create --expires``, ``POST /v1/keys`` ``expires_at``;
an expired key is a 401 that says so."""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from click.testing import CliRunner

from auditor.errors import UsageError
from services.api.keys import KeyExpired, KeyStore, parse_expiry
from services.cli.main import cli

NOW = datetime(2026, 6, 1, 12, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("30d", NOW + timedelta(days=30)),
        ("12h", NOW + timedelta(hours=12)),
        ("90m", NOW + timedelta(minutes=90)),
        ("2w", NOW + timedelta(weeks=2)),
        ("2027-01-01", datetime(2027, 1, 1, tzinfo=UTC)),
        ("2027-01-01T08:00:00+02:00", datetime(2027, 1, 1, 6, tzinfo=UTC)),
        ("2027-01-01T08:00:00", datetime(2027, 1, 1, 8, tzinfo=UTC)),
    ],
    ids=["days", "hours", "minutes", "weeks", "date", "offset", "naive-utc"],
)
def test_parse_expiry(value: str, expected: datetime) -> None:
    assert parse_expiry(value, now=NOW) == expected


@pytest.mark.parametrize("value", ["soon", "30 days", "2026-05-01", "0d", "2027-02-30"])
def test_parse_expiry_refuses(value: str) -> None:
    with pytest.raises(UsageError, match="expiry"):
        parse_expiry(value, now=NOW)


def test_expired_key_is_refused_even_when_cached(trail: Any) -> None:
    store = KeyStore(trail, cache_s=3600.0)
    info, token = store.create(tenant="acme", role="viewer", expires_at=NOW.replace(year=2099))
    assert info["expires_at"] == "2099-06-01T12:00:00.000000Z"
    assert store.authenticate(token) is not None
    _, tok2 = store.create(
        tenant="acme", role="viewer", expires_at=datetime.now(UTC) + timedelta(seconds=0.3)
    )
    assert store.authenticate(tok2) is not None
    time.sleep(0.35)
    assert store.cached(tok2) is None  # the cache never outlives the key
    with pytest.raises(KeyExpired, match="expired at"):
        store.authenticate(tok2)


def test_create_refuses_a_past_expiry(trail: Any) -> None:
    with pytest.raises(UsageError, match="not in the future"):
        KeyStore(trail).create(tenant="acme", role="viewer", expires_at=NOW.replace(year=2001))


def test_expired_key_gets_401_with_a_clear_message(api: Any) -> None:
    store = KeyStore(api.trail)
    soon = datetime.now(UTC) + timedelta(seconds=0.5)
    _, token = store.create(tenant="acme", role="viewer", expires_at=soon)
    headers = {"Authorization": f"Bearer {token}"}
    assert api.client.get("/v1/audits", headers=headers).status_code == 200  # cached now
    time.sleep(max(0.0, (soon - datetime.now(UTC)).total_seconds()) + 0.05)
    r = api.client.get("/v1/audits", headers=headers)
    assert r.status_code == 401
    body = r.json()["error"]
    assert body["code"] == "unauthorized"
    assert body["message"].startswith("the API key expired at ")
    assert r.headers["WWW-Authenticate"] == "Bearer"


def test_post_keys_with_expires_at(api: Any) -> None:
    r = api.client.post(
        "/v1/keys",
        json={"tenant": "acme", "role": "viewer", "expires_at": "2099-01-01T00:00:00Z"},
        headers=api.auth("acme-admin"),
    )
    assert r.status_code == 201, r.text
    assert r.json()["expires_at"] == "2099-01-01T00:00:00.000000Z"
    r = api.client.post(
        "/v1/keys",
        json={"tenant": "acme", "role": "viewer", "expires_at": "2001-01-01"},
        headers=api.auth("acme-admin"),
    )
    assert r.status_code == 422
    assert "not in the future" in r.json()["error"]["message"]


def test_cli_keys_create_expires(db_url: str) -> None:
    runner = CliRunner()
    res = runner.invoke(
        cli,
        [
            "keys",
            "create",
            "--tenant",
            "acme",
            "--role",
            "viewer",
            "--expires",
            "30d",
            "--db",
            db_url,
        ],
    )
    assert res.exit_code == 0, res.output
    assert ", expires 20" in res.stderr
    listed = runner.invoke(cli, ["keys", "list", "--db", db_url])
    assert "\texpires 20" in listed.output
    bad = runner.invoke(
        cli,
        [
            "keys",
            "create",
            "--tenant",
            "acme",
            "--role",
            "viewer",
            "--expires",
            "soon",
            "--db",
            db_url,
        ],
    )
    assert bad.exit_code != 0


def test_key_commands_leave_the_environment_alone(db_url: str, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """`keys create --db X` in a process must not point later commands of the same process
    (or the settings) at X: only `serve` exports the URL, for its workers."""
    import os

    monkeypatch.delenv("KGAUDIT_DATABASE_URL", raising=False)
    res = CliRunner().invoke(
        cli, ["keys", "create", "--tenant", "acme", "--role", "viewer", "--db", db_url]
    )
    assert res.exit_code == 0, res.output
    assert "KGAUDIT_DATABASE_URL" not in os.environ
