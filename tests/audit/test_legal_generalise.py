"""Issue 24, law: verdicts that depend on what is claimed, not on how it is worded.

Each row is an illustration written for this file (not taken from an evaluation set), labelled
against the graph's sources: knowledge_graphs/curated/legal/statutes.yaml (18 U.S.C. § 1341
mail fraud, § 1343 wire fraud, § 201 bribery of public officials, § 666 federal-program
bribery, § 1962 RICO prohibited activities, § 1964 civil remedies incl. treble damages,
31 U.S.C. § 5313 currency transaction reports, § 5324 structuring), cases.yaml (347 U.S. 483
Brown v. Board of Education, 384 U.S. 436 Miranda v. Arizona, 410 U.S. 113 Roe v. Wade,
505 U.S. 833 Casey; Gideon overruled Betts v. Brady, Lawrence overruled Bowers v. Hardwick,
Janus overruled Abood (2018), Wayfair overruled Quill (2018), Powell v. Alabama and Romer v.
Evans not overruled), the SCDB index (/work/shared/data/scotus: 347 U.S. 298 St. Joe Paper,
392 U.S. 40 Sibron v. New York, 392 U.S. 1 Terry v. Ohio) and reporter_dates.yaml (F.R.D.
from 1939, after the Federal Rules of Civil Procedure of 1938).
"""

from __future__ import annotations

import pytest

from auditor.extract.garbled import garbled

NOW = "2025-08-01"

# fmt: off
STATUTES = [
    # (id, text, section cited, verdict of its statuteSubject claim)
    # -- wrong supports: a real section for another section's crime ----------------------
    ("wire-as-mail", "Wire fraud is charged under 18 U.S.C. § 1341.", "1341", "contradicted"),
    ("wire-as-mail-see", "Defendants were indicted for wire fraud, see 18 U.S.C. § 1341.",
     "1341", "contradicted"),
    ("wire-as-mail-second-clause", "Mail fraud is codified at 18 U.S.C. § 1341, and wire fraud "
     "at 18 U.S.C. § 1341 as well.", "1341#2", "contradicted"),
    ("treble-under-1962", "A RICO plaintiff may recover treble damages under 18 U.S.C. "
     "§ 1962(c).", "1962", "contradicted"),
    ("treble-under-1962-for-violations", "Treble damages are available under 18 U.S.C. "
     "§ 1962(c) for RICO violations.", "1962", "not-supported"),
    ("threefold-under-1962", "Under 18 U.S.C. § 1962(c), a successful plaintiff recovers "
     "threefold damages and attorney's fees.", "1962", "not-supported"),
    ("program-bribery-under-201", "Federal-program bribery is prosecuted under 18 U.S.C. § 201.",
     "201", "contradicted"),
    ("funds-bribery-under-201", "Bribery of a state official at an agency receiving federal "
     "funds is charged under 18 U.S.C. § 201.", "201", "not-supported"),
    ("structuring-under-5313", "Structuring cash deposits is a crime under 31 U.S.C. § 5313.",
     "5313", "contradicted"),
    ("structuring-paren-5313", "Breaking up cash deposits to evade reporting (structuring) is "
     "prohibited by 31 U.S.C. § 5313.", "5313", "contradicted"),
    ("structuring-even-if", "Structuring is a federal crime under 31 U.S.C. § 5313 even if the "
     "money is clean.", "5313", "contradicted"),
    ("two-subjects-one-scope", "18 U.S.C. § 1343 wire fraud mail fraud bank fraud.", "1343",
     "not-supported"),
    # -- the right section keeps its support -------------------------------------------
    ("wire-right", "Wire fraud is prosecuted under 18 U.S.C. § 1343.", "1343", "supported"),
    ("mail-right-first-clause", "Mail fraud is codified at 18 U.S.C. § 1341, and wire fraud at "
     "18 U.S.C. § 1343.", "1341", "supported"),
    ("wire-right-second-clause", "Mail fraud is codified at 18 U.S.C. § 1341, and wire fraud at "
     "18 U.S.C. § 1343.", "1343", "supported"),
    ("treble-right", "Civil remedies for RICO violations, including treble damages, are in "
     "18 U.S.C. § 1964(c).", "1964", "supported"),
    ("structuring-right", "Structuring is prohibited by 31 U.S.C. § 5324.", "5324", "supported"),
    ("program-bribery-right", "Federal program bribery is prosecuted under 18 U.S.C. § 666.",
     "666", "supported"),
    ("ctr-right", "Banks must file currency transaction reports under 31 U.S.C. § 5313.",
     "5313", "supported"),
    ("bare-cite", "See 18 U.S.C. § 1343.", "1343", "supported"),
    # -- precision: the section as the provision violated, a rule's name next to it ------
    ("violation-of-1962", "A plaintiff injured by a violation of 18 U.S.C. § 1962(c) may "
     "recover treble damages.", "1962", "not-contradicted"),
    ("rule-name-alongside", "Securities fraud claims are brought under Section 10(b) of the "
     "Exchange Act, 15 U.S.C. § 78j(b), and SEC Rule 10b-5.", "78j", "supported"),
    ("next-authority-after-or", "Offers must be registered under 15 U.S.C. § 77e, or fit an "
     "exemption such as Rule 506 of Regulation D, 17 C.F.R. § 230.506.", "77e",
     "not-contradicted"),
]
# fmt: on


