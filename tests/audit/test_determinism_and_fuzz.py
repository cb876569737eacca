"""Determinism (byte-identical JSON) and robustness on arbitrary text (hypothesis)."""

from __future__ import annotations

from datetime import date

import orjson
import pytest
from hypothesis import given
from hypothesis import strategies as st

from auditor.extract.citations import find_citations
from auditor.extract.dates import find_dates
from auditor.extract.identifiers import find_identifiers
from auditor.extract.quantities import find_quantities
from auditor.extract.segment import split_sentences

SAMPLE = (
    "Ibuprofen (Advil): OTC max 1,200 mg/day; Rx up to 3,200 mg. It's safe with warfarin. "
    "Brown v. Board of Education, 347 U.S. 484 (1954); see 18 U.S.C. § 1341 for wire fraud. "
    "The Fed raised rates to 5.25%–5.50% in July 2023. ISIN US0378331006."
)
ALPHABET = (
    st.sampled_from(
        list(
            "abcdefghijklmnopqrstuvwxyz ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
            ".,;:%$€§()[]-–—/'\"\n\t?!v|*#"
        )
    )
    | st.characters()
)


def test_same_input_gives_byte_identical_json(auditor_obj):
    a = orjson.dumps(
        auditor_obj.audit(SAMPLE, domain="auto", as_of="2024-05-01").to_dict(),
        option=orjson.OPT_SORT_KEYS,
    )
    b = orjson.dumps(
        auditor_obj.audit(SAMPLE, domain="auto", as_of="2024-05-01").to_dict(),
        option=orjson.OPT_SORT_KEYS,
    )
    assert a == b


@pytest.mark.slow
def test_fresh_auditor_gives_the_same_json(kb, ruleset, auditor_obj):
    from auditor.pipeline import Auditor

    other = Auditor(kb, ruleset)
    x = auditor_obj.audit(SAMPLE, domain="auto", as_of="2024-05-01").to_dict()
    y = other.audit(SAMPLE, domain="auto", as_of="2024-05-01").to_dict()
    assert orjson.dumps(x) == orjson.dumps(y)


@given(st.text(ALPHABET, max_size=400))
def test_extractors_never_raise_and_spans_are_in_range(text):
    for s in split_sentences(text):
        assert text[s.start : s.end] == s.text
    for q in find_quantities(text):
        assert 0 <= q.start < q.end <= len(text)
    for d in find_dates(text):
        assert 0 <= d.start < d.end <= len(text) and d.first <= d.last
    for c in find_citations(text):
        assert 0 <= c.start <= c.end <= len(text)
    for i in find_identifiers(text):
        assert text[i.start : i.end] == i.text


@given(st.text(ALPHABET, max_size=300), st.sampled_from(["finance", "medical", "legal", "auto"]))
def test_audit_never_raises_on_arbitrary_text(auditor_obj, text, domain):
    d = auditor_obj.audit(text, domain=domain, as_of="2024-01-01").to_dict()
    for c in d["claims"]:
        assert c["verdict"] in {"supported", "contradicted", "unverifiable"}
        assert 0 <= c["start"] <= c["end"] <= len(text)
    assert d["fer"] is None or 0.0 <= d["fer"] <= 1.0
    assert d["citation_confidence"] is None or 0.0 <= d["citation_confidence"] <= 1.0


@given(
    st.from_regex(r"\d{1,3}(,\d{3})*(\.\d+)? ?(mg|g|mcg|%|percent|bps|IU|tablets)", fullmatch=True)
)
def test_quantity_parser_reads_every_well_formed_quantity(s):
    qs = find_quantities(f"take {s} daily")
    assert len(qs) == 1 and qs[0].value >= 0


@given(
    st.dates(min_value=date(1789, 1, 1), max_value=date(2100, 12, 31)),
    st.sampled_from(["{d:%B} {d.day}, {d.year}", "{d.day} {d:%B} {d.year}", "{d:%Y-%m-%d}"]),
)
def test_date_parser_round_trips(d, fmt):
    found = find_dates("on " + fmt.format(d=d))
    assert found and found[0].first == d and found[0].precision == "day"


@given(
    st.lists(
        st.lists(
            st.text(ALPHABET.filter(lambda c: c not in "|\n"), max_size=20), min_size=1, max_size=4
        ),
        min_size=1,
        max_size=5,
    ),
    st.booleans(),
)
def test_markdown_tables_never_raise(auditor_obj, rows, with_rule):
    """Arbitrary markdown tables (ragged rows, empty cells, missing rule line) audit cleanly."""
    lines = ["| " + " | ".join(r) + " |" for r in rows]
    if with_rule:
        lines.insert(1, "|" + "---|" * len(rows[0]))
    res = auditor_obj.audit("\n".join(lines), domain="medical")
    assert all(0 <= c.start <= c.end for c in res.claims)
