"""Issue 24, finance: verdicts that depend on what is claimed, not on how it is worded.

Each row is an illustration written for this file (not taken from an evaluation set), labelled
against knowledge_graphs/curated/finance: FATF increased-monitoring snapshots (South Africa
listed on the lists of 2025-02-21 and 2025-06-13 and off the one of 2025-10-24; the Philippines
off the list of 2025-02-21; Kenya and Namibia added 2024-02-23; Nigeria listed since 2023-02-24;
Viet Nam added 2023-06-23; Pakistan off since 2022-10-21); SAR thresholds $5,000 for banks
(31 CFR 1020.320(a)(2)) and $2,000 for money services businesses (31 CFR 1022.320(a)(2));
Basel III minimums CET1 4.5 %, Tier 1 6 %, total capital 8 %, with the 2.5 % conservation buffer
7 / 8.5 / 10.5 %, G-SIB surcharge 1-3.5 %, output floor 72.5 % (RBC20); the currencies of Sweden,
Poland, Czechia, Hungary and Romania (not the euro, CLDR); MiFID II = Directive 2014/65/EU,
MiFIR = Regulation (EU) No 600/2014; MiCA applies from 30 December 2024 (Art. 149), titles III
and IV from 30 June 2024; the federal funds target range peaked at 5.25-5.50 % (2023-07-27 to
2024-09-18).
"""

from __future__ import annotations

import pytest

AS_OF = "2025-08-01"