def _statute_claim(result, key: str):  # type: ignore[no-untyped-def]
    section, _, nth = key.partition("#")
    hits = [c for c in result.claims if c.predicate == "statuteSubject"
            and (c.subject or "").endswith(f" {section}")]  # fmt: skip
    assert hits, [c.to_dict() for c in result.claims]
    return hits[int(nth) - 1 if nth else 0]


def _holds(verdict: str, want: str) -> bool:
    if want == "not-supported":
        return verdict in {"unverifiable", "contradicted"}
    if want == "not-contradicted":
        return verdict in {"unverifiable", "supported"}
    return verdict == want


@pytest.mark.parametrize(("text", "section", "want"), [r[1:] for r in STATUTES],
                         ids=[r[0] for r in STATUTES])  # fmt: skip
def test_statute_subject(auditor_obj, text: str, section: str, want: str) -> None:
    claim = _statute_claim(auditor_obj.audit(text, domain="legal", as_of=NOW), section)
    assert _holds(claim.verdict, want), (claim.verdict, claim.reason)


# fmt: off
CASES = [
    # (id, text, outcome of the case citation, reason or None)
    # -- a swapped citation under another case's name ----------------------------------
    ("swap-full-name", "Miranda v. Arizona, 347 U.S. 483 (1954), held that suspects must be "
     "warned.", "contradicted", "misattributed"),
    ("swap-in-sentence", "In Miranda v. Arizona, 347 U.S. 483, the Court required warnings.",
     "contradicted", "misattributed"),
    ("swap-paren-cite", "The warnings come from Miranda (347 U.S. 483).", "contradicted",
     "misattributed"),
    ("swap-short-name-comma", "As the Court held in Miranda, 347 U.S. 483, suspects must be "
     "warned.", "contradicted", "misattributed"),
    ("swap-full-name-paren", "Miranda v. Arizona (347 U.S. 483) requires warnings.",
     "contradicted", "misattributed"),
    ("swap-unlinked-short-name", "The Court in Roe, 505 U.S. 833, protected the right.",
     "unverified", "name_mismatch"),
    ("right-short-name", "As the Court held in Brown, 347 U.S. 483, separate is not equal.",
     "verified", None),
    ("right-paren", "Brown (347 U.S. 483) ended school segregation.", "verified", None),
    # -- a real name at a page inside another case of a complete volume -----------------
    ("page-in-other-case", "Brown v. Board of Education, 347 U.S. 300 (1954), ended "
     "segregation.", "contradicted", "nonexistent"),
    ("page-in-other-case-terry", "Terry v. Ohio, 392 U.S. 50 (1968), allows stop and frisk.",
     "contradicted", "nonexistent"),
    ("pin-cite-own-case", "Terry v. Ohio, 392 U.S. 1, 30 (1968), allows stop and frisk.",
     "verified", None),
    # -- precision: one-party captions, state reporters, reporter start dates -------------
    ("state-family-case", "In re Marriage of Mathews, 133 Cal. App. 4th 624 (2005), addressed "
     "spousal support.", "unverified", "not_in_index"),
    ("state-family-case-matter", "In the Matter of the Marriage of Mathews, 133 Cal. App. 4th "
     "624 (2005), addressed spousal support.", "unverified", "not_in_index"),
    ("lower-court-roe", "Roe v. Wade, 314 F. Supp. 1217 (N.D. Tex. 1970).", "unverified",
     "not_in_index"),
    ("frd-1954", "Smith v. Jones, 15 F.R.D. 200 (D. Mass. 1954).", "unverified", "not_in_index"),
    ("frd-1993", "The court relied on Doe v. Roe, 150 F.R.D. 100 (S.D.N.Y. 1993).", "unverified",
     "not_in_index"),
    ("frd-before-the-rules", "Smith v. Jones, 1 F.R.D. 200 (D. Mass. 1936).", "contradicted",
     "impossible_date"),
]
# fmt: on


