"""Long realistic answers (``tests/realistic``) and the truth corpus (``tests/truth``).

* every case is well formed (the README's schema; spans exact and unique);
* every case the auditor gets right stays right, and every case it gets wrong is listed in
  ``tests/realistic/known_failures.yaml`` with what goes wrong — a listed case that starts
  passing fails the test too, so the list is kept true;
* the truth corpus (FOMC statements, an ECB decision, Supreme Court opinions, FDA label
  sections) yields no contradicted claim or citation, in any domain;
* the per-domain precision floors of the issue hold: answer false-positive rate ≤ 0.05 and no
  contradiction on the truth corpus.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from measure.evaluation.realistic import judge, load_cases, summarise, truth_outcomes

pytestmark = pytest.mark.slow  # whole corpora: tens of seconds

ROOT = Path(__file__).resolve().parents[1]
CASES_DIR = ROOT / "realistic"
TRUTH = sorted((ROOT / "truth").glob("*.jsonl"))
KNOWN = yaml.safe_load((CASES_DIR / "known_failures.yaml").read_text(encoding="utf-8"))
KNOWN_FAILURES: dict[str, str] = KNOWN.get("known_failures") or {}
KINDS = {
    "wrong_number", "wrong_unit", "otc_rx", "frequency", "denied_interaction",
    "invented_interaction", "wrong_year", "wrong_date", "misattributed_citation",
    "fabricated_case", "impossible_citation", "nonexistent_page", "overruled", "outdated",
    "wrong_series", "wrong_entity", "other",
}  # fmt: skip
CASES = load_cases(CASES_DIR)


def test_the_set_is_large_and_balanced() -> None:
    for domain in ("medical", "finance", "legal"):
        mine = [c for c in CASES if c.domain == domain]
        assert len(mine) >= 50, domain
        assert sum(not c.errors for c in mine) >= 0.4 * len(mine), domain


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_case_is_well_formed(case) -> None:  # type: ignore[no-untyped-def]
    assert Path(case.source).parent.name == case.domain
    words = len(case.text.split())
    assert 100 <= words <= 450, words
    for e in case.errors:
        assert case.text.count(e["span"]) == 1, e["span"]
        assert e["kind"] in KINDS, e["kind"]
        assert isinstance(e.get("checkable"), bool), e
        assert e.get("truth"), e


@pytest.fixture(scope="module")
def outcomes(auditor_obj):  # type: ignore[no-untyped-def]
    return {
        c.id: judge(c, auditor_obj.audit(c.text, domain=c.domain, as_of=c.as_of)) for c in CASES
    }


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_case_outcome_is_known(case, outcomes) -> None:  # type: ignore[no-untyped-def]
    o = outcomes[case.id]
    if case.id in KNOWN_FAILURES:
        assert not o.ok, f"{case.id} now passes: remove it from known_failures.yaml"
        return
    details = [f"false contradiction: {f['text']!r} — {f['why']}" for f in o.false_contradictions]
    details += [f"missed ({e['kind']}): {e['span']!r}" for e in o.missed]
    assert o.ok, "\n".join(details)


def test_known_failures_name_real_cases() -> None:
    ids = {c.id for c in CASES}
    assert set(KNOWN_FAILURES) <= ids, set(KNOWN_FAILURES) - ids
    assert all(isinstance(v, str) and len(v) > 20 for v in KNOWN_FAILURES.values())


@pytest.mark.parametrize("domain", ["medical", "finance", "legal"])
def test_answer_false_positive_rate(domain, outcomes) -> None:  # type: ignore[no-untyped-def]
    m = summarise([o for o in outcomes.values() if o.case.domain == domain])
    assert m["answer_fpr"] <= 0.05, m


def test_truth_corpus_has_no_contradiction(auditor_obj) -> None:  # type: ignore[no-untyped-def]
    rows = truth_outcomes(
        TRUTH, lambda text, dom, day: auditor_obj.audit(text, domain=dom, as_of=day)
    )
    assert {d for d in rows} == {"finance", "legal", "medical"}
    assert all(r["passages"] > 50 for r in rows.values())
    bad = {d: r["examples"] for d, r in rows.items() if r["contradictions"]}
    assert not bad, bad