ROWS = [
    # (id, text, subject, predicate, verdict); verdict None: nothing of the predicate may be
    # contradicted; "not supported": no claim of the subject and predicate may be supported
    # -- a change of listing is not membership -----------------------------------------
    ("delisting-wrong-month", "South Africa was removed from the FATF grey list in February "
     "2025.", "country:ZA", "fatfListed", "contradicted"),
    ("delisting-came-off", "South Africa came off the grey list in February 2025 after "
     "completing its action plan.", "country:ZA", "fatfListed", "contradicted"),
    ("delisting-right-month", "South Africa was removed from the grey list in October 2025.",
     "country:ZA", "fatfListed", "supported"),
    ("delisting-taken-off", "The Philippines was taken off the FATF grey list in February 2025.",
     "country:PH", "fatfListed", "supported"),
    ("listing-added-right", "Kenya was added to the grey list in February 2024.",
     "country:KE", "fatfListed", "supported"),
    ("listing-added-already-on", "Nigeria was added to the FATF grey list in February 2025.",
     "country:NG", "fatfListed", "contradicted"),
    ("remains-since-but-removed", "The Philippines remains on the grey list, where it has been "
     "since June 2021.", "country:PH", "fatfListed", "contradicted"),
    ("on-since-plenary-month", "Vietnam has been on the grey list since June 2023.",
     "country:VN", "fatfListed", "supported"),
    ("on-since-but-removed", "Pakistan has been on the FATF grey list since June 2018.",
     "country:PK", "fatfListed", "contradicted"),
    ("black-not-grey", "Myanmar is on the FATF black list, not the grey list.",
     "country:MM", "fatfListed", "supported"),
    ("grey-not-black", "Nigeria is on the grey list, not the black list.",
     "country:NG", "fatfListed", "supported"),
    ("black-checked-on-grey", "Myanmar is on the grey list.", "country:MM", "fatfListed",
     "contradicted"),
    ("negated-black", "Iran is not on the FATF black list.", "country:IR", "fatfListed",
     "contradicted"),
    # -- the institution picks the obligation ------------------------------------------
    ("msb-money-transmitter", "Money transmitters must file a SAR for suspicious transactions "
     "of $5,000 or more.", "obligation:us-sar-msb", "reportingThreshold", "contradicted"),
    ("msb-check-casher", "Check cashers must file a SAR when a suspicious transaction involves "
     "$5,000 or more.", "obligation:us-sar-msb", "reportingThreshold", "contradicted"),
    ("msb-right", "A money transmitter files a SAR for suspicious transactions of at least "
     "$2,000.", "obligation:us-sar-msb", "reportingThreshold", "supported"),
    ("money-order-issuers-own-rule", "A Suspicious Activity Report by issuers of money orders "
     "or traveler's checks (clearance-record review) is required for amounts of $5,000 or more.",
     "obligation:us-sar-msb-clearance-records", "reportingThreshold", "supported"),
    ("bank-right", "Banks must file a SAR for suspicious transactions of $5,000 or more.",
     "obligation:us-sar-bank", "reportingThreshold", "supported"),
    ("row-cites-earlier-act", "| Rule | Act | Threshold |\n|---|---|---|\n| Cash declaration "
     "| Regulation (EC) No 1889/2005 (replaced by Regulation (EU) 2018/1672 in 2021) | EUR 10,000 "
     "or more |", "obligation:eu-cash-declaration", "reportingThreshold", "not supported"),
    ("row-cites-later-act", "| Rule | Act | Threshold |\n|---|---|---|\n| EU cash declaration "
     "| Regulation (EU) 2018/1672, replacing Regulation (EC) No 1889/2005 | EUR 15,000 or more |",
     "obligation:eu-cash-declaration", "reportingThreshold", "contradicted"),
    # -- capital: the buffer, the surcharge and the make-up of a ratio ------------------
    ("buffer-adding", "Adding the conservation buffer gives effective requirements of 7% CET1, "
     "8.5% Tier 1 and 10% total capital.", "ratio:total-capital-with-conservation-buffer",
     "minimumRatio", "contradicted"),
    ("buffer-adding-right", "Adding the capital conservation buffer gives 7% CET1.",
     "ratio:cet1-with-conservation-buffer", "minimumRatio", "supported"),
    ("surcharge-is-not-minimum", "G-SIBs face an additional CET1 surcharge of 1% to 3.5%.",
     "ratio:cet1-minimum", "minimumRatio", None),
    ("buffer-named-after-minimum", "Banks must hold a Tier 1 buffer of 2.5% above the minimum.",
     "ratio:tier1-minimum", "minimumRatio", None),
    ("make-up-in-parentheses", "The minimum total capital ratio (CET1 + Additional Tier 1 + "
     "Tier 2) is 8%.", "ratio:total-capital-minimum", "minimumRatio", "supported"),
    ("make-up-in-parentheses-wrong", "The minimum total capital ratio (CET1 plus Tier 1 and "
     "Tier 2 instruments) is 10%.", "ratio:total-capital-minimum", "minimumRatio",
     "contradicted"),
    ("floor-under-heading", "### Output floor\nRisk-weighted assets cannot fall below 70% of "
     "the standardised amount.", "ratio:output-floor", "minimumRatio", "contradicted"),
    ("floor-under-heading-right", "### Output floor\nRWAs may not fall below 72.5% of the "
     "standardised-approach RWAs once fully phased in.", "ratio:output-floor", "minimumRatio",
     "supported"),
    # -- a prospective object is not the current one ------------------------------------
    ("euro-obliged", "Sweden, Poland and Czechia are obliged to adopt the euro eventually.",
     "country:SE", "currency", None),
    ("euro-expected", "Romania is expected to adopt the euro later this decade.",
     "country:RO", "currency", None),
    ("euro-committed", "Hungary is committed to joining the euro area, with no target date.",
     "country:HU", "currency", None),
    ("euro-present-wrong", "Poland uses the euro.", "country:PL", "currency", "contradicted"),
    # -- an identifier of an act named beside it ----------------------------------------
    ("two-acts-one-row", "| **MiFID II / MiFIR** | Directive 2014/65/EU; Regulation (EU) No "
     "600/2014 | 3 January 2018 |", "regulation:mifir", "officialIdentifier", None),
    ("two-acts-prose", "MiFID II and MiFIR (Directive 2014/65/EU and Regulation (EU) No "
     "600/2014) apply since 2018.", "regulation:mifir", "officialIdentifier", None),
    # -- staged application dates -------------------------------------------------------
    ("staged-parenthesis", "| Regulation | Reference | Applies from |\n|---|---|---|\n"
     "| **MiCA** | Regulation (EU) 2023/1114 | 30 June 2024 (stablecoin titles); 30 December "
     "2024 (rest) |", "regulation:mica", "applicationDate", "supported"),
    ("staged-for-titles", "MiCA has applied from 30 June 2024 for titles III and IV.",
     "regulation:mica", "applicationDate", None),
    ("unstaged-wrong", "MiCA has applied since 30 June 2024.", "regulation:mica",
     "applicationDate", "contradicted"),
    # -- recall: "has applied <where> since <date>" ---------------------------------------
    ("applied-across-since", "DORA has applied across the EU since 17 January 2025.",
     "regulation:dora", "applicationDate", "supported"),
    ("applied-to-since-wrong", "DORA has applied to banks since 17 January 2024.",
     "regulation:dora", "applicationDate", "contradicted"),
    ("applied-in-member-states", "MiCA has applied in all member states since 30 December 2024.",
     "regulation:mica", "applicationDate", "supported"),
    ("cap-refers-back", "The AMLR, Regulation (EU) 2024/1624, bans cash payments above EUR "
     "10,000.\n\nThe cap has applied across the EU since 10 July 2025.", "regulation:eu-amlr",
     "applicationDate", "contradicted"),
    ("limit-refers-back", "The AMLR, Regulation (EU) 2024/1624, bans cash payments above EUR "
     "10,000.\n\nThe limit will apply from 10 July 2027.", "regulation:eu-amlr",
     "applicationDate", "supported"),
    # -- recall: a threshold bound by the act it cites -----------------------------------
    ("cited-act-wrong", "Under Regulation (EU) 2018/1672, travellers entering or leaving the EU "
     "must declare cash of EUR 15,000 or more.", "obligation:eu-cash-declaration",
     "reportingThreshold", "contradicted"),
    ("cited-act-right", "Under Regulation (EU) 2018/1672, travellers must declare cash of EUR "
     "10,000 or more.", "obligation:eu-cash-declaration", "reportingThreshold", "supported"),
    ("cited-act-more-than", "Regulation (EU) 2018/1672 requires travellers to declare more than "
     "EUR 10,000 in cash.", "obligation:eu-cash-declaration", "reportingThreshold",
     "unverifiable"),
    ("border-us-described", "Travelers carrying more than $10,000 in currency into or out of "
     "the United States must declare it to U.S. Customs and Border Protection.",
     "obligation:us-cmir", "reportingThreshold", "supported"),
    ("border-us-described-wrong", "You must declare currency of $5,000 or more when entering the "
     "United States.", "obligation:us-cmir", "reportingThreshold", "contradicted"),
    ("border-eu-described", "Anyone entering or leaving the European Union with EUR 10,000 or "
     "more in cash must declare it to customs.", "obligation:eu-cash-declaration",
     "reportingThreshold", "supported"),
    ("border-eu-described-wrong", "Anyone entering or leaving the European Union with EUR 15,000 "
     "or more in cash must declare it to customs.", "obligation:eu-cash-declaration",
     "reportingThreshold", "contradicted"),
    ("border-flying-into", "When flying into the EU, you must declare cash of €10,000 or more "
     "to customs.", "obligation:eu-cash-declaration", "reportingThreshold", "supported"),
    ("border-two-jurisdictions", "Unlike the EU, the United States asks travellers to declare "
     "cash of more than $10,000 when entering.", "obligation:us-cmir", "reportingThreshold",
     "not supported"),
    ("cmir-form-105-wrong", "Travellers carrying $5,000 or more into the United States must file "
     "FinCEN Form 105.", "obligation:us-cmir", "reportingThreshold", "contradicted"),
    ("cmir-form-105-right", "If you carry more than $10,000 in currency into the U.S., you must "
     "file FinCEN Form 105.", "obligation:us-cmir", "reportingThreshold", "supported"),
    # -- a rate is dated by its own date, not another bank's or another clause's ----------
    ("other-banks-cell", "| Central bank | Rate | Last change |\n|---|---|---|\n"
     "| ECB deposit facility rate | 3.50% | Fed: 18 September 2024 |",
     "rate:ecb-deposit-facility", "policyRate", "unverifiable"),
    ("other-banks-column", "| Central bank | Policy rate | Fed decision |\n|---|---|---|\n"
     "| ECB | deposit rate 3.75% | 18 September 2024 |", "rate:ecb-deposit-facility",
     "policyRate", "unverifiable"),
    ("own-banks-cell", "| Central bank | Policy rate | Decision |\n|---|---|---|\n"
     "| ECB | deposit rate 3.50% | 12 September 2024 |", "rate:ecb-deposit-facility",
     "policyRate", "supported"),
    ("date-after-value", "The ECB began cutting in June 2024 and lowered its deposit facility "
     "rate to 2.00% in June 2025.", "rate:ecb-deposit-facility", "policyRate", "supported"),
    ("date-after-value-wrong", "The ECB began cutting in June 2024 and lowered its deposit "
     "facility rate to 2.25% in June 2025.", "rate:ecb-deposit-facility", "policyRate",
     "contradicted"),
    ("en-dash-minus", "The DFR had been negative since June 2014 and stood at **–0.50%** "
     "from September 2019.", "rate:ecb-deposit-facility", "policyRate", "supported"),
    # -- a peak is dated only in its own clause -----------------------------------------
    ("peak-other-clause", "The June 2022 move was the largest hike since 1994, and 5.25%–5.50% "
     "was the highest range in 22 years.", "bank:federal-reserve", "policyRate", None),
    ("peak-own-clause-wrong", "The federal funds rate peaked at 4.75%–5.00% in 2023.",
     "rate:fed-funds-target", "policyRate", "contradicted"),
    ("peak-own-clause-right", "The federal funds rate peaked at 5.25%–5.50% in 2023.",
     "rate:fed-funds-target", "policyRate", "supported"),
]  # fmt: skip