@pytest.mark.parametrize(("text", "outcome", "reason"), [r[1:] for r in CASES],
                         ids=[r[0] for r in CASES])  # fmt: skip
def test_case_citation(auditor_obj, text: str, outcome: str, reason: str | None) -> None:
    res = auditor_obj.audit(text, domain="legal", as_of=NOW)
    got = [(c.outcome, c.reason) for c in res.citations if c.kind == "case"]
    assert got and got[0][0] == outcome and (reason is None or got[0][1] == reason), got


def test_state_family_case_is_not_the_supreme_court_case(auditor_obj) -> None:
    for text in ("In re Marriage of Mathews remains good law in California.",
                 "Under In re Marriage of Mathews, courts must divide community property."):  # fmt: skip
        res = auditor_obj.audit(text, domain="legal", as_of=NOW)
        assert not [c for c in res.claims if c.subject == "case:424 U.S. 319"], res.to_dict()


# fmt: off
OVERRULING = [
    # (id, text, subject case, verdict of its overruledBy claim)
    ("wrong-overruled-active", "Gideon v. Wainwright expressly overruled Powell v. Alabama.",
     "case:287 U.S. 45", "contradicted"),
    ("wrong-overruled-in-case", "In Gideon v. Wainwright, the Court overruled Powell v. Alabama.",
     "case:287 U.S. 45", "contradicted"),
    ("wrong-overruled-passive", "Powell v. Alabama was overruled by Gideon v. Wainwright in "
     "1963.", "case:287 U.S. 45", "contradicted"),
    ("wrong-overruled-never-overruled", "Lawrence v. Texas overruled Romer v. Evans.",
     "case:517 U.S. 620", "contradicted"),
    ("wrong-overruler-of-overruled", "Obergefell v. Hodges overruled Bowers v. Hardwick.",
     "case:478 U.S. 186", "contradicted"),
    ("wrong-overruler-same-opinion", "Obergefell v. Hodges, 576 U.S. 644 (2015), recognised a "
     "right to marry. In the same opinion, the Court formally overruled Bowers v. Hardwick.",
     "case:478 U.S. 186", "contradicted"),
    ("right-overruler-that-decision", "Lawrence v. Texas, 539 U.S. 558 (2003), struck down the "
     "law. In that decision, the Court overruled Bowers v. Hardwick.", "case:478 U.S. 186",
     "supported"),
    ("right-overruled", "Gideon v. Wainwright overruled Betts v. Brady.", "case:316 U.S. 455",
     "supported"),
    ("denied-overruling", "Gideon did not overrule Powell v. Alabama.", "case:287 U.S. 45",
     "not-contradicted"),
    # -- "Under <overruled case>, ..." as current law ----------------------------------
    ("under-abood", "Under Abood v. Detroit Board of Education, 431 U.S. 209 (1977), a public "
     "employer may require nonmembers to pay an agency fee.", "case:431 U.S. 209",
     "contradicted"),
    ("under-abood-short-negated", "Under Abood, public employers cannot be barred from charging "
     "agency fees.", "case:431 U.S. 209", "contradicted"),
    ("under-quill-negated-holding", "Under Quill Corp. v. North Dakota, a state may not require "
     "a remote seller to collect sales tax.", "case:504 U.S. 298", "contradicted"),
    ("per-plessy", "Per Plessy v. Ferguson, states may require separate railway cars.",
     "case:163 U.S. 537", "contradicted"),
    ("pursuant-to-chevron", "Pursuant to Chevron, courts must defer to reasonable agency "
     "interpretations.", "case:467 U.S. 837", "contradicted"),
    ("test-of-lemon", "Courts evaluate religious displays under the test of Lemon v. Kurtzman.",
     "case:403 U.S. 602", "contradicted"),
    ("according-to-apodaca", "According to Apodaca v. Oregon, a state may convict on a 10-2 "
     "verdict.", "case:406 U.S. 404", "contradicted"),
    ("under-grutter-negated", "Under Grutter v. Bollinger, a law school may not use quotas.",
     "case:539 U.S. 306", "contradicted"),
]
# fmt: on


