"""Decision years stated without a verb before them (issue 24: real phrasing): a year that
modifies the decision noun next to the case's name, a case after a preposition with "in
<year>", and a sentence that opens with the date of a clause whose verb is a decision's.
Sentences written for this test; the years are the graph's (U.S. Reports): Abood 1977,
Bowers 1986, Twombly 2007, Iqbal 2009, Miranda 1966 (June 13), Brown 1954 (May 17), Swift
1842, Erie 1938. A year that dates another event near a case stays unread."""

from __future__ import annotations

import pytest

from auditor import audit


def _decided(text: str) -> list[tuple[str, str]]:
    r = audit(text, domain="legal", as_of="2024-01-01")
    return [(c.object, c.verdict) for c in r.claims if c.predicate == "decided"]


LINKED = [
    # a year modifying the decision noun right before the name
    ("The 1977 case, Abood v. Detroit Board of Education, let unions charge agency fees.", "1977"),
    (
        "In its 2009 ruling in Ashcroft v. Iqbal the Court applied that standard to all suits.",
        "2009",
    ),
    ("The famous 1966 Supreme Court decision in Miranda v. Arizona requires warnings.", "1966"),
    # the apposition after the name
    ("Lawrence rejected Bowers v. Hardwick, a 1986 decision upholding a Georgia law.", "1986"),
    # a preposition, the case, "in <year>"
    (
        "Plausibility pleading has been the rule since Bell Atlantic Corp. v. Twombly in 2007.",
        "in 2007",
    ),
    # the sentence opens with the date; the clause's verb is a decision's
    (
        "In 1842, the Court ruled in Swift v. Tyson that federal judges need not follow state "
        "common law.",
        "In 1842",
    ),
    ("On June 13, 1966, the Justices handed down Miranda v. Arizona.", "On June 13, 1966"),
]


@pytest.mark.parametrize(("text", "year"), LINKED)
def test_a_linked_decision_year_is_supported(text: str, year: str) -> None:
    assert _decided(text) == [(year, "supported")]


WRONG = [
    ("The 1979 case, Abood v. Detroit Board of Education, let unions charge agency fees.", "1979"),
    ("Lawrence rejected Bowers v. Hardwick, a 1988 decision upholding a Georgia law.", "1988"),
    (
        "Plausibility pleading has been the rule since Bell Atlantic Corp. v. Twombly in 2005.",
        "in 2005",
    ),
    (
        "On May 18, 1954, the Court issued its decision in Brown v. Board of Education.",
        "On May 18, 1954",
    ),
    (
        "In the 1936 case of Erie Railroad Co. v. Tompkins, the Court abandoned general federal "
        "common law.",
        "1936",
    ),
]


@pytest.mark.parametrize(("text", "year"), WRONG)
def test_a_wrong_linked_decision_year_is_contradicted(text: str, year: str) -> None:
    assert _decided(text) == [(year, "contradicted")]


OTHER_EVENTS = [
    "Planned Parenthood v. Casey reaffirmed Roe v. Wade in 1992.",  # Casey's year, not Roe's
    "The Court relied on Roe v. Wade in 1992.",
    "In 2022, the Court overruled Roe v. Wade in Dobbs.",  # the overruling's year
    "In 2019, the Ninth Circuit held in Miranda v. Arizona's shadow that warnings suffice.",
    "A 2015 study of Miranda v. Arizona warnings found low comprehension.",
    "In 1990, scholars revisited Bowers v. Hardwick at length.",  # no decision verb
]


@pytest.mark.parametrize("text", OTHER_EVENTS)
def test_a_year_of_another_event_near_a_case_is_not_its_decision_year(text: str) -> None:
    assert _decided(text) == []
