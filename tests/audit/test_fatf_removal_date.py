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


HEADED = (
    "## FATF grey list in 2024: a plenary-by-plenary recap\n\n"
    "### February 2024 plenary (outcomes published 23 February)\n"
    "- **Off the list:** the United Arab Emirates, Barbados, Gibraltar and Uganda.\n"
    "- **Added:** Kenya and {other}.\n"
)


def test_a_change_label_under_a_heading_naming_the_list(auditor_obj):
    # v6 miss real-fin-121: "- **Added:** Kenya and Nigeria" under "## FATF grey list ..."
    res = auditor_obj.audit(HEADED.format(other="Nigeria"), domain="finance", as_of="2025-01-01")
    got = {c.subject: (c.qualifiers.get("list_change"), c.verdict) for c in res.claims
           if c.predicate == "fatfListed"}  # fmt: skip
    assert got["country:KE"] == ("added", "supported")
    assert got["country:NG"] == ("added", "contradicted")  # listed since February 2023
    assert got["country:UG"] == ("removed", "supported")
    res = auditor_obj.audit(HEADED.format(other="Namibia"), domain="finance", as_of="2025-01-01")
    assert not [c for c in res.claims if c.verdict == "contradicted"]


def test_a_change_label_without_a_listed_heading_claims_nothing(auditor_obj):
    text = "### February 2024 plenary\n- **Added:** Kenya and Nigeria.\n"
    res = auditor_obj.audit(text, domain="finance", as_of="2025-01-01")
    assert not [c for c in res.claims if c.predicate == "fatfListed"]
