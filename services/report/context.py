"""What a report reads besides the trail: the graphs and rule packs it cites as sources and
the key that signs its checkpoint (shared by ``kgaudit report`` and the reports route)."""

from __future__ import annotations

from typing import Any

from auditor.errors import KgauditError


def load_context(settings: Any) -> tuple[Any, Any, str | None]:
    """Graphs and rule packs for the report's sources (None with a reason if unavailable)."""
    from knowledge_graphs import load_graphs
    from rules.loader import load_rules

    try:
        rules = load_rules(settings.rule_packs)
        kb = load_graphs(cache_dir=settings.kg_cache_dir, extra_sources=settings.graphs)
    except KgauditError as exc:
        return None, None, f"graph and rule-pack sources left out of the report: {exc}"
    return kb, rules, None


def checkpoint_key(settings: Any) -> bytes | None:
    secret = settings.checkpoint_key
    return secret.get_secret_value().encode("utf-8") if secret is not None else None
