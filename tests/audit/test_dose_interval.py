"""Issue 24: a dose repeated at a fixed interval of hours ("1,000 mg every 2 hours", "0.6 mg
every hour until the pain goes away") states a daily total — 24 / interval doses — and is wrong
when that total is above every comparable labelled daily maximum. Before, "every 2 hours" was
read as a period of its own and never judged. A range of intervals is read at its longer end
(the fewest doses it allows), and a sentence that bounds the repeats itself (a maximum, a
count of doses, a daily total) is left to that bound. Labels: acetaminophen 4,000 mg/day
(OFIRMEV) and 3,000 mg/day (OTC extra strength); ibuprofen 3,200 mg/day (MOTRIN Rx); colchicine
1.2 mg/day for prophylaxis and 1.8 mg over one hour for a flare (COLCRYS), so hourly doses
until diarrhoea (the pre-2009 regimen, shared dev set dev-med-20) exceed every maximum.
A condition named as an effect ("until ... you develop diarrhea") is not the dose's use.
"""

from __future__ import annotations

import pytest


def _dose(auditor_obj, text):
    res = auditor_obj.audit(text, domain="medical", as_of="2025-09-01")
    return [c for c in res.claims if c.predicate == "maxDose"]


@pytest.mark.parametrize(
    ("text", "total"),
    [
        ("Adults can take 1,000 mg of acetaminophen every 2 hours.", "12000 mg per day"),
        ("Take 800 mg of ibuprofen every 4 hours.", "4800 mg per day"),
        ("Take 800 mg of ibuprofen every 4 hours as needed for pain.", "4800 mg per day"),
        ("Colchicine: take 1.2 mg at the first sign of a flare, then 0.6 mg every hour until "
         "the pain goes away or you develop diarrhea.", "14.4 mg per day"),
    ],
)  # fmt: skip
def test_repeated_dose_above_every_daily_maximum(auditor_obj, text, total):
    claims = {c.object: c for c in _dose(auditor_obj, text)}
    assert total in claims, list(claims)
    assert claims[total].verdict == "contradicted", claims[total].reason


@pytest.mark.parametrize(
    "text",
    [
        "Adults can take 650 mg of acetaminophen every 4 hours.",
        "Adults can take 1,000 mg of acetaminophen every 4 to 6 hours.",
        "Adults can take 1,000 mg of acetaminophen every 2 hours, up to 4,000 mg a day.",
        "Take 800 mg of ibuprofen every 4 hours for two doses.",
        "Take 400 mg of ibuprofen every 6 hours; do not exceed 3,200 mg in 24 hours.",
        "Increase the sertraline dose by 25 mg every 2 weeks.",
    ],
)
def test_repeated_dose_within_or_bounded_is_not_contradicted(auditor_obj, text):
    bad = [(c.object, c.reason) for c in _dose(auditor_obj, text) if c.verdict == "contradicted"]
    assert not bad, bad


def test_an_effect_is_not_the_doses_use(auditor_obj):
    claims = _dose(auditor_obj, "Colchicine: take 0.6 mg every hour until you develop diarrhea.")
    assert claims and all("indication" not in c.qualifiers for c in claims), [
        c.qualifiers for c in claims
    ]


def test_dose_of_named_drug_twice_a_day_is_a_daily_total(auditor_obj):
    # "100 mg of sildenafil twice a day": "of sildenafil twice" was read as a period ("a day"),
    # so the regimen became 100 mg per day; VIAGRA: at most 100 mg, once per day
    claims = {c.object: c for c in _dose(auditor_obj, "Most people can take 100 mg of sildenafil "
                                         "twice a day.")}  # fmt: skip
    assert "200 mg per day" in claims, list(claims)
    assert claims["200 mg per day"].verdict == "contradicted"


def test_dose_of_named_drug_three_times_a_day_within_the_maximum(auditor_obj):
    claims = _dose(auditor_obj, "Adults can take 400 mg of ibuprofen three times a day.")
    assert [c.object for c in claims] == ["1200 mg per day"]
    assert claims[0].verdict == "unverifiable"
