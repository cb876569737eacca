"""Issue 24: false contradictions the independent set v6 (tests/realistic/*/114-124) found in
correct text, one class each, in wordings of our own. Each must stay unverifiable or supported:

* a product's strength name ("Famotidine 20 mg (Maximum Strength)") is not a maximum, and a
  bare "Limit" column header is one (PEPCID AC Maximum Strength: 2 tablets, 40 mg, in 24 h);
* another value cell's population ("| 40 mg/day | 20 mg/day over age 60 |") is that cell's
  (citalopram 40 mg/day; 20 mg/day over 60);
* the route of the therapy a dose continues ("oral tablets only as a continuation of
  injectable therapy") is not the dose's (ketorolac oral 40 mg/day);
* a list item after "... says so." starts a new sentence ("So." is also a reporter);
* a bold question line of two sentences heads the answer below it (rizatriptan 30 mg/24 h);
* an emphasis run inside the words before "v." starts the case name ("the Sentencing
  Guidelines, *United States v. Booker*");
* a verbless "and the MLF 4.75%" shares the date of the clause it is gapped after, "decided on
  8 September and 27 October, taking the rate to 0.75% and then 1.50%" pairs days and values
  in order, a value named by a rate name the graph lacks ("2.75% (marginal lending)") is bound
  to no other series, and a name inside ", which ..., " does not govern the value after it;
* a heading's "2022–2023" is not the year 2022; "Two 75 bp increases followed" is no present
  tense;
* the subject of an application date cut off by an aside ("The rules on ... tokens (Titles III
  and IV) applied from 30 June 2024") is a part of the act (MiCA applies from 30 December 2024).
"""

from __future__ import annotations

import pytest


def _claims(auditor_obj, text, domain, predicate, as_of="2025-09-01"):
    res = auditor_obj.audit(text, domain=domain, as_of=as_of)
    return [c for c in res.claims if c.predicate == predicate]


def _no_contradiction(auditor_obj, text, domain, as_of="2025-09-01"):
    res = auditor_obj.audit(text, domain=domain, as_of=as_of)
    bad = [(c.subject, c.object, c.reason) for c in res.claims if c.verdict == "contradicted"]
    bad += [(c.text, c.detail) for c in res.citations if c.outcome == "contradicted"]
    assert not bad, bad
    return res


def test_a_strength_name_is_not_a_maximum_and_a_limit_column_is(auditor_obj):
    text = ("| Medicine | How to take | Limit |\n|---|---|---|\n"
            "| Famotidine 20 mg (Maximum Strength) | 1 tablet | 2 tablets (40 mg) in 24 hours |")  # fmt: skip
    _no_contradiction(auditor_obj, text, "medical")
    found = {c.object: c.verdict for c in _claims(auditor_obj, text, "medical", "maxDose")}
    assert found.get("40 mg") == "supported", found


def test_another_value_cells_population_is_its_own(auditor_obj):
    text = ("| Drug | Maximum | Notes |\n|---|---|---|\n"
            "| Citalopram | 40 mg/day | 20 mg/day over age 60 (QT prolongation) |")  # fmt: skip
    _no_contradiction(auditor_obj, text, "medical")
    found = {c.object: c.verdict for c in _claims(auditor_obj, text, "medical", "maxDose")}
    assert found.get("40 mg per day") == "supported", found


def test_the_route_of_the_therapy_continued_is_not_the_doses(auditor_obj):
    text = ("- **Ketorolac:** oral tablets only as a continuation of injectable therapy, 40 mg a "
            "day maximum, for no more than 5 days in total.")  # fmt: skip
    found = _claims(auditor_obj, text, "medical", "maxDose")
    assert [(c.object, c.verdict) for c in found] == [("40 mg per day", "supported")]


def test_a_list_item_after_so_is_a_new_sentence(auditor_obj):
    text = ("### Ibuprofen\n- **OTC (200 mg tablets):** don't exceed 6 tablets (1,200 mg) in 24 "
            "hours unless a doctor says so.\n- **Prescription:** for rheumatoid arthritis, up to "
            "3,200 mg a day; 3,200 mg is the ceiling.")  # fmt: skip
    _no_contradiction(auditor_obj, text, "medical")


