"""Gateway mode: ``/v1/chat/completions`` in front of any OpenAI-compatible upstream.

The request is forwarded (plain or streamed), the final answer audited and recorded in the
trail, and the tenant's policy (``annotate``, ``block``, ``review``) applied; upstream
failures become 502 / 504. See docs/gateway.md.
"""

from services.gateway.config import TenantRoute, public_url, tenant_route
from services.gateway.policy import BLOCKED, DELIVERED, REVIEW, Decision, decide
from services.gateway.relay import Relay, completion_events
from services.gateway.service import Gateway, Who
from services.gateway.upstream import GatewayError, UpstreamError

__all__ = [
    "BLOCKED",
    "DELIVERED",
    "REVIEW",
    "Decision",
    "Gateway",
    "GatewayError",
    "Relay",
    "TenantRoute",
    "UpstreamError",
    "Who",
    "completion_events",
    "decide",
    "public_url",
    "tenant_route",
]
