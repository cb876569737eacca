"""Coordinated lists: "A, B and C ... x, y and z respectively" pairs the k-th value with the
k-th name, and two values joined by a bare "and" are two values, never a range."""

from __future__ import annotations

import pytest

from auditor import audit
from auditor.extract.quantities import find_quantities

ECB_2023 = (
    "On 14 September 2023 the Governing Council decided to raise the three key ECB interest "
    "rates by 25 basis points. Accordingly, the interest rates on the main refinancing "
    "operations, the marginal lending facility and the deposit facility will be increased to "
    "{mro}, {mlf} and {dfr} respectively, with effect from 20 September 2023."
)


def _verdicts(text: str, as_of: str = "2023-10-01") -> list[tuple[str, str | None, str]]:
    r = audit(text, domain="finance", as_of=as_of)
    return [(c.verdict, c.subject, text[c.start : c.end]) for c in r.claims]


@pytest.mark.parametrize(
    ("text", "values"),
    [
        (
            "increased to 4.50%, 4.75% and 4.00% respectively",
            [(4.5, None), (4.75, None), (4.0, None)],
        ),
        ("fines of $10,000 and $5,000", [(10000.0, None), (5000.0, None)]),
        ("500 mg and 250 mg tablets", [(500.0, None), (250.0, None)]),
        ("$1 million and $2 million", [(1e6, None), (2e6, None)]),
        # ranges stay ranges
        ("between 5% and 6%", [(5.0, 6.0)]),
        ("between $10,000 and $15,000", [(10000.0, 15000.0)]),
        ("5.25 and 5.50 percent", [(5.25, 5.5)]),
        ("4.25%-4.50%", [(4.25, 4.5)]),
        ("take 2 to 4 mg daily", [(2.0, 4.0)]),
    ],
)
def test_a_bare_and_between_two_united_values_is_a_list(text: str, values: list) -> None:
    assert [(q.value, q.value_max) for q in find_quantities(text)] == values


def test_the_ecbs_own_wording_pairs_each_rate_with_its_series() -> None:
    text = ECB_2023.format(mro="4.50%", mlf="4.75%", dfr="4.00%")
    got = _verdicts(text)
    assert [(v, s) for v, s, _ in got] == [
        ("supported", "rate:ecb-main-refinancing"),
        ("supported", "rate:ecb-marginal-lending"),
        ("supported", "rate:ecb-deposit-facility"),
    ]
    assert [span.split()[0] for _, _, span in got] == ["4.50%", "4.75%", "4.00%"]


def test_swapped_values_are_contradicted_each_against_its_own_series() -> None:
    text = ECB_2023.format(mro="4.75%", mlf="4.50%", dfr="4.00%")
    got = {s: v for v, s, _ in _verdicts(text)}
    assert got == {
        "rate:ecb-main-refinancing": "contradicted",
        "rate:ecb-marginal-lending": "contradicted",
        "rate:ecb-deposit-facility": "supported",
    }


def test_a_decision_date_with_a_respectively_list_checks_the_new_levels() -> None:
    text = (
        "On 14 September 2023 the ECB raised the interest rates on the main refinancing "
        "operations, the marginal lending facility and the deposit facility to 4.75%, 4.50% "
        "and 4.00% respectively."
    )
    got = {s: v for v, s, _ in _verdicts(text)}
    # the MLF was 4.50% until 20 September, but "raised ... to" names the new level (4.75%)
    assert got["rate:ecb-marginal-lending"] == "contradicted"
    assert got["rate:ecb-main-refinancing"] == "contradicted"


def test_names_and_values_that_do_not_pair_make_no_claim() -> None:
    text = (
        "Accordingly, the interest rates on the main refinancing operations, the marginal "
        "lending facility and the deposit facility will be increased to 4.50% and 4.75% "
        "respectively, with effect from 20 September 2023."
    )
    assert [v for v, _, _ in _verdicts(text) if v != "unverifiable"] == []


def test_the_operations_name_alone_links_its_rate() -> None:
    text = (
        "The ECB's 10th straight interest rate hike lifts the benchmark deposit rate to a "
        "record-high 4.00 percent. The rate on the main refinancing operations now climbs to "
        "4.50 percent and on the marginal lending facility to 4.75 percent."
    )
    got = [(v, s) for v, s, _ in _verdicts(text, "2023-09-14") if v == "supported"]
    assert got == [
        ("supported", "rate:ecb-deposit-facility"),
        ("supported", "rate:ecb-main-refinancing"),
        ("supported", "rate:ecb-marginal-lending"),
    ]


def test_capital_minimums_listed_respectively() -> None:
    lead = "Under the Basel III rules adopted in the U.S., the minimum CET1, Tier 1 and total "
    right = _verdicts(lead + "capital ratios are 4.5%, 6% and 8%, respectively.", "2025-01-01")
    assert [(v, s) for v, s, _ in right] == [
        ("supported", "ratio:cet1-minimum"),
        ("supported", "ratio:tier1-minimum"),
        ("supported", "ratio:total-capital-minimum"),
    ]
    swapped = _verdicts(lead + "capital ratios are 6%, 4.5% and 8%, respectively.", "2025-01-01")
    assert [v for v, _, _ in swapped] == ["contradicted", "contradicted", "supported"]


def test_doses_of_two_drugs_listed_respectively() -> None:
    text = (
        "The maximum daily doses of ibuprofen and naproxen sodium sold over the counter are "
        "{a} and {b} respectively."
    )
    right = audit(text.format(a="1,200 mg", b="660 mg"), domain="medical", as_of="2025-01-01")
    assert [(c.verdict, c.subject) for c in right.claims] == [
        ("supported", "drug:ibuprofen"),
        ("supported", "drug:naproxen"),
    ]
    swapped = audit(text.format(a="660 mg", b="1,200 mg"), domain="medical", as_of="2025-01-01")
    assert [(c.verdict, c.subject) for c in swapped.claims] == [
        ("contradicted", "drug:ibuprofen"),
        ("contradicted", "drug:naproxen"),
    ]


def test_one_name_with_two_values_keeps_the_usual_reading() -> None:
    # one drug, two values "respectively" (two products): no pairing, no name invented
    text = (
        "For ibuprofen, the tablet and the liquid gel maximums are 1,200 mg and 1,200 mg "
        "respectively."
    )
    r = audit(text, domain="medical", as_of="2025-01-01")
    assert all(c.subject in (None, "drug:ibuprofen") for c in r.claims)


def test_a_list_whose_names_repeat_their_head_noun_still_pairs() -> None:
    text = (
        "Accordingly, the interest rate on the main refinancing operations and the interest "
        "rates on the marginal lending facility and the deposit facility will be increased to "
        "4.50%, 4.75% and 4.00% respectively, with effect from 20 September 2023."
    )
    assert [(v, s) for v, s, _ in _verdicts(text)] == [
        ("supported", "rate:ecb-main-refinancing"),
        ("supported", "rate:ecb-marginal-lending"),
        ("supported", "rate:ecb-deposit-facility"),
    ]
