"""The one ``Settings`` object read by the API, the CLI, batch jobs and Alembic's ``env.py``.

Sources, highest priority first: keyword arguments, ``KGAUDIT_*`` environment variables
(nested keys with ``__``, lists and maps as JSON), a YAML file named by ``KGAUDIT_CONFIG``,
then the defaults below. Example ``kgaudit.yaml``::

    database_url: postgresql+psycopg://kgaudit@db/kgaudit
    graphs:
      medical: [/srv/kg/formulary.ttl]
      finance: [https://sparql.example.org/query]
    rule_packs: [/srv/rules/house-rules.yaml]

Gateway mode (docs/gateway.md): ``gateway_upstream_url`` sends ``/v1/chat/completions`` to an
OpenAI-compatible upstream instead of the bundled engine; ``gateway_tenants`` sets a tenant's
policy, default domain and upstream::

    gateway_upstream_url: https://llm.internal/v1
    gateway_tenants:
      acme: {policy: block, domain: medical}

Secrets (``checkpoint_key``, ``operator_key``, ``tree_key``, ``review_session_secret``,
``gateway_upstream_key``) are ``SecretStr`` and never printed or logged.
"""

from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, SecretStr, field_validator
from pydantic_settings import BaseSettings, PydanticBaseSettingsSource, SettingsConfigDict


def _default_home() -> Path:
    home = os.environ.get("KGAUDIT_HOME")
    return Path(home) if home else Path.home() / ".cache" / "kgaudit"


def check_upstream_url(url: str | None) -> str | None:
    """An upstream base URL: http(s), a host, no credentials or query (keys go in settings)."""
    if url is None:
        return None
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValueError("the upstream must be an http(s) base URL such as http://llm:8000/v1")
    if parts.username or parts.password or parts.query:
        raise ValueError("the upstream URL must not carry credentials or a query; set its key")
    return url


GatewayPolicy = Literal["annotate", "block", "review"]
GatewayDomain = Literal["finance", "medical", "legal", "auto"]


class GatewayTenant(BaseModel):
    """One tenant's gateway settings; an unset field falls back to the ``gateway_*`` default."""

    model_config = ConfigDict(extra="forbid", hide_input_in_errors=True)  # may hold a key

    policy: GatewayPolicy | None = Field(
        default=None,
        description="annotate: deliver with the audit; block: replace an answer with a "
        "contradicted claim by a refusal; review: deliver, and mark the audit for review.",
    )
    domain: GatewayDomain | None = Field(
        default=None, description="Domain audited when the request names none."
    )
    upstream_url: str | None = Field(
        default=None, description="This tenant's upstream (base URL ending in /v1)."
    )
    upstream_key: SecretStr | None = Field(
        default=None, description="Bearer key sent to this tenant's upstream."
    )

    _check_url = field_validator("upstream_url")(classmethod(lambda cls, v: check_upstream_url(v)))


