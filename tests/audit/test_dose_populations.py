"""A dose's population is read from the words that are the dose's own, and age bounds of
adults are not children: "40 mg for adults under 60, 20 mg for patients over 60"."""

from __future__ import annotations

import pytest

from auditor import audit
from auditor.extract.frames.dose_words import population_of


@pytest.mark.parametrize(
    ("text", "population"),
    [
        ("adults under 60 years of age", "adult"),
        ("adults 18 to 64 years", "adult"),
        ("patients over 60 years", "elderly"),
        ("adults and children 6 years and older", "adult"),
        ("children under 12", "pediatric"),
        ("children 2 to 11 years", "pediatric"),
        ("under 18", "pediatric"),
    ],
)
def test_population_words(text: str, population: str) -> None:
    assert population_of(text) == population


def _verdicts(text: str) -> list[tuple[str, str | None]]:
    return [(c.verdict, c.object) for c in audit(text, domain="medical", as_of="2025-01-01").claims]


def test_each_dose_of_a_sentence_takes_its_own_population() -> None:
    text = (
        "The maximum recommended dose of citalopram is {a} per day for adults under 60 years of "
        "age, with recommended maximum of {b} per day for patients over 60 years."
    )
    assert _verdicts(text.format(a="40 mg", b="20 mg")) == [
        ("supported", "40 mg per day"),
        ("supported", "20 mg per day"),
    ]
    assert _verdicts(text.format(a="20 mg", b="40 mg")) == [
        ("contradicted", "20 mg per day"),
        ("contradicted", "40 mg per day"),
    ]


def test_adults_and_children_over_an_age_read_as_the_adult_label() -> None:
    text = (
        "The maximum recommended dose of loratadine is 10 mg once daily for adults and children "
        "6 years and older."
    )
    assert _verdicts(text) == [("supported", "10 mg per day")]


def test_a_bound_on_every_dose_given_is_a_maximum() -> None:
    assert _verdicts("Doctors should not give citalopram at doses that exceed 60 mg per day.") == [
        ("contradicted", "60 mg per day")
    ]
    claims = audit(
        "Patients should not be started at doses above 20 mg of citalopram.",
        domain="medical",
        as_of="2025-01-01",
    ).claims
    assert [c.frame.role for c in claims if c.frame] == ["start"]


def test_the_maximum_named_as_subject_of_can_go_up_to_is_a_maximum() -> None:
    text = "The maximum daily dose for prescription ibuprofen can go up to {v}."
    assert [v for v, _ in _verdicts(text.format(v="4,000 mg"))] == ["contradicted"]
    # without "the maximum" as its subject the same verb is a permitted dose, not a maximum
    claims = audit(
        "Prescription ibuprofen can go up to 3,200 mg a day.", domain="medical", as_of="2025-01-01"
    ).claims
    assert [c.frame.role for c in claims if c.frame] == ["permitted"]


def test_each_listed_dose_takes_its_own_status_and_formulation() -> None:
    otc_rx = (
        "For adults, the maximum approved loperamide dose is 8 mg/d for over-the-counter use "
        "and {rx} for prescription use."
    )
    assert _verdicts(otc_rx.format(rx="16 mg/d")) == [
        ("supported", "8 mg per day"),
        ("supported", "16 mg per day"),
    ]
    assert ("contradicted", "24 mg per day") in _verdicts(otc_rx.format(rx="24 mg/d"))
    forms = (
        "The maximum recommended dose of metformin is 2550 mg per day for immediate-release "
        "formulations and {er} per day for extended-release formulations."
    )
    assert _verdicts(forms.format(er="2000 mg")) == [
        ("supported", "2550 mg per day"),
        ("supported", "2000 mg per day"),
    ]
    assert sorted(_verdicts(forms.format(er="2550 mg"))) == [
        ("contradicted", "2550 mg per day"),  # the extended-release maximum is 2,000 mg
        ("supported", "2550 mg per day"),
    ]


def test_an_equivalence_aside_of_another_dose_lends_no_qualifier() -> None:
    text = (
        "The maximum recommended dose of acetaminophen for adults is 4,000 mg daily (the same as "
        "8 extra strength tablets of 500 mg or 12 regular strength tablets of 325 mg)."
    )
    # the graph's oral maximum is the 3,000 mg of one Extra Strength product: not this claim's
    assert "contradicted" not in [v for v, _ in _verdicts(text)]
