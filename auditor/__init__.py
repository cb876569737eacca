"""kgaudit's auditor: extract claims, verify them against the graphs, score, record.

>>> from auditor import audit
>>> result = audit("Adults should not take more than 4,000 mg of acetaminophen a day.",
...                domain="medical")                                     # doctest: +SKIP
>>> result.to_dict()["claims"][0]["verdict"]                             # doctest: +SKIP
'supported'
"""

from __future__ import annotations

from datetime import date
from typing import TYPE_CHECKING

from auditor.errors import DataError, GateFailed, KgauditError, SourceUnavailable, UsageError
from auditor.types import AuditResult, CitationCheck, Claim
from auditor.version import AUDITOR_VERSION, __version__

if TYPE_CHECKING:
    from auditor.pipeline import Auditor


def get_auditor() -> Auditor:
    """The process-wide auditor built from the settings (graphs and rule packs loaded once)."""
    from auditor.pipeline import default_auditor

    return default_auditor()


def audit(
    text: str,
    *,
    domain: str,
    as_of: str | date | None = None,
    citations: list[str] | None = None,
) -> AuditResult:
    """Audit ``text`` against the ``domain`` graph (``finance``, ``medical``, ``legal`` or ``auto``).

    Claims are judged at ``as_of`` (default: today). ``citations`` are extra citations the
    caller wants checked (e.g. the sources an LLM listed). Deterministic: the same text,
    graph snapshot and rule packs give byte-identical ``to_dict()`` output.
    """
    return get_auditor().audit(text, domain=domain, as_of=as_of, citations=citations)


__all__ = [
    "AUDITOR_VERSION",
    "AuditResult",
    "CitationCheck",
    "Claim",
    "DataError",
    "GateFailed",
    "KgauditError",
    "SourceUnavailable",
    "UsageError",
    "__version__",
    "audit",
    "get_auditor",
]
