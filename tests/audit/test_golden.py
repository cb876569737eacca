"""Golden realistic answers (tests/golden/<domain>/*.yaml): every expectation holds, except the
known failures listed with their reasons in tests/golden/known_failures.yaml."""

from __future__ import annotations

from pathlib import Path

import pytest

from measure.evaluation.golden import check_case, load_golden, load_known_failures

ROOT = Path(__file__).resolve().parents[1] / "golden"
CASES = load_golden(ROOT)
KNOWN = load_known_failures(ROOT)


def test_there_are_enough_golden_cases():
    per_domain = {d: sum(c.domain == d for c in CASES) for d in ("finance", "medical", "legal")}
    assert sum(per_domain.values()) >= 60 and min(per_domain.values()) >= 20, per_domain


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_golden_case(auditor_obj, case):
    result = auditor_obj.audit(case.text, domain=case.domain, as_of=case.as_of)
    problems = check_case(case, result)
    keys = {p.split(": ", 1)[0] for p in problems}
    unexpected = [p for p in problems if p.split(": ", 1)[0] not in KNOWN]
    assert not unexpected, "\n".join(unexpected)
    mine = {k for k in KNOWN if k == case.id or k.startswith(case.id + "#")}
    fixed = mine - keys
    assert not fixed, (
        f"known failures now pass, remove them from known_failures.yaml: {sorted(fixed)}"
    )