def test_a_bold_question_of_two_sentences_heads_its_answer(auditor_obj):
    text = ("**Q: How much sumatriptan can I take?**\nNo more than 200 mg in 24 hours.\n\n"
            "**Q: I use rizatriptan (Maxalt). What's my limit?**\nUsually 5 or 10 mg per dose, "
            "and no more than 30 mg in 24 hours.")  # fmt: skip
    found = {(c.subject, c.object): c.verdict for c in _claims(auditor_obj, text, "medical",
                                                               "maxDose")}  # fmt: skip
    assert found.get(("drug:rizatriptan", "30 mg per day")) == "supported", found
    assert ("drug:sumatriptan", "30 mg per day") not in found


@pytest.mark.parametrize(
    "text",
    [
        "Apprendi was then applied to the federal Sentencing Guidelines, *United States v. "
        "Booker*, 543 U.S. 220 (2005).",
        "See *Goodyear Dunlop Tires Operations, S.A. v. Brown*, 564 U.S. 915 (2011).",
    ],
)
def test_an_emphasised_case_name_starts_where_the_emphasis_does(auditor_obj, text):
    res = _no_contradiction(auditor_obj, text, "legal")
    assert [c.outcome for c in res.citations] == ["verified"]


@pytest.mark.parametrize(
    ("text", "value", "verdict"),
    [
        ("The deposit facility rate rose to 4.00%, effective 20 September 2023, when the MRO "
         "reached 4.50% and the MLF 4.75%.", "4.75%", "supported"),
        ("The deposit facility rate rose to 4.00%, effective 20 September 2023, when the MRO "
         "reached 4.50% and the MLF 4.50%.", "4.5%", "contradicted"),
    ],
)  # fmt: skip
def test_a_gapped_clause_shares_the_date(auditor_obj, text, value, verdict):
    found = [c for c in _claims(auditor_obj, "# ECB rates — January 2026\n\n" + text, "finance",
                                "policyRate", as_of="2026-01-20")
             if c.subject == "rate:ecb-marginal-lending"]  # fmt: skip
    assert [(c.object, c.verdict) for c in found] == [(value, verdict)]


def test_days_and_values_pair_in_order(auditor_obj):
    text = ("# The ECB's 2022 in review\n\n**The big steps.** Two 75 bp increases followed, "
            "decided on 8 September and 27 October, taking the deposit rate to 0.75% and then "
            "1.50%.")  # fmt: skip
    found = {c.object: c for c in _claims(auditor_obj, text, "finance", "policyRate",
                                          as_of="2022-12-31")}  # fmt: skip
    assert found["0.75%"].verdict == "supported", found["0.75%"].reason
    assert found["0.75%"].date.first.isoformat() == "2022-09-08"


def test_an_unknown_rate_name_in_parentheses_binds_nothing(auditor_obj):
    text = ("From 21 December 2022 the three rates are 2.00% (deposit facility), 2.50% (MRO) and "
            "2.75% (marginal lending).")  # fmt: skip
    res = _no_contradiction(auditor_obj, text, "finance", as_of="2023-01-05")
    assert not [
        c for c in res.claims if c.object == "2.75%" and c.subject != "rate:ecb-marginal-lending"
    ]


def test_a_name_inside_a_relative_clause_does_not_govern(auditor_obj):
    text = ("The marginal lending rate, which sits 25 bp above the MRO, stood at 4.75% from 20 "
            "September 2023.")  # fmt: skip
    found = _claims(auditor_obj, text, "finance", "policyRate", as_of="2024-01-05")
    assert [(c.subject, c.verdict) for c in found] == [("rate:ecb-marginal-lending", "supported")]


def test_a_year_range_heading_is_not_its_first_year(auditor_obj):
    text = ("### How fast did the Fed raise rates in 2022–2023?\n\n**What happened next?** The "
            "Fed held at 5.25%–5.50% for more than a year.")  # fmt: skip
    _no_contradiction(auditor_obj, text, "finance", as_of="2025-01-10")


def test_a_part_of_the_act_cut_off_by_an_aside(auditor_obj):
    text = ("**MiCA came in two steps.** The rules on asset-referenced tokens and e-money tokens "
            "(Titles III and IV) applied from 30 June 2024, six months before the rest.")  # fmt: skip
    _no_contradiction(auditor_obj, text, "finance")
    found = _claims(auditor_obj, "MiCA applied from 30 June 2024.", "finance", "applicationDate")
    assert [c.verdict for c in found] == ["contradicted"]


