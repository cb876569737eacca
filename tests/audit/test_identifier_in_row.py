"""Issue 24 (v8 miss real-fin-137): an act's identifier the graph does not know, put next to
the act's name in a table row of one act ("| Fund managers | AIFMD | Directive 2011/16/EU |")
or after a copula ("AIFMD is Directive 2011/16/EU"), is a claim about that act. A row naming
two acts binds nothing to a name outside the first cell.
"""

from __future__ import annotations

import pytest


def _ident(auditor_obj, text):
    res = auditor_obj.audit(text, domain="finance", as_of="2026-01-01")
    return [(c.subject, c.verdict) for c in res.claims if c.predicate == "officialIdentifier"]


@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        ("| Fund managers | AIFMD | Directive 2011/16/EU | 22 July 2013 |", "contradicted"),
        ("| Fund managers | AIFMD | Directive 2011/61/EU | 22 July 2013 |", "supported"),
        ("AIFMD is Directive 2011/16/EU.", "contradicted"),
        ("AIFMD is Directive 2011/61/EU.", "supported"),
    ],
)
def test_an_identifier_next_to_the_acts_name(auditor_obj, text, verdict):
    assert _ident(auditor_obj, text) == [("regulation:aifmd", verdict)]


def test_a_row_of_two_acts_binds_no_unknown_identifier(auditor_obj):
    text = "| Funds | AIFMD and the GDPR | Directive 2011/16/EU |"
    assert not [v for _, v in _ident(auditor_obj, text) if v == "contradicted"]
