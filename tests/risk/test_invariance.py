"""Risk and fuzzy linking never change a verdict: on texts without misspellings every audit is
byte-identical with and without them, apart from the new keys."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest

from auditor.risk import apply_operating_point, load_model
from measure.evaluation.benchmark import generate_benchmark
from measure.evaluation.golden import load_golden

NEW_KEYS = {"risk", "risk_model_version", "flagged", "flag_threshold", "flag_fpr"}
GOLDEN = Path(__file__).resolve().parents[1] / "golden"


@pytest.fixture(scope="module")
def plain(kb, ruleset):
    from auditor.pipeline import Auditor

    return Auditor(kb, ruleset, fuzzy=False, risk=False)


@pytest.fixture(scope="module")
def sample(kb) -> list[tuple[str, str, str]]:
    cases = [(c.text, c.domain, c.as_of) for c in generate_benchmark(kb, seed=11, per_domain=25)]
    golden = [(g.text, g.domain, g.as_of) for g in load_golden(GOLDEN)] if GOLDEN.exists() else []
    return cases + golden


def _json(result) -> bytes:  # type: ignore[no-untyped-def]
    d = {k: v for k, v in result.to_dict().items() if k not in NEW_KEYS}
    return orjson.dumps(d, option=orjson.OPT_SORT_KEYS)


@pytest.mark.slow
def test_verdicts_are_byte_identical_with_and_without_risk_and_fuzzy(auditor_obj, plain, sample):
    assert auditor_obj.fuzzy_linker is not None and auditor_obj.risk
    for text, domain, as_of in sample:
        full = auditor_obj.audit(text, domain=domain, as_of=as_of)
        assert _json(full) == _json(plain.audit(text, domain=domain, as_of=as_of)), text
        assert {"risk", "risk_model_version"} <= full.to_dict().keys()


def test_every_audit_records_the_model_version_and_a_probability(auditor_obj, sample):
    model = load_model()
    assert model is not None
    for text, domain, as_of in sample[:20]:
        d = auditor_obj.audit(text, domain=domain, as_of=as_of).to_dict()
        assert d["risk_model_version"] == model.version and 0.0 <= d["risk"] <= 1.0


def test_contradicted_answers_are_flagged_at_every_operating_point(auditor_obj, sample):
    contradicted = 0
    for text, domain, as_of in sample:
        result = auditor_obj.audit(text, domain=domain, as_of=as_of)
        if result.counts["contradicted"] == 0:
            continue
        contradicted += 1
        for fpr in (0.01, 0.05, 0.1):
            assert apply_operating_point(result, fpr).extra["flagged"] is True
    assert contradicted > 5
