"""Run every rule's declared examples through the auditor (used by tests and ``rules validate``)."""

from __future__ import annotations

from auditor.pipeline import Auditor
from rules.loader import RuleSet


def example_outcomes(
    rs: RuleSet, auditor: Auditor | None = None
) -> list[tuple[str, str, str, bool]]:
    """``(rule id, "fires"|"passes", example text, behaved as declared)`` for every example."""
    if auditor is None:
        from auditor.settings import get_settings
        from knowledge_graphs import load_graphs

        s = get_settings()
        auditor = Auditor(load_graphs(cache_dir=s.kg_cache_dir, extra_sources=s.graphs), rs)
    out = []
    for pack in rs.packs:
        for rule in pack.rules:
            for kind in ("fires", "passes"):
                for text in getattr(rule.examples, kind):
                    res = auditor.audit(text, domain=pack.domain, as_of=rule.examples.as_of)
                    fired = any(
                        c.rule_id == rule.id and c.verdict == "contradicted" for c in res.claims
                    )
                    out.append((rule.id, kind, text, fired if kind == "fires" else not fired))
    return out


def run_examples(rs: RuleSet, auditor: Auditor | None = None) -> list[str]:
    """One line per example that does not behave as declared."""
    return [
        f"{rid}: '{kind}' example did not behave as declared: {text!r}"
        for rid, kind, text, ok in example_outcomes(rs, auditor)
        if not ok
    ]
