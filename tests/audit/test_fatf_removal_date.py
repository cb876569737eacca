"""Issue 24 (v8 miss real-fin-138): a removal dated after the plenary that removed the
country ("the Philippines was removed from the grey list in June 2025"; it came off in
February 2025) is a wrong date: the country is on the list of October 2024 and on none from
February 2025 on. An undated removal of a country off the list is not judged by this rule.
"""

from __future__ import annotations

import pytest


def _listing(auditor_obj, text):
    res = auditor_obj.audit(text, domain="finance", as_of="2026-03-01")
    return [(c.subject, c.verdict) for c in res.claims if c.predicate == "fatfListed"]


@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        ("The Philippines was removed from the grey list in June 2025.", "contradicted"),
        ("- **Philippines** — removed from the grey list in June 2025.", "contradicted"),
        ("The Philippines was removed from the grey list in February 2025.", "supported"),
    ],
)
def test_a_removal_month_is_checked_against_the_plenary_that_removed(auditor_obj, text, verdict):
    assert _listing(auditor_obj, text) == [("country:PH", verdict)]


def test_an_undated_removal_is_not_contradicted(auditor_obj):
    got = _listing(auditor_obj, "The Philippines has been removed from the grey list.")
    assert got and all(v != "contradicted" for _, v in got)
