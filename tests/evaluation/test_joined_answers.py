"""Two clean answers joined into one text must yield no contradiction.

Real answers move between topics (an ECB summary, then the Fed's 2020 cuts; one drug, then
another); a topic carried across that seam binds a true value to the wrong subject. Every
clean case of tests/realistic (no labelled error, judged at 2025-09-01) is true on its own, so
any contradiction in a joined pair is a false alarm. 40 seeded pairs per domain.
"""

from __future__ import annotations

import itertools
import random
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1] / "realistic"


def _clean(domain: str) -> list[tuple[str, str]]:
    out = []
    for f in sorted((ROOT / domain).glob("*.yaml")):
        d = yaml.safe_load(f.read_text(encoding="utf-8"))
        if not d.get("errors") and str(d.get("as_of")) == "2025-09-01":
            out.append((d["id"], d["text"]))
    return out


@pytest.mark.slow
@pytest.mark.parametrize("domain", ["finance", "legal", "medical"])
def test_joined_clean_answers_yield_no_contradiction(auditor_obj, domain: str):
    items = _clean(domain)
    assert len(items) >= 10
    pairs = list(itertools.permutations(items, 2))
    random.Random(7).shuffle(pairs)
    bad = []
    for (a, ta), (b, tb) in pairs[:40]:
        res = auditor_obj.audit(ta + "\n\n" + tb, domain=domain, as_of="2025-09-01")
        bad += [(a, b, c.text[:80], c.reason[:120]) for c in res.claims
                if c.verdict == "contradicted"]  # fmt: skip
    assert not bad, bad
