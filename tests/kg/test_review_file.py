"""docs/knowledge-review.md is generated from the graphs and must be up to date."""

from __future__ import annotations

from knowledge_graphs.review import LIMIT, REVIEW_PATH, render, select


def test_review_file_is_up_to_date(kb):
    assert REVIEW_PATH.read_text(encoding="utf-8") == render(kb), (
        "docs/knowledge-review.md is stale: run `python -m knowledge_graphs.review --write`"
    )


def test_review_covers_every_family_and_stops_at_the_limit(kb):
    rows = select(kb)
    assert len(rows) == LIMIT
    families = {fam for fam, _ in rows}
    assert families == {
        "current policy rate",
        "narrow-margin dose",
        "overruling",
        "contraindication",
    }
    assert all(f.source.document and f.source.url for _, f in rows)


def test_conditional_contraindications_show_their_condition(kb):
    text = render(kb)
    assert "Aliskiren + Benazepril: contraindicated (only in patients with diabetes)" in text
