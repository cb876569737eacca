"""A case named in full once and by one party after (issue 24: real phrasing): the later
short form denotes that case, even where the party is an everyday word the graph does not
link on its own ("Swift", "Austin", "Lawrence", "Lemon"). And three readings of an
overruling sentence that must not pair the wrong cases. Sentences written for this test;
the overrulings are the graph's (Swift by Erie, 1938; Bowers by Lawrence, 2003; Lemon by
Kennedy v. Bremerton, 2022; Austin by Citizens United, 2010; Roe and Casey by Dobbs, 2022)."""

from __future__ import annotations

import pytest

from auditor import audit
from auditor.extract.case_names import _party_short_forms, later_short_forms
from auditor.types import Mention


def _overrulings(text: str) -> list[tuple[str, str, str]]:
    r = audit(text, domain="legal", as_of="2024-01-01")
    return [(c.subject, str(c.object), c.verdict) for c in r.claims if c.predicate == "overruledBy"]


SWIFT, ERIE = "case:41 U.S. 1", "case:304 U.S. 64"
BOWERS, LAWRENCE = "case:478 U.S. 186", "case:539 U.S. 558"


def test_a_later_short_form_names_the_case_of_the_full_name() -> None:
    text = "Swift v. Tyson let federal judges make general common law. Erie later overruled Swift."
    assert _overrulings(text) == [(SWIFT, ERIE, "supported")]


def test_a_later_short_form_of_an_overruled_case_relied_on_is_contradicted() -> None:
    text = (
        "The leading case was Lemon v. Kurtzman, 403 U.S. 602 (1971). Under Lemon, a display "
        "with no secular purpose is unconstitutional."
    )
    r = audit(text, domain="legal", as_of="2024-01-01")
    relied = [
        c for c in r.claims if c.subject == "case:403 U.S. 602" and c.verdict == "contradicted"
    ]
    assert relied and "Under Lemon" in relied[0].text


def test_both_short_forms_after_their_full_names() -> None:
    text = (
        "Bowers v. Hardwick upheld a Georgia statute in 1986. Lawrence v. Texas came in 2003. "
        "Lawrence overruled Bowers."
    )
    assert (BOWERS, LAWRENCE, "supported") in _overrulings(text)


@pytest.mark.parametrize(
    ("name", "forms"),
    [
        ("Swift v. Tyson", ["Swift"]),
        ("Citizens United v. FEC", ["Citizens United", "Citizens"]),
        ("United States v. Lopez", ["Lopez"]),  # a government first party: the other side
        ("Planned Parenthood of Southeastern Pa. v. Casey", ["Casey"]),
        ("Erie Railroad Co. v. Tompkins", ["Erie Railroad Co.", "Erie"]),
    ],
)
def test_party_short_forms(name: str, forms: list[str]) -> None:
    assert _party_short_forms(name) == forms


def test_a_short_form_is_not_read_before_the_full_name_or_in_other_names() -> None:
    text = (
        "Swift was fast. Swift v. Tyson was decided in 1842. Justice Swift agreed. Swift v. Ohio."
    )
    full = text.index("Swift v. Tyson")
    m = Mention(full, full + len("Swift v. Tyson"), "Swift v. Tyson", (SWIFT,), ("Case",))
    assert later_short_forms(text, [m]) == []  # before it, after a title, another case's name


def test_a_form_two_cases_share_is_left_alone() -> None:
    text = "Brown v. Board of Education and Brown v. Plata differ. Brown ended segregation."
    a = Mention(0, 26, "Brown v. Board of Education", ("case:347 U.S. 483",), ("Case",))
    b = Mention(31, 45, "Brown v. Plata", ("case:563 U.S. 493",), ("Case",))
    assert later_short_forms(text, [a, b]) == []


def test_the_word_overrule_named_is_no_overruling() -> None:
    text = (
        "Plessy v. Ferguson upheld segregation. Brown v. Board of Education ended it. Brown "
        'never used the word "overrule," but Plessy is universally treated as repudiated.'
    )
    assert _overrulings(text) == []


def test_a_case_coordinated_with_a_passive_overruling_is_not_its_overruler() -> None:
    text = (
        "Austin v. Michigan Chamber of Commerce was decided in 1990. The Court declared that "
        'Austin "should be and now is overruled," along with part of McConnell v. FEC.'
    )
    assert _overrulings(text) == []


def test_a_case_after_but_is_not_overruled_with_the_others() -> None:
    text = (
        "Dobbs v. Jackson Women's Health Organization overruled Roe v. Wade but left "
        "Planned Parenthood v. Casey's test in place."
    )
    # Casey is not overruled with Roe: the contrast clause says Dobbs left it standing, a
    # denial the graph contradicts (Dobbs overruled both)
    assert _overrulings(text) == [
        ("case:410 U.S. 113", "case:597 U.S. 215", "supported"),
        ("case:505 U.S. 833", "case:597 U.S. 215", "contradicted"),
    ]


@pytest.mark.parametrize(
    "tail",
    [
        "but kept Planned Parenthood v. Casey intact.",
        "while leaving Planned Parenthood v. Casey undisturbed.",
        "but preserved Planned Parenthood v. Casey.",
    ],
)
def test_a_case_the_overruling_keeps_is_denied_overruled(tail: str) -> None:
    text = f"Dobbs v. Jackson Women's Health Organization overruled Roe v. Wade {tail}"
    got = {s: v for s, _, v in _overrulings(text)}
    assert got == {"case:410 U.S. 113": "supported", "case:505 U.S. 833": "contradicted"}


def test_left_without_a_word_that_the_case_stands_claims_nothing() -> None:
    text = (
        "Dobbs v. Jackson Women's Health Organization overruled Roe v. Wade and left the "
        "question to the states, as Planned Parenthood v. Casey had not."
    )
    assert [s for s, _, _ in _overrulings(text)] == ["case:410 U.S. 113"]


def test_a_case_kept_that_no_one_overruled_is_unverifiable() -> None:
    text = (
        "Loper Bright Enterprises v. Raimondo overruled Chevron U.S.A. Inc. v. Natural "
        "Resources Defense Council, Inc. but left Skidmore v. Swift & Co. in place."
    )
    got = {s: v for s, _, v in _overrulings(text)}
    assert got["case:323 U.S. 134"] == "unverifiable"  # absence is not evidence


@pytest.mark.parametrize(
    "text",
    [
        "Bowers v. Hardwick was overruled by Lawrence v. Texas.",
        "Bowers v. Hardwick was overruled in 2003 in Lawrence v. Texas.",
        "Bowers v. Hardwick was overturned by the Court's decision in Lawrence v. Texas.",
        "Bowers v. Hardwick was overturned in the 2003 Lawrence v. Texas case.",
    ],
)
def test_the_agent_of_a_passive_overruling(text: str) -> None:
    assert _overrulings(text) == [(BOWERS, LAWRENCE, "supported")]