@pytest.mark.parametrize(("text", "subject", "want"), [r[1:] for r in OVERRULING],
                         ids=[r[0] for r in OVERRULING])  # fmt: skip
def test_overruling(auditor_obj, text: str, subject: str, want: str) -> None:
    res = auditor_obj.audit(text, domain="legal", as_of=NOW)
    hits = [c for c in res.claims if c.predicate == "overruledBy" and c.subject == subject]
    assert hits, [c.to_dict() for c in res.claims]
    assert _holds(hits[0].verdict, want), (hits[0].verdict, hits[0].reason)


def test_reliance_before_the_overruling_is_not_contradicted(auditor_obj) -> None:
    text = "Under Quill Corp. v. North Dakota, a state may not require a remote seller to collect."
    res = auditor_obj.audit(text, domain="legal", as_of="2015-08-01")
    assert all(c.verdict != "contradicted" for c in res.claims), res.to_dict()


GARBLED = [
    "Wire fraud under 18 U.S.C. § 1343 prosecuted is the of and.",
    "Chevron U.S.A. v. Natural Resources Defense Council no longer the is good law remains.",
    "Roe v. Wade Dobbs overruled Casey by was the.",
    "Miranda v. Arizona, 384 U.S. 436 (1966) decided warnings the the police.",
]


@pytest.mark.parametrize("text", GARBLED)
def test_garbled_sentence_supports_nothing(auditor_obj, text: str) -> None:
    res = auditor_obj.audit(text, domain="legal", as_of=NOW)
    assert res.claims and all(c.verdict != "supported" for c in res.claims), res.to_dict()


@pytest.mark.parametrize("text", [
    "Subsection (a) is the operative clause, and it governs.",
    "Claims must arise out of or relate to the defendant's contacts.",
    "The FOMC lowered the ON RRP rate to the bottom of the range.",
    "Aminosalicylates and/or corticosteroids may be continued.",
    "The statute applies to each of the following:",
    "Discrimination \"because of ...",
])  # fmt: skip
def test_ordinary_sentences_are_not_garbled(text: str) -> None:
    assert not garbled(text)


@pytest.mark.parametrize(
    "text",
    [
        "The Bank Secrecy Act (31 U.S.C. §§ 5311–5332), as expanded by the USA PATRIOT Act, "
        "added the written AML program requirement.",
        "RICO, 18 U.S.C. § 1961 et seq., provides treble damages for racketeering injuries.",
        "The ADA is codified at 42 U.S.C. §§ 12101-12213 and covers employment discrimination.",
    ],
)
def test_a_run_of_sections_is_not_one_sections_subject(auditor_obj, text: str) -> None:
    """An act's place in the code ("§§ 5311–5332", "§ 1961 et seq.") is not a claim that its
    first section is about what the sentence goes on to say (real-phrasing corpus fin-122)."""
    r = auditor_obj.audit(text, domain="legal", as_of=NOW)
    assert not [
        c for c in r.claims if c.predicate == "statuteSubject" and c.verdict == "contradicted"
    ]
