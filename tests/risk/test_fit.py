"""Fitting the risk model is reproducible with a fixed seed and ships only data."""

from __future__ import annotations

import orjson
import pytest

from auditor.risk.features import FEATURES, features
from auditor.risk.model import RiskModel
from measure.risk.data import VIEWS, build_rows
from measure.risk.fit import fit, split


@pytest.fixture(scope="module")
def rows(auditor_obj):
    return build_rows(auditor_obj, seed=5, per_domain=10)


def test_rows_cover_every_view_and_domain(rows) -> None:
    assert {(r.view, r.case.domain) for r in rows} == {
        (v, d) for v in VIEWS for d in ("finance", "medical", "legal")
    }
    assert all(len(features(r.result)) == len(FEATURES) for r in rows)
    assert 0 < sum(r.label for r in rows) < len(rows)


@pytest.mark.slow
def test_fit_is_reproducible_with_the_seed(rows) -> None:
    a, b = fit(rows, seed=5), fit(rows, seed=5)
    assert orjson.dumps(a, option=orjson.OPT_SORT_KEYS) == orjson.dumps(
        b, option=orjson.OPT_SORT_KEYS
    )
    assert a["version"].startswith("risk-")
    assert fit(rows, seed=6)["version"] != a["version"]  # another split, another model


def test_the_artefact_is_plain_json_that_predicts_probabilities(rows) -> None:
    doc = orjson.loads(orjson.dumps(fit(rows, seed=5)))
    model = RiskModel.from_doc(doc)
    risks = [model.predict(features(r.result), r.case.domain) for r in rows]
    assert all(0.0 <= p <= 1.0 for p in risks)
    held = split(rows, 5)
    assert 0.3 < held.mean() < 0.5
    for d, m in doc["metrics"].items():
        assert {"brier", "ece", "roc_auc", "answers"} <= m.keys(), d
