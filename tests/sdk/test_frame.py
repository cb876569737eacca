"""Claims tables: ``AuditResult.to_frame()``, ``results_to_frame`` and the rows behind them."""

from __future__ import annotations

import builtins

import pytest

from auditor.claim_table import COLUMNS, claim_rows, to_frame
from kgaudit import audited, results_to_frame

from .conftest import AS_OF, MEDICAL_BAD, MEDICAL_OK

pd = pytest.importorskip("pandas")


def test_one_row_per_claim_with_evidence(real_auditor) -> None:
    result = real_auditor.audit(f"{MEDICAL_OK} {MEDICAL_BAD}", domain="medical", as_of=AS_OF)
    df = result.to_frame()
    assert list(df.columns) == list(COLUMNS) and len(df) == len(result.claims)
    bad = df[df.verdict == "contradicted"].iloc[0]
    assert bad.text == MEDICAL_BAD and bad.rule_id == "MED-DOSE-MAX"
    assert bad.span == f"{bad.start}-{bad.end}" and result.claims[1].text == MEDICAL_BAD
    assert "1,200 mg per day" in bad.evidence and "advil" in bad.source.lower()
    assert bad.url.startswith("https://") and bad.domain == "medical"


def test_results_to_frame_labels_rows_by_audit(real_auditor) -> None:
    results = [
        real_auditor.audit(t, domain="medical", as_of=AS_OF) for t in (MEDICAL_OK, MEDICAL_BAD)
    ]
    stored = {"id": "a-7", "result": results[1].to_dict()}  # a stored audit (REST / trail)
    text = audited(domain="medical", as_of=AS_OF, auditor=real_auditor)(lambda: MEDICAL_OK)()
    df = results_to_frame([*results, stored, text])
    assert list(df.audit) == [0, 1, "a-7", 3]
    assert list(df.verdict) == ["supported", "contradicted", "contradicted", "supported"]
    assert df.groupby("verdict").size().to_dict() == {"contradicted": 2, "supported": 2}


def test_quote_and_flat_report_evidence() -> None:
    claim = {
        "text": "t",
        "start": 3,
        "end": 9,
        "verdict": "contradicted",
        "evidence": [
            {"role": "rule", "rule": "R-1", "detail": "not shown"},
            {
                "role": "conflicts",
                "statement": "S",
                "document": "Doc",
                "section": "§2",
                "url": "https://x",
                "quote": "the source's sentence",
            },
        ],
    }
    (row,) = claim_rows({"claims": [claim], "domain": "finance"})
    assert (row["evidence"], row["source"], row["url"], row["quote"]) == (
        "S",
        "Doc, §2",
        "https://x",
        "the source's sentence",
    )


def test_missing_pandas_says_what_to_install(monkeypatch) -> None:
    real_import = builtins.__import__

    def no_pandas(name, *args, **kwargs):
        if name == "pandas":
            raise ImportError("no pandas")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_pandas)
    with pytest.raises(ImportError, match=r"pip install 'kgaudit\[pandas\]'"):
        to_frame([])
