"""``kgaudit serve`` (the REST API under uvicorn) and ``kgaudit keys`` (API key management)."""

from __future__ import annotations

import copy
import os
import tempfile
from datetime import UTC, datetime
from typing import Any

import click

from auditor.errors import UsageError
from services.cli.trail import DB_OPTION
from trail.canonical import format_timestamp

H11_MAX_HEADER_BYTES = 1_048_576


def _use_db(db_url: str | None) -> str:
    """Point the settings (and any worker processes) at ``db_url``; return the URL in use."""
    from auditor.settings import get_settings

    if db_url:
        os.environ["KGAUDIT_DATABASE_URL"] = db_url
        get_settings.cache_clear()
    return get_settings().db_url


def _use_upstream(url: str) -> None:
    """Point the settings (and any worker processes) at the gateway's upstream."""
    from auditor.settings import check_upstream_url, get_settings

    try:
        check_upstream_url(url)
    except ValueError as exc:
        raise UsageError(f"--upstream: {exc}") from None
    os.environ["KGAUDIT_GATEWAY_UPSTREAM_URL"] = url
    get_settings.cache_clear()


def _trail(db_url: str | None, *, for_workers: bool = False) -> Any:
    """The trail at ``db_url`` (default: the settings'). Only ``serve`` (``for_workers``)
    writes the URL into the environment, for its worker processes; the key commands must
    not, or a later command in the same process would silently use that database."""
    from auditor.settings import get_settings
    from trail import Trail

    url = _use_db(db_url) if for_workers else (db_url or get_settings().db_url)
    return Trail(url, durable=get_settings().trail_durable_commits)


def log_config(level: str) -> dict[str, Any]:
    """Uvicorn's logging config plus kgaudit's loggers (access log without query strings)."""
    from uvicorn.config import LOGGING_CONFIG

    cfg = copy.deepcopy(LOGGING_CONFIG)
    cfg["loggers"]["kgaudit"] = {
        "handlers": ["default"],
        "level": level.upper(),
        "propagate": False,
    }
    return cfg


@click.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=8000, show_default=True, type=click.IntRange(0, 65535))
@click.option(
    "--workers",
    default=1,
    show_default=True,
    type=click.IntRange(1, 256),
    help="Worker processes (use PostgreSQL, or SQLite on a local disk).",
)
@DB_OPTION
@click.option(
    "--migrate/--no-migrate",
    default=True,
    show_default=True,
    help="Run the trail's migrations before serving.",
)
@click.option(
    "--log-level",
    default="info",
    show_default=True,
    type=click.Choice(["critical", "error", "warning", "info", "debug"]),
)
@click.option(
    "--upstream",
    metavar="URL",
    default=None,
    help="Gateway mode: forward /v1/chat/completions to this OpenAI-compatible base URL "
    "(e.g. http://llm:8000/v1) instead of the bundled engine; its key comes from "
    "KGAUDIT_GATEWAY_UPSTREAM_KEY (docs/gateway.md).",
)
def serve_command(
    host: str,
    port: int,
    workers: int,
    db_url: str | None,
    migrate: bool,
    log_level: str,
    upstream: str | None,
) -> None:
    """Serve the REST API (OpenAPI at /docs). Keys come from 'kgaudit keys create'."""
    import uvicorn

    if upstream is not None:
        _use_upstream(upstream)
    trail = _trail(db_url, for_workers=True)
    if migrate:
        trail.migrate()
    elif not trail.schema_is_current():
        raise UsageError(
            "the trail database is not at the latest schema; run "
            "'kgaudit trail migrate' or drop --no-migrate"
        )
    trail.close()
    if workers > 1 and not os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        os.environ["PROMETHEUS_MULTIPROC_DIR"] = tempfile.mkdtemp(prefix="kgaudit-metrics-")
    # h11 (not httptools) with room for large headers: the app itself answers oversized headers
    # with 431 in the JSON error shape (max_header_bytes); only past 1 MiB does the HTTP
    # server answer, with its own plain-text 400
    uvicorn.run(
        "services.api.app:app_from_settings",
        factory=True,
        host=host,
        port=port,
        workers=workers,
        access_log=False,
        log_level=log_level,
        log_config=log_config(log_level),
        server_header=False,
        http="h11",
        h11_max_incomplete_event_size=H11_MAX_HEADER_BYTES,
    )


@click.group("keys")
def keys_group() -> None:
    """Create, list and revoke REST API keys (stored only as hashes)."""


@keys_group.command("create")
@click.option("--tenant", required=True, help="Tenant the key belongs to (created if new).")
@click.option(
    "--role",
    required=True,
    type=click.Choice(["viewer", "reviewer", "auditor", "admin"]),
    help="viewer: read; reviewer: read + review decisions; auditor: create + read; "
    "admin: also keys, tenants and reviews.",
)
@click.option("--name", default=None, help="A label to recognise the key by.")
@click.option(
    "--expires",
    default=None,
    metavar="WHEN",
    help="When the key stops working: a duration (30d, 12h, 90m, 2w), a date YYYY-MM-DD "
    "(midnight UTC) or an ISO 8601 timestamp. Default: never.",
)
@DB_OPTION
def create_key_command(
    tenant: str, role: str, name: str | None, expires: str | None, db_url: str | None
) -> None:
    """Create an API key and print it once (it cannot be shown again)."""
    from services.api.keys import KeyStore, parse_expiry

    expires_at = parse_expiry(expires) if expires is not None else None
    trail = _trail(db_url)
    trail.migrate()
    info, token = KeyStore(trail).create(tenant=tenant, role=role, name=name, expires_at=expires_at)
    click.echo(token)
    until = f", expires {info['expires_at']}" if info["expires_at"] else ""
    click.echo(
        f"key {info['id']} ({info['prefix']}) for tenant {tenant!r}, role {role}{until}; "
        "store it now: only its hash is kept.",
        err=True,
    )


@keys_group.command("list")
@click.option("--tenant", default=None, help="Only this tenant's keys.")
@DB_OPTION
def list_keys_command(tenant: str | None, db_url: str | None) -> None:
    """List keys (id, prefix, tenant, role, name, state); never the keys themselves."""
    from services.api.keys import KeyStore

    for k in KeyStore(_trail(db_url)).list(tenant=tenant):
        state = f"revoked {k['revoked_at']}" if k["revoked_at"] else "active"
        if not k["revoked_at"] and k["expires_at"]:
            expired = k["expires_at"] <= format_timestamp(datetime.now(UTC))
            state = f"{'expired' if expired else 'expires'} {k['expires_at']}"
        click.echo(
            f"{k['id']}\t{k['prefix']}\t{k['tenant']}\t{k['role']}\t{k['name'] or '-'}\t{state}"
        )


@keys_group.command("revoke")
@click.argument("key_id", type=int)
@DB_OPTION
def revoke_key_command(key_id: int, db_url: str | None) -> None:
    """Revoke the key with this id (see 'kgaudit keys list')."""
    from services.api.keys import KeyStore

    if not KeyStore(_trail(db_url)).revoke(key_id):
        raise UsageError(f"no active API key with id {key_id}")
    click.echo(f"key {key_id} revoked")


__all__ = ["keys_group", "log_config", "serve_command"]