class Settings(BaseSettings):
    model_config = SettingsConfigDict(
        env_prefix="KGAUDIT_",
        env_nested_delimiter="__",
        extra="forbid",
        hide_input_in_errors=True,  # a refused URL or key is never echoed into a log
    )

    home: Path = Field(
        default_factory=_default_home, description="State directory (cache, SQLite)."
    )
    database_url: str | None = Field(
        default=None,
        description="SQLAlchemy URL of the audit trail; default: SQLite file <home>/trail.db.",
    )
    graphs: dict[str, list[str]] = Field(
        default_factory=dict, description="Extra graph files or SPARQL endpoints per domain."
    )
    rule_packs: list[str] = Field(
        default_factory=list, description="Extra rule pack files/folders."
    )
    checkpoint_key: SecretStr | None = Field(
        default=None, description="HMAC key for signed trail checkpoints."
    )
    max_body_bytes: int = Field(
        default=1_048_576, ge=1024, description="Largest accepted request body."
    )
    rate_limit_per_minute: int = Field(
        default=600, ge=1, description="Requests per API key per minute."
    )
    request_timeout_s: float = Field(default=30.0, gt=0, description="Per-request time limit.")
    courtlistener_token: SecretStr | None = Field(
        default=None,
        description="CourtListener API token: when set, citations no offline source can check "
        "are looked up with CourtListener's citation-lookup API (cached in the trail "
        "database). Unset (the default): fully offline.",
    )
    courtlistener_url: str = Field(
        default="https://www.courtlistener.com/api/rest/v4/citation-lookup/",
        description="CourtListener citation-lookup endpoint (v4).",
    )
    max_text_chars: int = Field(
        default=200_000, ge=1, description="Longest text audited in one call."
    )
    trail_durable_commits: bool = Field(
        default=True,
        description="Wait for the disk on every trail append (SQLite synchronous=FULL, "
        "PostgreSQL synchronous_commit=on). Off: faster appends; a power failure may lose the "
        "last few appends, never corrupt the chain.",
    )
    audits_per_worker: int = Field(
        default=1,
        ge=1,
        description="audit() calls one API server process runs at once; the others queue. "
        "audit() is CPU-bound Python, so more threads per process only contend for the GIL "
        "(and slow the trail appends); scale with 'kgaudit serve --workers' instead.",
    )
    audit_timeout_s: float = Field(
        default=10.0,
        gt=0,
        description="Time limit of one audit() in the API, batch and chat (checked between "
        "sentences; the request gets 504, a batch record an error line, and the worker is free "
        "again). Keep it below request_timeout_s.",
    )
    max_metadata_bytes: int = Field(
        default=65_536, ge=2, description="Largest metadata object stored with an audit (JSON)."
    )
    max_metadata_depth: int = Field(
        default=16, ge=1, le=64, description="Deepest nesting of metadata objects and arrays."
    )
    max_metadata_keys: int = Field(
        default=1_000, ge=1, description="Most keys (all levels together) in one metadata object."
    )
    max_header_bytes: int = Field(
        default=32_768,
        ge=1024,
        description="Largest total size of a request's headers; larger requests get 431 in the "
        "JSON error shape (up to 1 MiB; past that the HTTP server itself answers 400).",
    )
    max_form_bytes: int = Field(
        default=65_536,
        ge=1024,
        description="Largest form a reviewer workbench page posts (sign-in, decisions, bulk "
        "confirm); a larger one is read as empty, so its CSRF token is missing (403).",
    )
    auth_failures_per_minute: int = Field(
        default=30,
        ge=1,
        description="Failed authentications allowed per client address per minute; past that "
        "the address gets 429 without a key lookup.",
    )
    operator_key: SecretStr | None = Field(
        default=None,
        description="Bearer key of the operator role (all tenants, all keys, checkpoints, full "
        "trail verification). Never stored in the database and never issued through the API.",
    )
    checkpoint_log: Path | None = Field(
        default=None,
        description="Append-only file every signed checkpoint is also written to (outside the "
        "database); default <home>/checkpoints.jsonl. Point it at storage the database's "
        "writers cannot change.",
    )
    checkpoint_every_records: int = Field(
        default=1_000, ge=0, description="Sign a checkpoint after this many new records (0: off)."
    )
    checkpoint_every_s: float = Field(
        default=600.0,
        ge=0,
        description="Sign a checkpoint when the newest one is older than this and records were "
        "added since (0: off).",
    )
    trail_group_commit_window_ms: float = Field(
        default=0.0,
        ge=0,
        le=1000,
        description="Group commit: how long the trail's committer waits for more concurrent "
        "appends before committing a batch (0: commit what queued while the previous batch "
        "was committing). Each audit is acknowledged only after its batch is durable.",
    )
    trail_group_commit_max_batch: int = Field(
        default=64,
        ge=1,
        le=10_000,
        description="Group commit: most appends in one transaction (1: no group commit).",
    )
    tree_key: SecretStr | None = Field(
        default=None,
        description="Ed25519 private key signing Merkle tree heads (PEM, or base64 of the "
        "32-byte seed); default: the file tree_key_file when it exists.",
    )
    tree_key_file: Path | None = Field(
        default=None,
        description="PEM file of the tree signing key; default <home>/tree_key.pem "
        "('kgaudit trail tree-keygen' writes it).",
    )
    tree_head_log: Path | None = Field(
        default=None,
        description="Append-only JSON-lines file every signed tree head is written to; "
        "default <home>/tree_heads.jsonl. Keep it where the database's writers cannot write.",
    )
    tree_head_witness_url: str | None = Field(
        default=None,
        description="URL every signed tree head is POSTed to as JSON (a witness that keeps "
        "them); unset: none.",
    )
    review_session_secret: SecretStr | None = Field(
        default=None,
        description="Key (any string of 32+ characters) that signs the reviewer workbench's "
        "session cookies; unset: a random key per server process (sessions end when it "
        "restarts, and several workers do not share them).",
    )
    review_session_s: float = Field(
        default=8 * 3600.0,
        gt=0,
        description="How long a reviewer workbench sign-in lasts (seconds).",
    )
    review_cookie_secure: bool = Field(
        default=False,
        description="Mark the workbench's session cookie Secure (sent over HTTPS only); "
        "set it whenever the server is reached over HTTPS.",
    )
    review_risk_threshold: float = Field(
        default=0.5,
        ge=0.0,
        le=1.0,
        description="Unverifiable claims of answers with at least this risk need a reviewer "
        "(contradicted claims and unverified citations always do).",
    )
    api_key_cache_s: float = Field(
        default=10.0,
        ge=0,
        description="How long an API server process trusts a verified key before checking "
        "the database again; a key revoked through another process stops working within "
        "this time (0: check on every request).",
    )

    gateway_upstream_url: str | None = Field(
        default=None,
        description="Gateway mode: the OpenAI-compatible upstream (base URL, e.g. "
        "http://llm:8000/v1) that /v1/chat/completions forwards to; unset: the bundled engine "
        "answers ('kgaudit serve --upstream URL' sets it).",
    )
    gateway_upstream_key: SecretStr | None = Field(
        default=None,
        description="Bearer key sent to the upstream (KGAUDIT_GATEWAY_UPSTREAM_KEY); never "
        "logged, recorded or returned.",
    )
    gateway_timeout_s: float = Field(
        default=60.0,
        gt=0,
        description="Longest wait for the upstream (connecting, and between two pieces of a "
        "streamed answer); past it the request gets 504. Keep it below request_timeout_s.",
    )
    gateway_policy: GatewayPolicy = Field(
        default="annotate", description="Gateway policy of tenants without their own."
    )
    gateway_domain: GatewayDomain = Field(
        default="auto", description="Domain audited when neither request nor tenant names one."
    )
    gateway_tenants: dict[str, GatewayTenant] = Field(
        default_factory=dict, description="Per-tenant gateway settings (policy, domain, upstream)."
    )

    @field_validator("gateway_upstream_url")
    @classmethod
    def _check_upstream_url(cls, v: str | None) -> str | None:
        return check_upstream_url(v)

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        sources: list[PydanticBaseSettingsSource] = [init_settings, env_settings]
        config = os.environ.get("KGAUDIT_CONFIG")
        if config:
            from pydantic_settings import YamlConfigSettingsSource

            sources.append(YamlConfigSettingsSource(settings_cls, yaml_file=config))
        return tuple(sources)

    @property
    def kg_cache_dir(self) -> Path:
        return self.home / "kg"

    @property
    def checkpoint_log_path(self) -> Path:
        return self.checkpoint_log or self.home / "checkpoints.jsonl"

    @property
    def tree_key_path(self) -> Path:
        return self.tree_key_file or self.home / "tree_key.pem"

    @property
    def tree_head_log_path(self) -> Path:
        return self.tree_head_log or self.home / "tree_heads.jsonl"

    @property
    def db_url(self) -> str:
        return self.database_url or f"sqlite:///{self.home / 'trail.db'}"


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    """Process-wide settings (tests call ``get_settings.cache_clear()`` after changing env)."""
    return Settings()
