"""Issue 24: classes of phrasing found by the independent set v7 (tests/realistic/*/120-132),
in wordings of our own. False contradictions in correct text first, then one miss.

* an obligation past a semicolon, whose part states its own amount, is not the value's
  (31 CFR 1020.320: banks $5,000; 1022.320: money services businesses $2,000);
* "didn't come until <day> (to <range>)": the move came that day (FOMC 14 December 2016,
  0.50-0.75 from 15 December);
* "corresponds to the SLR, not to the 4% ratio": a contrasted value names another measure;
* "Nobody came off the list, so it now has 22 entries": "it" is the list, not the last country;
* "co-packaged with ritonavir 100 mg": the amount right after a drug is that drug's;
* "the gap between the MRO and the deposit rate shrank from 50 to 15 basis points": a spread;
* "lowering its target to 1.75%" on 8 October 2008 (the FOMC cut to 1-1/2 percent) is judged.
"""

from __future__ import annotations


def _audit(auditor_obj, text, domain, as_of="2025-09-01"):
    return auditor_obj.audit(text, domain=domain, as_of=as_of)


def _contradicted(res):
    return [(c.subject, c.object, c.reason) for c in res.claims if c.verdict == "contradicted"]


def test_an_obligation_past_a_semicolon_keeps_its_own_amount(auditor_obj):
    text = ("A bank reports suspicious transactions of at least $5,000 (§ 1020.320(a)(2)); a "
            "money services business reports at $2,000 or more (§ 1022.320(a)(2)).")  # fmt: skip
    res = _audit(auditor_obj, text, "finance")
    assert not _contradicted(res)
    msb = [c for c in res.claims if c.subject == "obligation:us-sar-msb"]
    assert [(c.object, c.verdict) for c in msb] == [("2000 USD", "supported")]


def test_not_until_a_day_is_that_day(auditor_obj):
    text = ("## Federal funds target range\n\n- The second hike didn't come until Dec 14, 2016 "
            "(to 0.50–0.75%).")  # fmt: skip
    res = _audit(auditor_obj, text, "finance")
    assert not _contradicted(res)


def test_a_contrasted_value_names_another_measure(auditor_obj):
    text = (
        "The Basel 3% minimum corresponds to the supplementary leverage ratio, not to the 4% ratio."
    )
    assert not _contradicted(_audit(auditor_obj, text, "finance"))


def test_it_is_the_list_when_the_list_is_counted(auditor_obj):
    text = ("In February 2026 the FATF added Kuwait to its grey list. Nobody came off the list "
            "this time, so it now has 22 entries, up from 20 after the October 2025 plenary.")  # fmt: skip
    res = _audit(auditor_obj, text, "finance", as_of="2026-03-01")
    assert not [c for c in res.claims if c.predicate == "fatfListed" and "entries" in c.text]


def test_the_amount_after_a_drug_is_that_drugs(auditor_obj):
    text = ("| Drug | Usual | Cap |\n|---|---|---|\n| Nirmatrelvir | 300 mg twice daily | — |\n\n"
            "Nirmatrelvir is always co-packaged with ritonavir 100 mg taken with each dose.")  # fmt: skip
    res = _audit(auditor_obj, text, "medical")
    assert not [c for c in res.claims if c.subject == "drug:nirmatrelvir" and c.object == "100 mg"]
    assert not _contradicted(res)


def test_a_spread_is_not_a_rate(auditor_obj):
    text = ("The gap between the ECB's main refinancing rate and its deposit rate shrank from 50 "
            "to 15 basis points in September 2024.")  # fmt: skip
    assert not _contradicted(_audit(auditor_obj, text, "finance"))


def test_lowering_its_target_is_the_policy_target(auditor_obj):
    text = ("After Lehman Brothers failed, the Fed joined a coordinated action with other central "
            "banks on October 8, 2008, lowering its target to {v}.")  # fmt: skip
    got = {}
    for v in ("1.75%", "1.50%"):
        res = _audit(auditor_obj, text.format(v=v), "finance")
        got[v] = [c.verdict for c in res.claims if c.predicate == "policyRate"]
    assert got == {"1.75%": ["contradicted"], "1.50%": ["supported"]}


def test_is_the_case_to_cite_relies_on_the_case(auditor_obj):
    """Metro Broadcasting (1990) was overruled by Adarand (1995)."""
    text = ("For federal programs, Metro Broadcasting, Inc. v. FCC, 497 U.S. 547 (1990), is the "
            "case to cite.")  # fmt: skip
    res = _audit(auditor_obj, text, "legal")
    assert [c.verdict for c in res.claims if c.predicate == "overruledBy"] == ["contradicted"]


def test_within_the_last_week_is_one_week(auditor_obj):
    """Metronidazole label: not to patients who have taken disulfiram within the last two weeks."""
    got = {}
    for span in ("the last week", "the last two weeks"):
        text = (
            f"Metronidazole should not be given to anyone who has taken disulfiram within {span}."
        )
        res = _audit(auditor_obj, text, "medical")
        got[span] = [c.verdict for c in res.claims if c.predicate == "washoutBefore"]
    assert got == {"the last week": ["contradicted"], "the last two weeks": ["supported"]}


def test_an_identifier_equated_with_a_named_act(auditor_obj):
    """regulations.yaml: SFDR is Regulation (EU) 2019/2088."""
    res = _audit(auditor_obj, "- SFDR = Regulation (EU) 2019/2089, on disclosures", "finance")
    assert [c.verdict for c in res.claims if c.predicate == "officialIdentifier"] == [
        "contradicted"
    ]
