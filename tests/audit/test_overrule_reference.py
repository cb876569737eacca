"""Issue 24, law: which case a pronoun near an overruling verb stands for.

"The U.S. Supreme Court has overturned Roe and Casey rulings in its decision in the Dobbs
case" after a sentence about *Austin*: "its" is the Court's, so *Austin* (the previous
sentence's case) is not the overruler — the old reading contradicted a true sentence
("Casey overruled by Austin"). A recalled case takes part only when the overruling verb's
own subject points back to it ("It was overruled by ..."). "Roe and Casey rulings in its
decision in the Dobbs case" names the overruling case after "in its decision in the".
Labelled against knowledge_graphs/curated/legal/cases.yaml (Dobbs overruled Roe and Casey,
2022-06-24).
"""

from __future__ import annotations

CASEY, ROE, DOBBS = "case:505 U.S. 833", "case:410 U.S. 113", "case:597 U.S. 215"
AUSTIN, BROWN = "case:494 U.S. 652", "case:347 U.S. 483"


def _overrulings(auditor_obj, text: str):  # type: ignore[no-untyped-def]
    res = auditor_obj.audit(text, domain="legal", as_of="2025-09-01")
    return {(c.subject, c.object): c.verdict for c in res.claims if c.predicate == "overruledBy"}


def test_a_pronoun_after_the_verb_is_not_a_recalled_overruler(auditor_obj):
    got = _overrulings(
        auditor_obj,
        "Austin v. Michigan Chamber of Commerce was decided in 1990. The U.S. Supreme Court has "
        "overturned Roe and Casey rulings in its decision in the Dobbs case.",
    )
    assert (CASEY, AUSTIN) not in got and "contradicted" not in got.values()
    assert got[(CASEY, DOBBS)] == "supported"


def test_a_pronoun_subject_still_points_back(auditor_obj):
    right = _overrulings(
        auditor_obj,
        "Roe v. Wade was decided in 1973. It was overruled by Dobbs v. Jackson Women's Health "
        "Organization in 2022.",
    )
    assert right[(ROE, DOBBS)] == "supported"
    wrong = _overrulings(
        auditor_obj,
        "Roe v. Wade was decided in 1973. It was overruled by Brown v. Board of Education.",
    )
    assert wrong[(ROE, BROWN)] == "contradicted"


LAWRENCE, OBERGEFELL = "case:539 U.S. 558", "case:576 U.S. 644"
BOWERS = "case:478 U.S. 186"


def test_overruled_it_in_names_the_overruler_after_in(auditor_obj):
    lead = "Bowers v. Hardwick, 478 U.S. 186 (1986), upheld the law. "
    right = _overrulings(auditor_obj, lead + "Seventeen years later the Court overruled it in "
                         "*Lawrence v. Texas*, 539 U.S. 558 (2003).")  # fmt: skip
    assert right == {(BOWERS, LAWRENCE): "supported"}
    wrong = _overrulings(
        auditor_obj, lead + "Later the Court overruled it in Obergefell v. Hodges."
    )
    assert wrong == {(BOWERS, OBERGEFELL): "contradicted"}
    declined = _overrulings(
        auditor_obj, lead + "Later the Court declined to overrule it in Obergefell v. Hodges."
    )
    assert "supported" not in declined.values() and "contradicted" not in declined.values()
