"""Surface forms every reader takes in stride: plurals of several-word names and of codes,
thousands grouped by spaces next to a currency, and a dated heading over a dateless move."""

from __future__ import annotations

from auditor import audit, get_auditor
from auditor.extract.quantities import find_quantities


def test_plurals_of_several_word_names_and_codes_link() -> None:
    linker = get_auditor().linker_for("finance")
    got = {m.text: m.candidates for m in linker.link("Currency transaction reports and CTRs.")}
    assert got["Currency transaction reports"] == ("obligation:us-ctr",)
    assert got["CTRs"] == ("obligation:us-ctr",)
    # a one-word name does not take an "s": "jerseys" is not the Crown dependency
    assert [m.text for m in linker.link("New jerseys for the team.")] == []


def test_the_ctr_comparator_is_checked_on_a_plural_name() -> None:
    text = "Currency transaction reports are generated on transactions of $10,000 or more."
    claims = audit(text, domain="finance", as_of="2025-01-01").claims
    assert [(c.verdict, c.subject) for c in claims] == [("contradicted", "obligation:us-ctr")]
    assert "more than 10,000 USD" in (claims[0].reason or "")


def test_space_grouped_thousands_next_to_a_currency() -> None:
    got = [(q.text, q.value, q.unit) for q in find_quantities("with € 10 000 or more in cash")]
    assert got == [("€ 10 000", 10000.0, "EUR")]
    assert find_quantities("10 000 euros")[0].value == 10000.0
    # never in a dose: "2 500 mg tablets" is two tablets of 500 mg
    assert [q.value for q in find_quantities("take 2 500 mg tablets")] == [500.0]
    text = (
        "If you plan to enter or leave the EU with € 10 000 or more in cash, you must declare it."
    )
    claims = audit(text, domain="finance", as_of="2025-01-01").claims
    assert [(c.verdict, c.subject) for c in claims] == [
        ("supported", "obligation:eu-cash-declaration")
    ]


def test_a_dated_heading_that_names_the_bank_dates_its_move() -> None:
    text = (
        "### ECB (Thursday, 6 June 2024)\nThe European Central Bank lowered its deposit facility "
        "rate by {size} to **3.75%**, its first cut since 2019."
    )
    wrong = audit(text.format(size="25 percentage points"), domain="finance", as_of="2024-06-10")
    moves = [c for c in wrong.claims if c.object == "down"]
    assert [c.verdict for c in moves] == ["contradicted"]
    right = audit(text.format(size="25 basis points"), domain="finance", as_of="2024-06-10")
    assert "contradicted" not in [c.verdict for c in right.claims]
    # a page's own date over a move it recounts dates nothing
    page = (
        "## Update (4 December 2026)\nThe ECB lowered its deposit facility rate by 25 basis points."
    )
    assert audit(page, domain="finance", as_of="2026-12-04").claims == []


def test_a_day_of_the_month_is_no_range_start() -> None:
    """ "on March 3 to 1%-1.25%": 3 is the day, not "3 to 1%" (which left "-1.25%" a negative
    rate: four false contradictions of a true sentence)."""
    got = [
        (q.text, q.value, q.value_max)
        for q in find_quantities(
            "the Fed cut twice: on March 3 to 1%-1.25% and on March 15 to 0%-0.25%."
        )
    ]
    assert got == [("1%-1.25%", 1.0, 1.25), ("0%-0.25%", 0.0, 0.25)]
    assert find_quantities("Adults may 5 to 10 mg")[0].value_max == 10.0  # "may", the verb


def test_two_dated_cuts_in_one_sentence_are_read_each_at_its_day(auditor_obj) -> None:
    res = auditor_obj.audit(
        "In March 2020 the Fed cut rates twice: on March 3 to 1%-1.25% and on March 15 to "
        "0%-0.25%.",
        domain="finance",
        as_of="2025-09-01",
    )
    rates = [c for c in res.claims if c.predicate == "policyRate" and c.quantity is not None]
    assert rates and {c.verdict for c in rates} == {"supported"}, [
        (c.object, c.verdict, c.reason) for c in rates
    ]