@pytest.mark.parametrize(("text", "subject", "predicate", "verdict"),
                         [r[1:] for r in ROWS], ids=[r[0] for r in ROWS])  # fmt: skip
def test_finance_verdict(
    auditor_obj, text: str, subject: str, predicate: str, verdict: str | None
) -> None:
    res = auditor_obj.audit(text, domain="finance", as_of=AS_OF)
    mine = [c for c in res.claims if c.subject == subject and c.predicate == predicate]
    if verdict == "not supported":  # a wrong support must not happen; no claim is fine
        assert "supported" not in {c.verdict for c in mine}, [(c.object, c.reason) for c in mine]
        return
    if verdict is None:  # precision row: no claim of this relation may be contradicted
        bad = [c for c in res.claims if c.predicate == predicate and c.verdict == "contradicted"]
        assert not bad, [(c.subject, c.object, c.reason) for c in bad]
        return
    assert mine, [(c.subject, c.predicate, c.verdict) for c in res.claims]
    if verdict == "supported":  # a row may carry other, partial dates left unverifiable
        assert {c.verdict for c in mine} - {"unverifiable"} == {"supported"}, [
            (c.object, c.verdict, c.reason) for c in mine
        ]
        return
    assert verdict in {c.verdict for c in mine}, [(c.object, c.verdict, c.reason) for c in mine]
    assert "supported" not in {c.verdict for c in mine}


