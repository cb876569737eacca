"""Which upstream, policy and default domain a tenant's chat request gets."""

from __future__ import annotations

from dataclasses import dataclass, field
from urllib.parse import urlsplit, urlunsplit

from auditor.settings import GatewayDomain, GatewayPolicy, Settings


@dataclass(frozen=True)
class TenantRoute:
    """A tenant's resolved gateway settings. ``upstream_url`` None: the bundled engine."""

    policy: GatewayPolicy
    domain: GatewayDomain
    timeout_s: float
    upstream_url: str | None = None
    upstream_key: str | None = field(default=None, repr=False)  # never in a repr or a log

    @property
    def upstream_name(self) -> str:
        """The upstream as it may be recorded and shown: no credentials, query or fragment."""
        return public_url(self.upstream_url) if self.upstream_url else "engine"


def public_url(url: str) -> str:
    """``url`` without user info, query or fragment (where a key could hide).

    >>> public_url("https://user:sk-1@llm.example/v1?key=sk-1")
    'https://llm.example/v1'
    """
    parts = urlsplit(url)
    host = parts.hostname or ""
    netloc = f"{host}:{parts.port}" if parts.port else host
    return urlunsplit((parts.scheme, netloc, parts.path, "", ""))


def tenant_route(settings: Settings, tenant: str) -> TenantRoute:
    """The tenant's entry in ``gateway_tenants`` over the ``gateway_*`` defaults."""
    own = settings.gateway_tenants.get(tenant)
    if own is not None and own.upstream_url:  # the server's key never goes to another host
        url, secret = own.upstream_url, own.upstream_key
    else:
        url, secret = settings.gateway_upstream_url, settings.gateway_upstream_key
    return TenantRoute(
        policy=(own and own.policy) or settings.gateway_policy,
        domain=(own and own.domain) or settings.gateway_domain,
        timeout_s=settings.gateway_timeout_s,
        upstream_url=url.rstrip("/") if url else None,
        upstream_key=secret.get_secret_value() if secret is not None else None,
    )
