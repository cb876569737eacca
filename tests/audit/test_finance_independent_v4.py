"""Issue 24: false alarms and a wrong support found by the independent cases real-fin-101..108
(written by a helper who never read the extractor; labels checked against the graph's sources).

* A generic report name ("a SAR") after the filer that names its family member ("A U.S. money
  services business must file a SAR ... at least $2,000") is that member's report — 31 CFR
  1022.320(a)(2), $2,000 — not the banks' $5,000 (31 CFR 1020.320).
* A year-less day ("on October 29") in a timeline that just gave a full date ("on October 8,
  2008") is that year's — FOMC, 29 October 2008: target 1 percent; a month given as a reference
  point ("the first cut since March 2020") gives no year.
* "held ... throughout 2025" claims the whole year: the range 4.25-4.50 % ended on
  2025-09-18, so it is contradicted, where "in 2025" stays supported.
* "from $3,000 to $10,000 inclusive" starts at the $3,000 floor of 31 CFR 1010.415; the
  graph has no upper bound, so it is not contradicted.
"""

from __future__ import annotations

import pytest


def _claims(auditor_obj, text, as_of="2026-01-15"):
    return auditor_obj.audit(text, domain="finance", as_of=as_of).claims


def test_generic_report_after_its_filer(auditor_obj):
    got = [(c.subject, c.verdict) for c in _claims(auditor_obj, "A U.S. money services business "
           "must file a SAR for suspicious transactions of at least $2,000.")]  # fmt: skip
    assert got == [("obligation:us-sar-msb", "supported")], got
    got = [(c.subject, c.verdict) for c in _claims(auditor_obj, "Banks must file a SAR for "
           "suspicious transactions of $5,000 or more.")]  # fmt: skip
    assert got == [("obligation:us-sar-bank", "supported")], got


def test_yearless_day_takes_the_timelines_year(auditor_obj):
    text = ("The Fed cut to 1.5% on October 8, 2008. It cut again to 1% on October 29, and on "
            "December 16, 2008 it moved to a range of 0 to 1/4 percent.")  # fmt: skip
    got = {c.object: c.verdict for c in _claims(auditor_obj, text) if c.predicate == "policyRate"}
    assert got.get("1%") == "supported", got
    assert "contradicted" not in got.values(), got


def test_reference_month_gives_no_year():
    from auditor.extract.dates import find_dates

    text = "It was the first cut since March 2020. The cut took effect on September 18."
    assert [d.text for d in find_dates(text)] == ["since March 2020"]


@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        ("The FOMC held the range at 4.25%–4.50% throughout 2025.", "contradicted"),
        ("The FOMC kept the range at 5.25%–5.50% for all of 2024.", "contradicted"),
        ("The FOMC held the range at 4.25%–4.50% in 2025.", "supported"),
        ("The FOMC kept the federal funds rate at 0 to 1/4 percent throughout 2014.", "supported"),
    ],
)
def test_whole_period(auditor_obj, text, verdict):
    got = [c.verdict for c in _claims(auditor_obj, text) if c.predicate == "policyRate"]
    assert got == [verdict], got


def test_range_from_the_threshold_floor(auditor_obj):
    base = ("Sales of cashier's checks or money orders for cash in amounts from {} to $10,000 "
            "inclusive require the bank to keep a monetary instrument log.")  # fmt: skip
    assert [c.verdict for c in _claims(auditor_obj, base.format("$3,000"))] == ["unverifiable"]
    assert [c.verdict for c in _claims(auditor_obj, base.format("$5,000"))] == ["contradicted"]


def test_after_date_does_not_take_the_headings_date(auditor_obj):
    # real-fin-101: the title's "January 2026" was taken as the date of a 2025 pause
    text = ("# Fed policy, September 2024 to January 2026\n\nAfter December 2024 the FOMC held "
            "the range at 4.25%–4.50% through the first half of 2025.")  # fmt: skip
    got = [c.verdict for c in _claims(auditor_obj, text) if c.predicate == "policyRate"]
    assert "contradicted" not in got, got


def test_practical_floor_after_a_buffer_includes_it(auditor_obj):
    # real-fin-111: 12 CFR 217.11 — 4.5 % CET1 plus the 2.5 % conservation buffer is 7 %
    text = ("Section 217.11 adds a capital conservation buffer made of CET1. For most banks it is "
            "2.5% of risk-weighted assets, so the practical CET1 floor is 7%.")  # fmt: skip
    got = [(c.subject, c.verdict) for c in _claims(auditor_obj, text, "2025-11-15")
           if c.object == "7%"]  # fmt: skip
    assert got == [("ratio:cet1-with-conservation-buffer", "supported")], got


def test_a_sentence_naming_no_country_says_nothing_of_the_last_one(auditor_obj):
    # real-fin-116: FATF, 24 October 2025 — South Africa removed from the grey list
    text = ("In October 2025 the FATF removed South Africa from its grey list. No jurisdiction "
            "was added, so the grey list is down to 20 names.")  # fmt: skip
    got = [(c.text[:20], c.verdict) for c in _claims(auditor_obj, text, "2025-11-15")]
    assert all(v != "contradicted" for _, v in got), got
