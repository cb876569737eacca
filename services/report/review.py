"""The report's reviewer-adjusted figures: what reviewers decided about the period's audits.

Reviewers' decisions are the trail's review events (:mod:`trail.reviews`); the
report reads every decision on the period's audits that is in the trail when the report is
made. An item (a claim or a citation) is in one state, that of its newest confirm or
overturn (notes change nothing):

* **open** — it needs a person (a contradicted claim, a citation not ``verified``, an
  unverifiable claim of an answer whose risk is at least the review threshold) and no one
  has confirmed or overturned it;
* **confirmed** / **overturned** — its newest decision (any item can be decided, a
  ``supported`` claim too);
* **noted** — at least one note, whatever its state (so it overlaps the other three).

**FER after review** re-counts the claims with the reviewed verdict: an overturned
``contradicted`` claim counts as ``supported`` (a person checked it and it is not an error),
an overturned ``supported`` claim as ``contradicted`` (an error the graph missed), a
confirmed or undecided claim keeps its verdict. An overturned ``unverifiable`` claim stays
unverifiable — the decision says the claim could be checked, not whether it is right — so it
is outside FER and counted on its own. Citation decisions count in the items but not in FER.
So the verifiable claims (FER's denominator) are the same before and after review.

**Time to review** of a decided item is the time of its first confirm or overturn minus the
time its audit was recorded; the report gives the median over the decided items.

>>> t = ReviewTally(risk_threshold=0.5)
>>> t.add(
...     {"id": "a1", "created_at": "2026-06-01T10:00:00.000000Z",
...      "counts": {"supported": 1, "contradicted": 1, "unverifiable": 0},
...      "result": {"claims": [{"text": "x", "verdict": "supported"},
...                            {"text": "y", "verdict": "contradicted"}]}},
...     [{"item": "claim:1", "decision": "overturn", "verdict": "contradicted",
...       "created_at": "2026-06-01T10:05:00.000000Z", "reason": "the label agrees"}],
... )
>>> s = t.section()
>>> s["fer_after_review"]["pooled"], s["items"]["overturned"], s["time_to_review"]["median_s"]
(0.0, 1, 300.0)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from services.batch.summary import quantile
from trail.reviews import audit_items, item_state

MAX_OPEN_SHOWN = 200
FLIP = {"contradicted": "supported", "supported": "contradicted"}  # the overturned verdict
STATES = ("open", "confirmed", "overturned")


def _when(value: str) -> datetime:
    return datetime.fromisoformat(value.replace("Z", "+00:00"))


def _ratio(num: int, den: int) -> float | None:
    return num / den if den else None


def open_item(audit: Mapping[str, Any], st: Mapping[str, Any], notes: int = 0) -> dict[str, Any]:
    """One open item as the "needs review" list shows it: its audit, the item and its name
    (the claim's text, or the citation's text: the case name and cite)."""
    res = audit["result"]
    src = (res.get("claims") if st["kind"] == "claim" else res.get("citations")) or []
    it = src[st["idx"]] if st["idx"] < len(src) else {}
    reason = it.get("reason")
    if st["kind"] == "citation" and it.get("detail"):
        reason = it["detail"] if not reason else f"{it['detail']} ({reason})"
    return {
        "audit_id": audit["id"],
        "external_id": audit.get("external_id"),
        "domain": audit.get("domain"),
        "created_at": audit.get("created_at"),
        "item": st["item"],
        "kind": st["kind"],
        "verdict": st["verdict"],
        "text": it.get("text"),
        "rule_id": it.get("rule_id") if st["kind"] == "claim" else None,
        "reason": reason,
        "notes": notes,
    }


@dataclass
class ReviewTally:
    """Fed each audit of the period with its review decisions (oldest first)."""

    risk_threshold: float = 0.5
    max_shown: int = MAX_OPEN_SHOWN
    audits: int = 0
    audits_reviewed: int = 0  # audits with at least one decision (a note too)
    events: int = 0
    needing: int = 0  # items that needed a person, decided or not
    states: Counter[str] = field(default_factory=Counter)
    noted: int = 0
    overturned: Counter[str] = field(default_factory=Counter)  # "claim:contradicted" -> n
    checked: int = 0
    contradicted: int = 0  # contradicted claims after review
    with_contradictions: int = 0  # audits with a contradicted claim after review
    fers: list[float] = field(default_factory=list)  # per-audit FER after review
    waits: list[float] = field(default_factory=list)  # seconds to each item's first decision
    open_shown: list[dict[str, Any]] = field(default_factory=list)
    open_not_shown: int = 0

    def add(self, audit: Mapping[str, Any], reviews: Sequence[Mapping[str, Any]]) -> None:
        res = audit["result"]
        items = audit_items(res, risk_threshold=self.risk_threshold)
        state = item_state(items, reviews)
        self.audits += 1
        self.events += len(reviews)
        self.audits_reviewed += bool(reviews)
        self.needing += sum(it.needs_review for it in items)
        counts = audit["counts"]
        sup, con = int(counts["supported"]), int(counts["contradicted"])
        for st in state.values():
            status = st["status"]
            if status in STATES:
                self.states[status] += 1
            self.noted += bool(st["notes"])
            if status == "overturned":
                self.overturned[f"{st['kind']}:{st['verdict']}"] += 1
                if st["kind"] == "claim" and st["verdict"] in FLIP:
                    con += 1 if st["verdict"] == "supported" else -1
                    sup -= 1 if st["verdict"] == "supported" else -1
            elif status == "open":
                if len(self.open_shown) < self.max_shown:
                    self.open_shown.append(open_item(audit, st, len(st["notes"])))
                else:
                    self.open_not_shown += 1
        self.checked += sup + con
        self.contradicted += con
        self.with_contradictions += con > 0
        if sup + con:
            self.fers.append(con / (sup + con))
        recorded = _when(audit["created_at"])
        first: dict[str, datetime] = {}
        for r in reviews:
            if r["decision"] != "note" and r["item"] in state:
                first.setdefault(r["item"], _when(r["created_at"]))
        self.waits.extend((t - recorded).total_seconds() for t in first.values())

    def section(self) -> dict[str, Any]:
        waits = sorted(self.waits)
        return {
            "risk_threshold": self.risk_threshold,
            "events": self.events,
            "audits_reviewed": self.audits_reviewed,
            "items": {
                "needing_review": self.needing,
                **{s: self.states[s] for s in STATES},
                "noted": self.noted,
            },
            "overturned": [
                {"kind": k.split(":")[0], "verdict": k.split(":")[1], "items": n}
                for k, n in sorted(self.overturned.items())
            ],
            "fer_after_review": {
                "pooled": _ratio(self.contradicted, self.checked),
                "mean": sum(self.fers) / len(self.fers) if self.fers else None,
                "contradicted": self.contradicted,
                "checked": self.checked,
                "audits_with_contradictions": self.with_contradictions,
            },
            "time_to_review": {
                "median_s": quantile(waits, 0.5),
                "items": len(waits),
            },
            "open_items": self.open_shown,
            "open_items_not_shown": self.open_not_shown,
        }


def iter_with_reviews(
    trail: Any, audits: Iterable[dict[str, Any]], *, tenant: str, chunk: int = 500
) -> Iterable[tuple[dict[str, Any], list[dict[str, Any]]]]:
    """Each audit with its review decisions (oldest first), read ``chunk`` audits at a time."""
    from trail.records import parse_audit_id
    from trail.reviews import reviews_of

    def decided(batch: list[dict[str, Any]]) -> Iterable[tuple[dict[str, Any], list[Any]]]:
        ids = [parse_audit_id(a["id"]) for a in batch]
        found = reviews_of(trail, [i for i in ids if i is not None], tenant=tenant)
        return [(a, found.get(i, []) if i else []) for a, i in zip(batch, ids, strict=True)]

    batch: list[dict[str, Any]] = []
    for audit in audits:
        batch.append(audit)
        if len(batch) >= chunk:
            yield from decided(batch)
            batch = []
    if batch:
        yield from decided(batch)


__all__ = ["MAX_OPEN_SHOWN", "ReviewTally", "iter_with_reviews", "open_item"]
