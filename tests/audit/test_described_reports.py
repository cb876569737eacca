"""Issue 24, finance: a US report described by what it reports, not named.

Labelled against knowledge_graphs/curated/finance/thresholds.yaml: currency transactions of
more than $10,000 (CTR, 31 CFR 1010.311); cash of more than $10,000 received in a trade or
business (Form 8300, 31 CFR 1010.330); suspicious activity of $5,000 or more for banks (31 CFR
1020.320) and $2,000 or more for money services businesses (31 CFR 1022.320). Sentences are
written for this file. "Financial institutions" name no one institution, so a suspicious-
activity amount said of them is no claim; a sentence about another country or a border
crossing describes another report.
"""

from __future__ import annotations

import pytest

CTR, F8300 = "obligation:us-ctr", "obligation:us-form-8300"
SAR_BANK, SAR_MSB = "obligation:us-sar-bank", "obligation:us-sar-msb"
ROWS = [
    # (id, text, obligation or None for "no threshold claim", verdict)
    ("ctr-right", "Banks must report cash transactions of more than $10,000 to FinCEN.", CTR,
     "supported"),
    ("ctr-wrong", "Banks must report cash transactions over $5,000 to FinCEN.", CTR,
     "contradicted"),
    ("ctr-file-reports", "Financial institutions must file reports of currency transactions "
     "exceeding $10,000.", CTR, "supported"),
    ("ctr-bsa-wording", "The Bank Secrecy Act requires financial institutions to report "
     "currency transaction amounts of over $10,000.", CTR, "supported"),
    ("8300-right", "Businesses that receive cash payments of more than $10,000 must report "
     "them to the IRS.", F8300, "supported"),
    ("8300-wrong", "A business that receives cash payments over $3,000 must report them to "
     "the IRS.", F8300, "contradicted"),
    ("sar-bank-wrong", "Banks must report suspicious activity involving $2,000 or more.",
     SAR_BANK, "contradicted"),
    ("sar-bank-right", "Under the Bank Secrecy Act, banks must report suspicious activity "
     "involving $5,000 or more.", SAR_BANK, "supported"),
    ("sar-msb-right", "Money services businesses must report suspicious transactions of $2,000 "
     "or more.", SAR_MSB, "supported"),
    # "Bank" in "Bank Secrecy Act" is no institution: financial institutions are several
    ("sar-financial-institutions", "Under the Bank Secrecy Act, financial institutions must "
     "report suspicious activity involving $2,000 or more.", None, None),
    ("elsewhere", "In Canada, banks must report cash transactions of $10,000 or more to "
     "FINTRAC.", None, None),
    ("border", "Travellers carrying cash transactions over $10,000 into the country must "
     "report them.", CTR, None),
    ("no-report-word", "Cash transactions of more than $10,000 are common in car dealerships.",
     None, None),
]  # fmt: skip


@pytest.mark.parametrize(("text", "obligation", "verdict"), [r[1:] for r in ROWS],
                         ids=[r[0] for r in ROWS])  # fmt: skip
def test_described_report(
    auditor_obj, text: str, obligation: str | None, verdict: str | None
) -> None:
    res = auditor_obj.audit(text, domain="finance", as_of="2025-09-01")
    found = [c for c in res.claims if c.predicate == "reportingThreshold"]
    if verdict is None:
        assert not [c for c in found if obligation is None or c.subject == obligation], [
            (c.subject, c.verdict, c.reason) for c in found
        ]
        return
    mine = [c for c in found if c.subject == obligation]
    assert mine, [(c.subject, c.predicate, c.verdict) for c in res.claims]
    assert {c.verdict for c in mine} == {verdict}, [(c.object, c.verdict, c.reason) for c in mine]