@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        ("Federal funds target range moves:\n\n- December 14, 2022: +50 bp to 4.25%–4.50%.",
         "supported"),
        ("Federal funds target range moves:\n\n- December 14, 2022: +75 bp to 4.25%–4.50%.",
         "contradicted"),
        ("On December 14, 2022 the FOMC delivered a 75 basis point hike, to 4.25%–4.50%.",
         "contradicted"),
        # "by 75 basis points" is the move claim's slot; the level itself stays supported
        ("On December 14, 2022 the FOMC raised the federal funds target range by 75 basis "
         "points to 4.25%–4.50%.", "supported"),
        # a sum of moves is not the size of the one that set the level
        ("Over 2022 the FOMC raised the federal funds target range seven times, by a total of "
         "425 bp, to 4.25%–4.50% on December 14, 2022.", "supported"),
    ],
)  # fmt: skip
def test_the_size_of_the_move_that_set_a_level(auditor_obj, text, verdict):
    """FOMC, 14 December 2022: the target range raised to 4-1/4 to 4-1/2 percent from 3-3/4 to
    4 percent (50 bp); the level right with the wrong move size is an error of the number."""
    found = [c for c in _claims(auditor_obj, text, "finance", "policyRate", as_of="2025-01-10")
             if c.object == "4.25–4.5%"]  # fmt: skip
    assert [c.verdict for c in found] == [verdict], [c.reason for c in found]


def test_an_earlier_values_move_is_not_this_ones(auditor_obj):
    text = (
        "## 2008\n\nAfter a 75 basis point move on March 18 (to 2.25%) and a cut to 2% on "
        "April 30, the Committee held the federal funds target rate until the fall."
    )
    _no_contradiction(auditor_obj, text, "finance", as_of="2009-01-05")


_WASHOUT_LIST = (
    "### Stopping the antidepressant before starting an MAOI\n"
    "- **Sertraline, paroxetine:** at least 14 days.\n"
    "- **Venlafaxine:** at least {venlafaxine}.\n\n"
    "### Stopping the MAOI before starting the next drug\n"
    "- **Mirtazapine:** {mirtazapine}.\n"
)


@pytest.mark.parametrize(
    ("venlafaxine", "mirtazapine", "expected"),
    [
        ("7 days", "14 days", {"drug:sertraline": "supported", "drug:paroxetine": "supported",
                               "drug:venlafaxine": "supported", "drug:mirtazapine": "supported"}),
        ("3 days", "7 days", {"drug:sertraline": "supported", "drug:paroxetine": "supported",
                              "drug:venlafaxine": "contradicted",
                              "drug:mirtazapine": "contradicted"}),
    ],
)  # fmt: skip
def test_a_washout_list_under_a_directional_heading(auditor_obj, venlafaxine, mirtazapine,
                                                    expected):  # fmt: skip
    """Labels: venlafaxine ER, 7 days after stopping before an MAOI; mirtazapine, 14 days after
    stopping an MAOI; SSRIs 14 days."""
    text = _WASHOUT_LIST.format(venlafaxine=venlafaxine, mirtazapine=mirtazapine)
    found = {}
    for c in _claims(auditor_obj, text, "medical", "washoutBefore"):
        drug = c.subject if c.object == "drugclass:maois-psychiatric" else c.object
        found[drug] = c.verdict
    assert found == expected


def test_a_bold_question_ends_before_its_answer(auditor_obj):
    text = ('**"What about a decongestant for a cold?"** Pseudoephedrine (Sudafed) is fine with '
            "an MAOI as long as you stay under 240 mg a day.")  # fmt: skip
    found = [(c.subject, c.verdict) for c in _claims(auditor_obj, text, "medical", "interactsWith")]
    assert ("drug:pseudoephedrine", "contradicted") in found, found


def test_a_product_form_interacts_as_its_ingredient(auditor_obj):
    """Nitroglycerin (any product) with sildenafil: contraindicated (VIAGRA label)."""
    text = "It's fine to take sildenafil on days you haven't used your nitroglycerin spray."
    found = [c.verdict for c in _claims(auditor_obj, text, "medical", "interactsWith")]
    assert found == ["contradicted"], found
