"""Citation verdicts against the SCDB index and the offline lower-court proofs (issue 13)."""

from __future__ import annotations

import pytest

from auditor.verify.citations import OUTCOMES, REASONS
from auditor.verify.legal.names import same_case
from measure.evaluation.citations import generate, run

CITATIONS = [
    # (id, text, outcome, reason)
    ("real-outside-curated", "See Foman v. Davis, 371 U.S. 178 (1962).", "verified", "in_index"),
    ("swapped-twombly-iqbal", "Bell Atlantic Corp. v. Twombly, 556 U.S. 662 (2009).",
     "contradicted", "misattributed"),
    ("nonexistent-first-page", "See Foman v. Davis, 371 U.S. 181 (1962).",
     "contradicted", "nonexistent"),
    ("wrong-year-scdb", "See Foman v. Davis, 371 U.S. 178 (1963).", "contradicted", "wrong_year"),
    ("brown-ii-not-brown-i", "Brown v. Board of Education, 349 U.S. 294 (1955).",
     "verified", "in_index"),
    ("acronym-party", "INS v. St. Cyr, 533 U.S. 289 (2001).", "verified", "in_index"),
    ("court-spelling", "Younger v. Harris , 401 U. S. 37 (1971).", "verified", "in_index"),
    ("orders-section-unprovable", "Schnell v. Davis, 336 U. S. 933 (1949).",
     "unverified", "not_in_index"),
    ("volume-year-impossible", "Hartwell v. Ohio Mining Co., 560 U.S. 212 (1987).",
     "contradicted", "impossible_date"),
    ("f-supp-1995-possible", "Doe v. Roe, 901 F. Supp. 12 (D. Mass. 1995).",
     "unverified", "not_in_index"),
    ("f-supp-2d-1990-impossible", "Doe v. Roe, 12 F. Supp. 2d 12 (D. Mass. 1990).",
     "contradicted", "impossible_date"),
    ("eleventh-circuit-1980", "Doe v. Roe, 612 F.2d 12 (11th Cir. 1980).",
     "contradicted", "impossible_date"),
    ("federal-circuit-1981", "Doe v. Roe, 650 F.2d 12 (Fed. Cir. 1981).",
     "contradicted", "impossible_date"),
    ("district-court-in-f3d", "Doe v. Roe, 123 F.3d 456 (S.D.N.Y. 1999).",
     "contradicted", "court_reporter_mismatch"),
    ("lower-court-uncheckable", "Varghese v. China Southern Airlines Co., 925 F.3d 1339 "
     "(11th Cir. 2019).", "unverified", "not_in_index"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("text", "outcome", "reason"), [c[1:] for c in CITATIONS], ids=[c[0] for c in CITATIONS]
)
def test_citation_verdict(auditor_obj, text, outcome, reason):
    res = auditor_obj.audit(text, domain="legal", as_of="2024-01-01")
    got = [(c.outcome, c.reason) for c in res.citations if c.kind == "case"]
    assert got == [(outcome, reason)], [c.to_dict() for c in res.citations]


def test_every_check_follows_the_contract(auditor_obj):
    text = " ".join(c[1] for c in CITATIONS) + " Id. at 180. Foman, supra, at 182."
    res = auditor_obj.audit(text, domain="legal", as_of="2024-01-01")
    for c in res.to_dict()["citations"]:
        assert c["outcome"] in OUTCOMES and c["reason"] in REASONS[c["outcome"]], c


MEMO = (
    "To survive a motion to dismiss, a complaint must state a plausible claim. Bell Atlantic "
    "Corp. v. Twombly, 550 U.S. 544, 556, 127 S. Ct. 1955, 167 L. Ed. 2d 929 (2007). See "
    "Twombly, 550 U.S. at 570. Id. at 557. Leave to amend is freely given. Foman v. Davis, "
    "371 U.S. 178, 182 (1962). Twombly, supra, at 562."
)


def test_back_references_share_the_antecedents_verdict(auditor_obj):
    res = auditor_obj.audit(MEMO, domain="legal", as_of="2024-01-01")
    cites = res.citations
    assert {c.outcome for c in cites} == {"verified"}, [c.to_dict() for c in cites]
    resolved = [c for c in cites if c.resolved_to]
    assert len(resolved) == 5  # two parallels, a short form, Id., supra
    assert res.citation_confidence == 1.0 and res.to_dict()["needs_review"] is False


def test_parallel_disagreeing_with_scdb_is_unverified_not_contradicted(auditor_obj):
    text = "Brown v. Board of Education, 347 U.S. 483, 75 S. Ct. 686 (1954)."
    res = auditor_obj.audit(text, domain="legal", as_of="2024-01-01")
    got = [(c.outcome, c.reason) for c in res.citations]
    assert got == [("verified", "in_graph"), ("unverified", "parallel_mismatch")]


def test_unverified_alone_never_flags(auditor_obj):
    text = (
        "Varghese v. China Southern Airlines Co., 925 F.3d 1339 (11th Cir. 2019). "
        "Petersen v. Iran Air, 905 F.3d 1117 (9th Cir. 2018)."
    )
    res = auditor_obj.audit(text, domain="legal", as_of="2024-01-01")
    assert res.citation_confidence is not None and res.citation_confidence >= 0.5
    assert res.to_dict()["citation_counts"] == {"verified": 0, "contradicted": 0, "unverified": 2}


NAMES = [
    ("Cullen v. Pinholster", "VINCENT CULLEN, ACTING WARDEN, PETITIONER v. SCOTT LYNN PINHOLSTER", True),
    ("Citizens United v. FEC", "CITIZENS UNITED v. FEDERAL ELECTION COMMISSION", True),
    ("In re Gault", "IN RE GAULT et al.", True),
    ("Twombly", "BELL ATLANTIC CORP. et al. v. TWOMBLY et al.", True),
    ("School Comm. of Burlington v. Department of Ed. of Mass.",
     "SCHOOL COMMITTEE OF BURLINGTON v. DEPARTMENT OF EDUCATION OF MASSACHUSETTS", True),
    ("Smith v. Texas", "SMITH v. UNITED STATES", False),
    ("United States v. Jones", "UNITED STATES v. LOPEZ", False),
]  # fmt: skip


@pytest.mark.parametrize(("claimed", "indexed", "same"), NAMES, ids=[n[0] for n in NAMES])
def test_name_matching(claimed, indexed, same):
    assert same_case(claimed, indexed) is same


@pytest.mark.slow
def test_generated_scdb_citations_small(auditor_obj):
    """The small version of ``kgaudit eval citations`` (the full run is in docs/legal.md)."""
    report = run(generate(150, 150, 80, seed=11), audit=auditor_obj.audit)
    for kind in ("real", "swapped", "nonexistent"):
        assert report[kind]["rate"] >= 0.99, report[kind]


def test_no_overruling_is_dated_by_a_placeholder(kb):
    dates = {f.subject: f.valid_from for f in kb.facts if f.predicate == "overruledBy"}
    assert all((d.month, d.day) != (1, 1) for d in dates.values())
    assert dates["case:220 U.S. 373"].isoformat() == "2007-06-28"  # Leegin, from SCDB


GOOD_LAW = [
    # Dr. Miles was overruled by Leegin on 2007-06-28 (not on 2007-01-01)
    ("dr-miles-before-leegin", "Dr. Miles Medical Co. v. John D. Park & Sons Co. remains good law.",
     "2007-03-01", "unverifiable"),
    ("dr-miles-after-leegin", "Dr. Miles Medical Co. v. John D. Park & Sons Co. remains good law.",
     "2007-07-01", "contradicted"),
    ("must-defer-after-loper-bright", "Under Chevron, courts must defer to reasonable agency "
     "interpretations.", "2025-01-15", "contradicted"),
    ("overruling-told-right", "In Loper Bright Enterprises v. Raimondo (2024), the Court "
     "overruled Chevron.", "2025-01-15", "supported"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("text", "as_of", "verdict"), [g[1:] for g in GOOD_LAW], ids=[g[0] for g in GOOD_LAW]
)
def test_good_law_as_of_the_overruling_date(auditor_obj, text, as_of, verdict):
    res = auditor_obj.audit(text, domain="legal", as_of=as_of)
    got = {c.verdict for c in res.claims if c.predicate == "overruledBy"}
    assert got == {verdict}, [c.to_dict() for c in res.claims]
