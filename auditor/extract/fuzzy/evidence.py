"""What a fuzzy link leaves on the claims built on it: the score and an evidence item."""

from __future__ import annotations

from collections.abc import Sequence

from auditor.types import Claim, Mention
from knowledge_graphs.store import KnowledgeBase


def annotate_claims(
    claims: Sequence[Claim], mentions: Sequence[Mention], kb: KnowledgeBase
) -> None:
    """Record fuzzy links on the claims built on them: ``fuzzy_score`` and an evidence item."""
    fuzzy = list({(m.start, m.end, m.candidates): m for m in mentions if m.fuzzy_score}.values())
    if not fuzzy:
        return
    for c in claims:
        used = [
            m
            for m in fuzzy
            if {c.subject, c.object} & set(m.candidates)
            and (c.start <= m.start < c.end or c.fuzzy_score == m.fuzzy_score)
        ]
        if not used:
            continue
        c.fuzzy_score = min(m.fuzzy_score or 1.0 for m in used)
        for m in reversed(used):
            eid = c.subject if c.subject in m.candidates else c.object
            ent = kb.entity(eid or "")
            label = ent.label if ent else eid
            c.evidence.insert(
                0,
                {
                    "role": "fuzzy_link",
                    "mention": m.text,
                    "entity": eid,
                    "score": m.fuzzy_score,
                    "statement": f"“{m.text}” read as {label} "
                    f"(fuzzy match, similarity {m.fuzzy_score:.2f})",
                },
            )