def test_sar_table_under_an_outer_heading(auditor_obj) -> None:
    """A SAR threshold table with no obligation in its rows is bound by the heading above its
    own: the bank's $2,000 row is wrong, the 12 CFR 21.11 categories are not compared."""
    text = (
        "## When must a bank file a SAR?\n\n### Dollar thresholds for banks\n"
        "| Type of activity | Threshold |\n|---|---|\n"
        "| Known or suspected crime, no suspect identified | $25,000 or more |\n"
        "| Possible money laundering or structuring | $2,000 or more |\n\n"
        "- SARs are judgment calls; CTRs (for cash over $10,000) are automatic\n"
    )
    res = auditor_obj.audit(text, domain="finance", as_of=AS_OF)
    sar = [c for c in res.claims if c.subject == "obligation:us-sar-bank"]
    assert [(c.object, c.verdict) for c in sar] == [("2000 USD", "contradicted")], [
        (c.text, c.object, c.verdict) for c in sar
    ]


def test_sar_prose_threshold_under_question_heading(auditor_obj) -> None:
    text = (
        "## When does a bank have to file a SAR?\n\n### Dollar thresholds for banks\n"
        "- $10,000 or more in funds or other assets, when the bank suspects the transaction "
        "involves illegal funds.\n"
    )
    res = auditor_obj.audit(text, domain="finance", as_of=AS_OF)
    sar = [c for c in res.claims if c.subject == "obligation:us-sar-bank"]
    assert [c.verdict for c in sar] == ["contradicted"], res.to_dict()["claims"]
