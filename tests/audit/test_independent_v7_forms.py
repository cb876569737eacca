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


# -- independent set v8 (tests/realistic/*/126-139) ------------------------------------------


def test_the_number_of_a_name_is_no_range(auditor_obj):
    text = ("Capital conservation buffer: 2.5%, which lifts the effective floors to 7% CET1, 8.5% "
            "Tier 1 and 10.5% total capital.")  # fmt: skip
    assert not _contradicted(_audit(auditor_obj, text, "finance"))


def test_the_value_after_an_arrow_is_the_level_the_move_set(auditor_obj):
    """ECB, 5 June 2025: the marginal lending rate lowered from 2.65% to 2.40% (11 June)."""
    text = ("**The ECB's June 2025 cut**\n\n- **MLF** (marginal lending facility): {a} → "
            "**{b}**")  # fmt: skip
    got = {}
    for a, b in (("2.65%", "2.40%"), ("2.90%", "2.65%")):
        res = _audit(auditor_obj, text.format(a=a, b=b), "finance", as_of="2026-01-05")
        got[b] = [c.verdict for c in res.claims if c.object == b.replace("0%", "%")]
    assert got == {"2.40%": ["supported"], "2.65%": ["contradicted"]}, got


def test_a_weight_band_is_a_population(auditor_obj):
    """Acarbose: 50 mg three times daily for patients <= 60 kg, 100 mg for > 60 kg."""
    text = ("For patients weighing 60 kg or less, the acarbose maximum is 50 mg tid (150 mg a "
            "day); above 60 kg it is 100 mg tid (300 mg a day).")  # fmt: skip
    res = _audit(auditor_obj, text, "medical")
    assert not _contradicted(res)
    assert [c.verdict for c in res.claims if c.object == "150 mg per day"] == ["supported"]


def test_years_pair_with_names_in_order(auditor_obj):
    """SCDB: Bowers v. Hardwick 1986, Lawrence v. Texas 2003."""
    got = {}
    for years in ("1986 and 2003", "1987 and 2003"):
        text = f"Bowers v. Hardwick and Lawrence v. Texas were decided in {years}."
        res = _audit(auditor_obj, text, "legal")
        got[years] = sorted((c.subject, c.verdict) for c in res.claims if c.predicate == "decided")
    assert got["1986 and 2003"] == [("case:478 U.S. 186", "supported")]
    assert got["1987 and 2003"] == [("case:478 U.S. 186", "contradicted")]


def test_another_jurisdictions_authority_does_not_recall_an_act(auditor_obj):
    text = "MiCA was adopted on 31 May 2023. The SEC adopted its rule on 5 June 2019."
    res = _audit(auditor_obj, text, "finance")
    assert not _contradicted(res)


def test_a_funds_transfer_rule_described_by_what_it_requires(auditor_obj):
    """31 CFR 1020.410(a): funds transfers of $3,000 or more."""
    got = {}
    for v in ("$3,000", "$5,000"):
        text = (f"For funds transfers of {v} or more, the bank must obtain and keep originator "
                "and beneficiary information.")  # fmt: skip
        got[v] = [c.verdict for c in _audit(auditor_obj, text, "finance").claims]
    assert got == {"$3,000": ["supported"], "$5,000": ["contradicted"]}


def test_a_drug_column_header_with_its_brand(auditor_obj):
    """CIALIS for erectile dysfunction: at most 20 mg once per day."""
    text = ("| | Sildenafil (Viagra) | Tadalafil (Cialis) |\n|---|---|---|\n"
            "| Maximum | 100 mg, once a day | 40 mg once daily for erectile dysfunction |")  # fmt: skip
    res = _audit(auditor_obj, text, "medical")
    found = [(c.subject, c.verdict) for c in res.claims if c.object == "40 mg per day"]
    assert found == [("drug:tadalafil", "contradicted")], found


def test_a_requirement_named_before_a_dash(auditor_obj):
    """BCBS RBC20: Tier 1 at least 6% of RWA."""
    got = {}
    for v in ("5.5%", "6%"):
        text = f"2. **Tier 1 minimum — {v} of RWA.** CET1 plus Additional Tier 1 instruments."
        got[v] = [c.verdict for c in _audit(auditor_obj, text, "finance").claims]
    assert got == {"5.5%": ["contradicted"], "6%": ["supported"]}


def test_a_list_change_under_a_dated_heading_takes_its_date(auditor_obj):
    """FATF, 23 February 2024: Kenya and Namibia added; Nigeria listed since February 2023.
    Undated, the change was judged against the latest plenary before the audit date."""
    got = {}
    for pair in ("Kenya and Namibia", "Kenya and Nigeria"):
        text = f"### February 2024 plenary\n- **Added to the grey list:** {pair}."
        res = _audit(auditor_obj, text, "finance", as_of="2025-01-10")
        got[pair] = sorted((c.subject, c.verdict) for c in res.claims)
    assert got["Kenya and Namibia"] == [("country:KE", "supported"), ("country:NA", "supported")]
    assert got["Kenya and Nigeria"] == [("country:KE", "supported"), ("country:NG", "contradicted")]
