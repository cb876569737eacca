"""Optional online check of citations no offline source holds: CourtListener's citation-lookup
API (v4), used only when a token is configured (``KGAUDIT_COURTLISTENER_TOKEN``).

Request (documented at https://www.courtlistener.com/help/api/rest/citation-lookup/):
``POST <url>`` with form fields ``volume``, ``reporter``, ``page`` and the header
``Authorization: Token <token>``. Response: a JSON list with one object per citation,
``{"citation", "normalized_citations", "start_index", "end_index", "status",
"error_message", "clusters": [{"case_name", "date_filed", "absolute_url", ...}]}`` where
``status`` is 200 (found), 300 (several cases), 404 (not found), 400 (unknown reporter) or
429 (too many citations).

Verdicts: found and the written name matches a returned case → ``verified`` (``online``);
found but every returned case has another name → ``contradicted`` (``misattributed``:
CourtListener has been reported to answer "found" when only volume and page match, so the
name is always compared); anything else (not found, throttled, an error) → no verdict, the
citation stays ``unverified``. Answers are cached in the trail database's
``citation_lookups`` table with their retrieval time; a cached answer is never refreshed
automatically (delete the row to look again).
"""

from __future__ import annotations

import threading
from datetime import UTC, datetime
from typing import Any

from auditor.types import CitationRef
from auditor.verify.legal.names import same_case

Verdict = tuple[str, str, str, dict[str, Any] | None]


class CourtListener:
    """Looks citations up once, caches the answers, compares case names."""

    def __init__(self, token: str, url: str, db_url: str, *, timeout_s: float = 10.0) -> None:
        from sqlalchemy import create_engine

        self.token, self.url, self.timeout_s = token, url, timeout_s
        self.engine = create_engine(db_url)
        self._lock = threading.Lock()

    def check(self, ref: CitationRef) -> Verdict | None:
        if ref.volume is None or ref.page is None or not ref.reporter:
            return None
        from sqlalchemy.exc import SQLAlchemyError

        cite = f"{ref.volume} {ref.reporter} {ref.page}"
        try:
            got = self._cached(cite) or self._fetch(ref, cite)
        except SQLAlchemyError:  # no trail schema yet ('kgaudit trail migrate'): stay offline
            return None
        if got is None:
            return None
        status, body, when = got
        return verdict(ref, cite, status, body, when)

    def _cached(self, cite: str) -> tuple[int, dict[str, Any], datetime] | None:
        from sqlalchemy import select

        from auditor.lookup_cache import CITATION_LOOKUPS as t

        with self.engine.connect() as conn:
            row = conn.execute(
                select(t.c.status, t.c.response, t.c.retrieved_at).where(t.c.cite == cite)
            ).first()
        return None if row is None else (int(row[0]), dict(row[1]), row[2])

    def _fetch(self, ref: CitationRef, cite: str) -> tuple[int, dict[str, Any], datetime] | None:
        import httpx
        from sqlalchemy.dialects import postgresql, sqlite

        from auditor.lookup_cache import CITATION_LOOKUPS

        try:
            r = httpx.post(
                self.url,
                data={"volume": str(ref.volume), "reporter": ref.reporter, "page": str(ref.page)},
                headers={"Authorization": f"Token {self.token}"},
                timeout=self.timeout_s,
            )
            items = r.json() if r.status_code == 200 else None
        except (httpx.HTTPError, ValueError):
            return None
        if not isinstance(items, list) or not items or not isinstance(items[0], dict):
            return None
        body, status = items[0], int(items[0].get("status") or 0)
        if status not in (200, 300, 404):
            return None  # throttled or refused: not an answer worth keeping
        when = datetime.now(UTC)
        values = {"cite": cite, "status": status, "response": body, "retrieved_at": when}
        dialect = postgresql if self.engine.dialect.name == "postgresql" else sqlite
        stmt = dialect.insert(CITATION_LOOKUPS).values(**values)
        with self._lock, self.engine.begin() as conn:
            conn.execute(stmt.on_conflict_do_nothing(index_elements=["cite"]))
        return status, body, when


def verdict(
    ref: CitationRef, cite: str, status: int, body: dict[str, Any], when: datetime
) -> Verdict | None:
    """The verdict a CourtListener answer supports (``None``: none)."""
    clusters = [c for c in body.get("clusters") or [] if isinstance(c, dict)]
    if status not in (200, 300) or not clusters:
        return None
    stamp = when.date().isoformat()
    first = clusters[0]
    case = {
        "name": first.get("case_name"),
        "citation": cite,
        "decided": first.get("date_filed"),
        "url": "https://www.courtlistener.com" + str(first.get("absolute_url") or ""),
        "source": f"CourtListener citation lookup, retrieved {stamp}",
    }
    if not ref.case_name:
        return "verified", "online", f"CourtListener has {first.get('case_name')} at {cite}", case
    named = [c for c in clusters if same_case(ref.case_name, str(c.get("case_name") or ""))]
    if named:
        case["name"] = named[0].get("case_name")
        return "verified", "online", f"CourtListener has {ref.case_name} at {cite}", case
    names = "; ".join(str(c.get("case_name")) for c in clusters[:3])
    why = f"CourtListener has {names} at {cite} (retrieved {stamp}), not {ref.case_name}"
    return "contradicted", "misattributed", why, case


__all__ = ["CourtListener", "verdict"]
