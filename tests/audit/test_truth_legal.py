"""Truth corpus: Supreme Court opinion passages (``tests/truth/legal.jsonl``, a copy of the
shared reference data), each audited at its own date, must not contradict anything."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # whole corpora: tens of seconds

CORPUS = Path(__file__).resolve().parents[1] / "truth" / "legal.jsonl"


@pytest.fixture(scope="module")
def audited(auditor_obj):
    rows = [json.loads(line) for line in CORPUS.read_text(encoding="utf-8").splitlines()]
    return [(r, auditor_obj.audit(r["text"], domain="legal", as_of=r["as_of"])) for r in rows]


def test_no_citation_in_the_opinions_is_contradicted(audited):
    bad = [
        f"{r['id']}: {c.text} — {c.detail}"
        for r, res in audited
        for c in res.citations
        if c.outcome == "contradicted"
    ]
    assert bad == []
    checked = sum(1 for _, res in audited for c in res.citations if c.outcome == "verified")
    assert checked > 500  # the passages do get checked, not merely skipped


def test_no_claim_in_the_opinions_is_contradicted(audited):
    bad = [
        f"{r['id']}: {c.text} — {c.reason}"
        for r, res in audited
        for c in res.claims
        if c.verdict == "contradicted"
    ]
    assert bad == []
