"""Table-driven verdict tests: one row per behaviour the issue names (temporal, units,
not-in-graph, citations, negation), each with the verdict and hallucination type expected."""

from __future__ import annotations

import pytest

ROWS = [
    # (id, domain, as_of, text, rule, verdict, hallucination type)
    (
        "dose-ok",
        "medical",
        "2025-01-15",
        "Do not exceed 4,000 mg of acetaminophen per day.",
        "MED-DOSE-MAX",
        "supported",
        None,
    ),
    (
        "dose-grams-ok",
        "medical",
        "2025-01-15",
        "The prescription maximum of acetaminophen is 4 g per day.",
        "MED-DOSE-MAX",
        "supported",
        None,
    ),
    (
        "dose-unit-slip",
        "medical",
        "2025-01-15",
        "The maximum daily dose of ibuprofen OTC is 1,200 g per day.",
        "MED-DOSE-MAX",
        "contradicted",
        "unit_error",
    ),
    (
        "dose-numeric",
        "medical",
        "2025-01-15",
        "Over the counter, adults can take up to 2,400 mg of ibuprofen a day.",
        "MED-DOSE-MAX",
        "contradicted",
        "numeric_error",
    ),
    (
        "dose-single-not-daily",
        "medical",
        "2025-01-15",
        "You can take up to 800 mg of ibuprofen at once.",
        "MED-DOSE-MAX",
        "unverifiable",
        None,
    ),
    (
        "interaction-safely-combined",
        "medical",
        "2025-01-15",
        "Aspirin can be safely combined with warfarin.",
        "MED-INTERACT",
        "contradicted",
        "negation_flip",
    ),
    (
        "interaction-can-safely-take",
        "medical",
        "2025-01-15",
        "You can safely take aspirin together with warfarin as long as you watch for bruising.",
        "MED-INTERACT",
        "contradicted",
        "negation_flip",
    ),
    (
        "dose-other-period-not-contradicted",
        "medical",
        "2025-01-15",
        "Colchicine max is 1.8 mg per day for gout flares.",
        "MED-DOSE-MAX",
        "unverifiable",
        None,
    ),
    (
        "daily-dose-is-not-a-schedule",
        "medical",
        "2025-01-15",
        "The max daily dose of acetaminophen is 4000 mg.",
        "MED-DOSE-FREQ",
        None,
        None,
    ),
    (
        "daily-dose-of-a-weekly-drug",
        "medical",
        "2025-01-15",
        "The maximum daily dose of methotrexate is 2.5 mg.",
        "MED-DOSE-FREQ",
        "contradicted",
        "numeric_error",
    ),
    (
        "basel-including-buffer",
        "finance",
        "2025-01-15",
        "Under Basel III, the minimum total capital ratio is 10.5% including the conservation "
        "buffer.",
        "FIN-BASEL",
        "supported",
        None,
    ),
    (
        "basel-including-buffer-wrong",
        "finance",
        "2025-01-15",
        "Under Basel III, the minimum total capital ratio is 11% including the conservation buffer.",
        "FIN-BASEL",
        "contradicted",
        "numeric_error",
    ),
    (
        "rate-throughout-a-year",
        "finance",
        "2025-01-15",
        "The Fed's target range was 0% to 0.25% throughout 2021.",
        "FIN-RATE-LEVEL",
        "supported",
        None,
    ),
    (
        "list-header-is-the-topic",
        "medical",
        "2025-01-15",
        "3. **Aspirin**: You can safely take it together with warfarin.",
        "MED-INTERACT",
        "contradicted",
        "negation_flip",
    ),
    (
        "list-header-across-clauses",
        "medical",
        "2025-01-15",
        "**Ibuprofen (Advil)**: Max 1,200 mg/day OTC; do not combine with warfarin.",
        "MED-INTERACT",
        "supported",
        None,
    ),
    (
        "rate-level-after-a-dated-year",
        "finance",
        "2025-06-01",
        "The Fed lowered the federal funds rate by 25 bps in December 2024 to 4.25%-4.50%.",
        "FIN-RATE-LEVEL",
        "supported",
        None,
    ),
    (
        "refuted-reported-interaction",
        "medical",
        "2025-01-15",
        "Some sources claim ibuprofen can be safely combined with warfarin, but that is wrong.",
        "MED-INTERACT",
        "unverifiable",
        None,
    ),
    (
        "myth-framing",
        "medical",
        "2025-01-15",
        "It is a myth that sildenafil is safe with nitroglycerin.",
        "MED-INTERACT",
        "unverifiable",
        None,
    ),
    (
        "correction-after-refuted-value",
        "finance",
        "2025-01-15",
        "If you read that the CTR threshold is $5,000, that is incorrect.",
        "FIN-THRESHOLD",
        "unverifiable",
        None,
    ),
    (
        "denied-wrong-value",
        "medical",
        "2025-01-15",
        "The maximum daily dose of acetaminophen is not 8,000 mg.",
        "MED-DOSE-MAX",
        "supported",
        None,
    ),
    (
        "denied-right-value",
        "finance",
        "2025-01-15",
        "The CTR threshold is not $10,000.",
        "FIN-THRESHOLD",
        "contradicted",
        "negation_flip",
    ),
    (
        "denied-move-true",
        "finance",
        "2025-01-15",
        "The Fed did not raise rates in 2020.",
        "FIN-RATE-MOVE",
        "supported",
        None,
    ),
    (
        "denied-move-false",
        "finance",
        "2025-01-15",
        "The Fed did not cut rates in 2020.",
        "FIN-RATE-MOVE",
        "contradicted",
        "negation_flip",
    ),
    (
        "frame-does-not-reach-the-next-clause",
        "medical",
        "2025-01-15",
        "The myth that aspirin prevents all heart attacks persists, and aspirin should not be "
        "combined with warfarin.",
        "MED-INTERACT",
        "supported",
        None,
    ),
    (
        "elliptical-imperative-clause",
        "medical",
        "2025-01-15",
        "Clopidogrel 75 mg daily; avoid omeprazole.",
        "MED-INTERACT",
        "supported",
        None,
    ),
    (
        "class-membership-is-not-an-interaction",
        "medical",
        "2025-01-15",
        "Sertraline is an SSRI; do not combine with linezolid.",
        "MED-INTERACT",
        "supported",
        None,
    ),
    (
        "bedtime-dose-is-daily",
        "medical",
        "2025-01-15",
        "For adults over 65, the maximum dose of zolpidem is 5 mg at bedtime.",
        "MED-DOSE-MAX",
        "supported",
        None,
    ),
    (
        "dose-no-label-max",
        "medical",
        "2025-01-15",
        "The maximum daily dose of warfarin is 10 mg.",
        "MED-DOSE-MAX",
        "unverifiable",
        None,
    ),
    (
        "dose-unknown-drug",
        "medical",
        "2025-01-15",
        "The maximum daily dose of Zorblatin is 50 mg.",
        None,
        None,
        None,
    ),
    (
        "interaction-denied",
        "medical",
        "2025-01-15",
        "Sildenafil and nitroglycerin can be taken together safely.",
        "MED-INTERACT",
        "contradicted",
        "negation_flip",
    ),
    (
        "interaction-class",
        "medical",
        "2025-01-15",
        "Never take sildenafil with nitrates.",
        "MED-INTERACT",
        "supported",
        None,
    ),
    (
        "interaction-absent-not-contradicted",
        "medical",
        "2025-01-15",
        "It is safe to take loratadine with metformin.",
        "MED-INTERACT",
        "unverifiable",
        None,
    ),
    (
        "weekly-methotrexate",
        "medical",
        "2025-01-15",
        "For rheumatoid arthritis, methotrexate is taken once a week.",
        "MED-DOSE-FREQ",
        "supported",
        None,
    ),
    (
        "withdrawn-ranitidine",
        "medical",
        "2025-01-15",
        "Ranitidine is still available for heartburn.",
        "MED-MARKET",
        "contradicted",
        "outdated_fact",
    ),
    (
        "brand-mismatch",
        "medical",
        "2025-01-15",
        "Advil (acetaminophen) is gentle on the stomach.",
        "MED-BRAND",
        "contradicted",
        "wrong_entity",
    ),
    (
        "rate-superseded",
        "finance",
        "2024-01-15",
        "The federal funds target range is currently 0.25% to 0.50%.",
        "FIN-RATE-LEVEL",
        "contradicted",
        "outdated_fact",
    ),
    (
        "rate-at-date",
        "finance",
        "2025-01-15",
        "In March 2022 the Fed raised the federal funds rate to 0.25%-0.50%.",
        "FIN-RATE-LEVEL",
        "supported",
        None,
    ),
    (
        "rate-after-coverage",
        "finance",
        "2030-01-01",
        "The federal funds target range is now 3.50%–3.75%.",
        "FIN-RATE-LEVEL",
        "unverifiable",
        None,
    ),
    (
        "rate-bp-change-not-level",
        "finance",
        "2025-01-15",
        "In September 2024 the Fed cut rates by 50 basis points.",
        "FIN-RATE-MOVE",
        "supported",
        None,
    ),
    (
        "currency-withdrawn",
        "finance",
        "2024-06-01",
        "Croatia's currency is the kuna.",
        "FIN-CURRENCY",
        "contradicted",
        "outdated_fact",
    ),
    (
        "currency-before-changeover",
        "finance",
        "2024-06-01",
        "In 2021 Croatia's currency was the kuna.",
        "FIN-CURRENCY",
        "supported",
        None,
    ),
    (
        "threshold-wrong-currency",
        "finance",
        "2025-01-15",
        "Banks must file a CTR for cash transactions over €10,000.",
        "FIN-THRESHOLD",
        "contradicted",
        "unit_error",
    ),
    (
        "basel-ok",
        "finance",
        "2025-01-15",
        "Basel III requires a minimum Tier 1 capital ratio of 6%.",
        "FIN-BASEL",
        "supported",
        None,
    ),
    (
        "isin-checksum",
        "finance",
        "2025-01-15",
        "Its ISIN is US0378331006.",
        "FIN-ID-CHECK",
        "contradicted",
        "invalid_identifier",
    ),
    (
        "gdpr-identifier",
        "finance",
        "2025-01-15",
        "The GDPR, Regulation (EU) 2016/697, applies to controllers.",
        "FIN-REG-ID",
        "contradicted",
        "fabricated_citation",
    ),
    (
        "overruled-good-law",
        "legal",
        "2025-01-15",
        "Roe v. Wade remains good law.",
        "LEG-GOOD-LAW",
        "contradicted",
        "outdated_fact",
    ),
    (
        "overruled-before-overruling",
        "legal",
        "2020-01-15",
        "Roe v. Wade remains good law.",
        "LEG-GOOD-LAW",
        "unverifiable",
        None,
    ),
    (
        "case-wrong-year",
        "legal",
        "2025-01-15",
        "Roe v. Wade, 410 U.S. 113 (1972), recognized a right.",
        "LEG-CITE",
        "contradicted",
        "wrong_date",
    ),
    (
        "case-wrong-page",
        "legal",
        "2025-01-15",
        "Roe v. Wade, 410 U.S. 115 (1973), recognized a right.",
        "LEG-CITE",
        "contradicted",
        "fabricated_citation",
    ),
    (
        "case-fabricated-plausible",
        "legal",
        "2025-01-15",
        "See Petersen v. Iran Air, 905 F.3d 1117 (9th Cir. 2018).",
        "LEG-CITE",
        "unverifiable",
        None,
    ),
    (
        "case-impossible-reporter",
        "legal",
        "2025-01-15",
        "See Martinez v. Delta Air Lines, Inc., 456 F.3d 789 (9th Cir. 1978).",
        "LEG-CITE",
        "contradicted",
        "impossible_citation",
    ),
    (
        "case-impossible-court",
        "legal",
        "2025-01-15",
        "See Brennan v. Atlas Insurance Co., 520 F.2d 101 (11th Cir. 1975).",
        "LEG-CITE",
        "contradicted",
        "impossible_citation",
    ),
    (
        "case-impossible-us-volume",
        "legal",
        "2025-01-15",
        "See Hartwell v. Ohio, 600 U.S. 12 (1950).",
        "LEG-CITE",
        "contradicted",
        "impossible_citation",
    ),
    (
        "case-other-reporter-in-scdb",
        "legal",
        "2025-01-15",
        "Roe v. Wade, 93 S. Ct. 705 (1973), recognized a right.",
        "LEG-CITE",
        "supported",
        None,
    ),
    (
        "case-other-reporter-wrong-year",
        "legal",
        "2025-01-15",
        "Roe v. Wade, 93 S. Ct. 705 (1971), recognized a right.",
        "LEG-CITE",
        "contradicted",
        "wrong_date",
    ),
    (
        "case-abbreviated-name-ok",
        "legal",
        "2025-01-15",
        "Brown v. Bd. of Educ., 347 U.S. 483 (1954), ended school segregation.",
        "LEG-CITE",
        "supported",
        None,
    ),
    (
        "short-form-pinpoint",
        "legal",
        "2025-01-15",
        "As the Court said in Roe, 410 U.S. at 153, the right is broad.",
        "LEG-CITE",
        "supported",
        None,
    ),
    (
        "short-form-other-case",
        "legal",
        "2025-01-15",
        "See Miranda, 410 U.S. at 153.",
        "LEG-CITE",
        "unverifiable",
        None,
    ),
    (
        "remains-the-governing-standard",
        "legal",
        "2025-01-15",
        "Chevron U.S.A. v. NRDC, 467 U.S. 837 (1984), remains the governing standard.",
        "LEG-GOOD-LAW",
        "contradicted",
        "outdated_fact",
    ),
    (
        "nominative-volume-ok",
        "legal",
        "2025-01-15",
        "Marbury v. Madison, 5 U.S. 137 (1803), is foundational.",
        "LEG-CITE",
        "supported",
        None,
    ),
    (
        "statute-wrong-crime",
        "legal",
        "2025-01-15",
        "Wire fraud is charged under 18 U.S.C. § 1341.",
        "LEG-STATUTE",
        "contradicted",
        "wrong_entity",
    ),
    # a curated case's short name ("Meyer", "Brown") inside another case's full name is not
    # that case, and a sentence naming another case does not inherit the previous one
    (
        "short-name-inside-other-case-cite",
        "legal",
        "2025-01-15",
        "Courts enforce such clauses. *Meyer v. Uber Technologies, Inc.*, 868 F.3d 66 "
        "(2d Cir. 2017).",
        None,
        None,
        None,
    ),
    (
        "short-name-inside-other-case-prose",
        "legal",
        "2025-01-15",
        "In Meyer v. Uber Technologies, decided in 2017, the Second Circuit enforced the clause.",
        None,
        None,
        None,
    ),
    (
        "other-case-does-not-inherit-topic",
        "legal",
        "2025-01-15",
        "Brown v. Board of Education was decided in 1954. In Brown v. Plata, decided in 2011, "
        "the Court upheld a prisoner release order.",
        None,
        None,
        None,
    ),
    (
        "rate-list-under-year-heading",
        "finance",
        "2025-01-15",
        "The Fed raised rates steadily.\n\n**2018 — four hikes.**\n"
        "- December 19: to **2-1/2 to 2-3/4 percent**.\n",
        "FIN-RATE-LEVEL",
        "contradicted",
        "numeric_error",
    ),
    (
        "rate-table-signed-moves",
        "finance",
        "2025-01-15",
        "# The Fed in 2008\n\n| Date | Action | Target after |\n|---|---|---|\n"
        "| Mar 18 | −75 bp | 2-1/4 percent |\n",
        "FIN-RATE-LEVEL",
        "supported",
        None,
    ),
    (
        "table-row-case-name-cell",
        "legal",
        "2025-01-15",
        "| Case | Citation | Decided |\n|---|---|---|\n| *Obergefell v. Hodges* | 576 U.S. 473 "
        "| June 26, 2015 |\n",
        "LEG-CITE",
        "contradicted",
        "fabricated_citation",
    ),
    (
        "negation-in-trailing-if-clause",
        "medical",
        "2025-01-15",
        "Ranitidine is another H2 blocker you can pick up at any pharmacy if famotidine "
        "doesn't suit you.",
        "MED-MARKET",
        "contradicted",
        "outdated_fact",
    ),
    (
        "citation-sentence-after-present-proposition",
        "legal",
        "2025-01-15",
        "Any waiver of that right given in a later police-initiated interrogation is invalid. "
        "*Michigan v. Jackson*, 475 U.S. 625 (1986).",
        "LEG-GOOD-LAW",
        "contradicted",
        "outdated_fact",
    ),
    (
        "citation-sentence-after-past-proposition",
        "legal",
        "2025-01-15",
        "Any waiver given in a later police-initiated interrogation was invalid. "
        "*Michigan v. Jackson*, 475 U.S. 625 (1986).",
        "LEG-GOOD-LAW",
        None,
        None,
    ),
    (
        "citation-sentence-with-the-overruling-named",
        "legal",
        "2025-01-15",
        "Any waiver given in a later police-initiated interrogation is invalid. "
        "*Michigan v. Jackson*, 475 U.S. 625 (1986). Montejo v. Louisiana, 556 U.S. 778 (2009), "
        "changed this.",
        "LEG-GOOD-LAW",
        None,
        None,
    ),
    (
        "test-of-overruled-case-then-participle",
        "legal",
        "2025-01-15",
        "Courts evaluate government religious displays under the three-part test of "
        "*Lemon v. Kurtzman*, 403 U.S. 602, 612–13 (1971), asking whether the display has a "
        "secular purpose.",
        "LEG-GOOD-LAW",
        "contradicted",
        "outdated_fact",
    ),
    (
        "came-down-on-wrong-day",
        "legal",
        "2025-01-15",
        "Students for Fair Admissions, Inc. v. President and Fellows of Harvard College came "
        "down on June 30, 2023.",
        "LEG-DECIDED",
        "contradicted",
        "wrong_date",
    ),
    (
        "answer-to-a-threshold-question",
        "finance",
        "2025-01-15",
        "**3. What is the dollar threshold for a bank to file a Suspicious Activity Report?**\n"
        "$10,000 — the same as the CTR.",
        "FIN-THRESHOLD",
        "contradicted",
        "numeric_error",
    ),
    (
        "example-after-a-threshold-question",
        "finance",
        "2025-01-15",
        "## What is the CTR threshold?\n\nA customer deposits $6,000 and then $5,000.",
        "FIN-THRESHOLD",
        None,
        None,
    ),
    (
        "value-after-two-dates-is-not-guessed",
        "finance",
        "2025-01-15",
        "The ECB raised its deposit facility rate to 4.00% in September 2023 and started cutting "
        "in June 2024, to 3.75%.",
        None,
        None,
        None,
    ),
    (
        "product-suffix-from-heading-sr",
        "medical",
        "2025-01-15",
        "**Wellbutrin SR (sustained-release), depression**\n"
        "- Maximum: 450 mg per day, split into two doses\n",
        "MED-DOSE-MAX",
        "contradicted",
        "numeric_error",
    ),
    (
        "product-suffix-from-heading-xl",
        "medical",
        "2025-01-15",
        "**Wellbutrin XL (extended-release), depression**\n- Maximum: 450 mg once daily\n",
        "MED-DOSE-MAX",
        "supported",
        None,
    ),
    (
        "full-name-still-links",
        "legal",
        "2025-01-15",
        "Planned Parenthood v. Casey was decided in 1990.",
        "LEG-DECIDED",
        "contradicted",
        "wrong_date",
    ),
    (
        "washout-entresto-short",
        "medical",
        "2025-09-01",
        "Because of the risk of angioedema, stop the ACE inhibitor and wait at least 12 hours before the first Entresto dose.",
        "MED-WASHOUT",
        "contradicted",
        "numeric_error",
    ),
    (
        "washout-entresto-ok",
        "medical",
        "2025-09-01",
        "Entresto can be started 36 hours after the last dose of enalapril.",
        "MED-WASHOUT",
        "supported",
        None,
    ),
    (
        "washout-entresto-noun",
        "medical",
        "2025-09-01",
        "Switching from lisinopril to Entresto requires a 36-hour washout.",
        "MED-WASHOUT",
        "supported",
        None,
    ),
    (
        "washout-maoi-first",
        "medical",
        "2025-09-01",
        "Sertraline should not be started within 14 days of discontinuing phenelzine.",
        "MED-WASHOUT",
        "supported",
        None,
    ),
    (
        "washout-fluoxetine-short",
        "medical",
        "2025-09-01",
        "After stopping fluoxetine, wait 2 weeks before starting an MAOI.",
        "MED-WASHOUT",
        "contradicted",
        "numeric_error",
    ),
    (
        "washout-fluoxetine-ok",
        "medical",
        "2025-09-01",
        "Do not take an MAOI within 5 weeks of stopping fluoxetine because of its long half-life.",
        "MED-WASHOUT",
        "supported",
        None,
    ),
    (
        "washout-taken-within",
        "medical",
        "2025-09-01",
        "Metronidazole should not be given to patients who have taken disulfiram within the last two weeks.",
        "MED-WASHOUT",
        "supported",
        None,
    ),
    (
        "washout-pronoun-label",
        "medical",
        "2025-09-01",
        "Venlafaxine: allow 7 days after stopping it before starting an MAOI.",
        "MED-WASHOUT",
        "supported",
        None,
    ),
    (
        "washout-vortioxetine-short",
        "medical",
        "2025-09-01",
        "You only need to wait 7 days after stopping vortioxetine before starting phenelzine.",
        "MED-WASHOUT",
        "contradicted",
        "numeric_error",
    ),
    (
        "washout-direction-unknown",
        "medical",
        "2025-09-01",
        "Tramadol should not be used within 14 days of an MAOI.",
        "MED-WASHOUT",
        "unverifiable",
        None,
    ),
    (
        "washout-longer-is-not-the-label",
        "medical",
        "2025-09-01",
        "Wait 3 weeks after stopping sertraline before starting phenelzine.",
        "MED-WASHOUT",
        "unverifiable",
        None,
    ),
    (
        "washout-half-life-is-not-a-wait",
        "medical",
        "2025-09-01",
        "Fluoxetine has a half-life of 4 to 6 days, so switching from fluoxetine to phenelzine needs care.",
        "MED-WASHOUT",
        None,
        None,
    ),
    (
        "washout-titration-is-not-a-wait",
        "medical",
        "2025-09-01",
        "Lisinopril 10 mg daily can be increased after 2 weeks; Entresto is titrated every 2 to 4 weeks.",
        "MED-WASHOUT",
        None,
        None,
    ),
    (
        "indication-complication-not-parent",
        "medical",
        "2025-09-01",
        "Metformin is used to treat diabetic nerve pain.",
        "MED-INDICATION",
        "unverifiable",
        None,
    ),
    (
        "indication-parent-not-complication",
        "medical",
        "2025-09-01",
        "Duloxetine is approved for type 2 diabetes.",
        "MED-INDICATION",
        "unverifiable",
        None,
    ),
    (
        "indication-dpnp-ok",
        "medical",
        "2025-09-01",
        "Duloxetine is approved for diabetic peripheral neuropathic pain.",
        "MED-INDICATION",
        "supported",
        None,
    ),
    (
        "dose-dpnp-ceiling",
        "medical",
        "2025-09-01",
        "For diabetic nerve pain, duloxetine can be taken at up to 120 mg per day.",
        "MED-DOSE-MAX",
        "contradicted",
        "numeric_error",
    ),
    (
        "schedule-tramadol-outdated",
        "medical",
        "2025-09-01",
        "Tramadol is not a federally controlled substance.",
        "MED-SCHEDULE",
        "contradicted",
        "outdated_fact",
    ),
    (
        "schedule-oxycodone-wrong",
        "medical",
        "2025-09-01",
        "Oxycodone is a Schedule III drug.",
        "MED-SCHEDULE",
        "contradicted",
        "numeric_error",
    ),
    (
        "schedule-c-abbreviation",
        "medical",
        "2025-09-01",
        "Ultram (tramadol) is C-IV.",
        "MED-SCHEDULE",
        "supported",
        None,
    ),
    (
        "schedule-past-needs-a-time",
        "medical",
        "2025-09-01",
        "Tramadol was not federally controlled before 2014.",
        "MED-SCHEDULE",
        "unverifiable",
        None,
    ),
    (
        "schedule-state-not-checked",
        "medical",
        "2025-09-01",
        "Gabapentin is not a federally controlled substance, although Kentucky schedules it.",
        "MED-SCHEDULE",
        None,
        None,
    ),
    (
        "schedule-symptoms-not-status",
        "medical",
        "2025-09-01",
        "Her seizures are not controlled on gabapentin.",
        "MED-SCHEDULE",
        None,
        None,
    ),
    (
        "schedule-other-drug-in-clause",
        "medical",
        "2025-09-01",
        "Tramadol is not a federally controlled substance, which is one reason it is seen as safer than other opioids.",
        "MED-SCHEDULE",
        "contradicted",
        "outdated_fact",
    ),
    (
        "rx-otc-claim",
        "medical",
        "2025-09-01",
        "Amoxicillin is available over the counter at most US pharmacies.",
        "MED-RX-STATUS",
        "contradicted",
        "wrong_relation",
    ),
    (
        "rx-denied-otc",
        "medical",
        "2025-09-01",
        "Amoxicillin is not sold over the counter in the United States.",
        "MED-RX-STATUS",
        "supported",
        None,
    ),
    (
        "rx-other-country",
        "medical",
        "2025-09-01",
        "In Mexico, amoxicillin is sold over the counter.",
        "MED-RX-STATUS",
        None,
        None,
    ),
    (
        "rx-otc-adjective",
        "medical",
        "2025-09-01",
        "If amoxicillin isn't suitable, an OTC decongestant can help.",
        "MED-RX-STATUS",
        None,
        None,
    ),
    (
        "rx-two-drugs",
        "medical",
        "2025-09-01",
        "Ibuprofen is available over the counter; amoxicillin needs a prescription.",
        "MED-RX-STATUS",
        None,
        None,
    ),
    (
        "rate-peak-in-year",
        "finance",
        "2025-09-01",
        "The federal funds rate peaked at 5.25%–5.50% in 2023.",
        "FIN-RATE-LEVEL",
        "supported",
        None,
    ),
    (
        "rate-peak-wrong",
        "finance",
        "2025-09-01",
        "The federal funds rate peaked at 4.50% in 2023.",
        "FIN-RATE-LEVEL",
        "contradicted",
        "numeric_error",
    ),
    (
        "rate-peak-after-meeting",
        "finance",
        "2025-09-01",
        "The Fed's target range peaked at 5.50%–5.75% after the July 26, 2023 meeting.",
        "FIN-RATE-LEVEL",
        "contradicted",
        "numeric_error",
    ),
    (
        "rate-trough-ok",
        "finance",
        "2025-09-01",
        "The ECB deposit rate bottomed out at -0.50% in 2019.",
        "FIN-RATE-LEVEL",
        "supported",
        None,
    ),
    (
        "rate-peak-unbounded",
        "finance",
        "2025-09-01",
        "The federal funds rate peaked at 4.50%.",
        "FIN-RATE-LEVEL",
        "unverifiable",
        None,
    ),
    (
        "headline-is-asserted",
        "finance",
        "2025-06-06",
        "## ECB cuts for the eighth time; deposit rate now at 2.15%\n\nThe cut takes effect on June 11.",
        "FIN-RATE-LEVEL",
        "contradicted",
        "numeric_error",
    ),
    (
        "heading-title-not-asserted",
        "medical",
        "2025-06-06",
        "## Ibuprofen: up to 3,200 mg a day\n\nThe OTC limit is lower.",
        "MED-DOSE-MAX",
        "unverifiable",
        None,
    ),
    (
        "capital-leverage-by-denominator",
        "finance",
        "2025-09-01",
        "Basel III also introduced a backstop: Tier 1 capital must be at least 5% of the bank's total exposure measure.",
        "FIN-BASEL",
        "contradicted",
        "numeric_error",
    ),
    (
        "capital-us-leverage-by-denominator",
        "finance",
        "2025-09-01",
        "US banks must hold Tier 1 capital of at least 4% of average total consolidated assets.",
        "FIN-BASEL",
        "supported",
        None,
    ),
    (
        "capital-relative-clause-antecedent",
        "finance",
        "2025-09-01",
        "The final package added an output floor, under which risk-weighted assets may not fall below 75% of those calculated with the standardised approaches.",
        "FIN-BASEL",
        "contradicted",
        "numeric_error",
    ),
    (
        "capital-output-floor-transitional",
        "finance",
        "2025-09-01",
        "In 2025 the output floor is 60%.",
        "FIN-BASEL",
        None,
        None,
    ),
    (
        "capital-output-floor-rising",
        "finance",
        "2025-09-01",
        "The output floor rises to 60% in 2025.",
        "FIN-BASEL",
        None,
        None,
    ),
]


@pytest.mark.parametrize(
    ("domain", "as_of", "text", "rule", "verdict", "htype"),
    [r[1:] for r in ROWS],
    ids=[r[0] for r in ROWS],
)
def test_verdict(auditor_obj, domain, as_of, text, rule, verdict, htype):
    res = auditor_obj.audit(text, domain=domain, as_of=as_of)
    if rule is None:
        assert all(c.verdict != "contradicted" for c in res.claims), [
            c.to_dict() for c in res.claims
        ]
        return
    mine = [c for c in res.claims if c.rule_id == rule]
    if verdict is None:  # the rule must not make a claim of this text at all
        assert not mine, [c.to_dict() for c in mine]
        return
    assert mine, [c.to_dict() for c in res.claims]
    assert mine[0].verdict == verdict, mine[0].to_dict()
    assert mine[0].hallucination_type == htype
    if verdict != "unverifiable":
        assert mine[0].evidence, "a verdict needs its evidence"
    else:
        assert mine[0].reason


def test_uncheckable_citation_needs_review_but_is_not_flagged(auditor_obj):
    """A well-formed lower-court citation nothing here holds is unverified: "could not be
    checked", never fabricated; alone it keeps citation confidence above the 0.5 flag line."""
    res = auditor_obj.audit(
        "See Petersen v. Iran Air, 905 F.3d 1117 (9th Cir. 2018).", domain="legal"
    )
    assert [(c.outcome, c.reason) for c in res.citations] == [("unverified", "not_in_index")]
    assert res.citation_confidence is not None and res.citation_confidence >= 0.5
    assert res.counts["contradicted"] == 0
    assert res.to_dict()["needs_review"] is True


def test_caller_supplied_citations_are_checked(auditor_obj):
    res = auditor_obj.audit(
        "The court agreed.",
        domain="legal",
        citations=[
            "Brown v. Board of Education, 347 U.S. 483 (1954)",
            "Roe v. Wade",
            "Nonexistent v. Imaginary",
        ],
    )
    outcomes = sorted(c.outcome for c in res.citations)
    assert outcomes == ["unverified", "verified", "verified"]
    assert all(c.caller_supplied for c in res.citations)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "Metformin treats type 2 diabetes and lisinopril treats high blood pressure.",
            {("drug:metformin", "supported"), ("drug:lisinopril", "supported")},
        ),
        (
            "Also, metformin is used to treat type 2 diabetes, and atorvastatin is indicated "
            "for high cholesterol.",
            {("drug:metformin", "supported"), ("drug:atorvastatin", "supported")},
        ),
        (
            "Ibuprofen and naproxen are used for rheumatoid arthritis.",
            {("drug:ibuprofen", "supported"), ("drug:naproxen", "supported")},
        ),
        (
            "Losartan is an ACE inhibitor used for hypertension.",
            {("drug:losartan", "supported")},
        ),
    ],
    ids=["two-clauses", "comma-and", "listed-subjects", "class-is-a-complement"],
)
def test_each_object_goes_to_its_own_subject(auditor_obj, text, expected):
    """Several named drugs and conditions in one sentence: each condition is claimed of the
    drug next to it (or of the drugs listed together), never of the sentence's first drug."""
    res = auditor_obj.audit(text, domain="medical", as_of="2025-01-15")
    got = {(c.subject, c.verdict) for c in res.claims if c.rule_id == "MED-INDICATION"}
    assert got == expected, [c.to_dict() for c in res.claims]


def test_markdown_table_rows_are_read_under_their_column_headers(auditor_obj):
    """Chatbots answer with tables: each row's cells are claims under the column headers."""
    text = (
        "Here's a quick comparison:\n\n"
        "| Drug | Max daily dose (OTC) | Notes |\n"
        "|---|---|---|\n"
        "| Ibuprofen | 1,200 mg | Avoid with warfarin |\n"
        "| Naproxen | 1,000 mg | |\n"
    )
    res = auditor_obj.audit(text, domain="medical", as_of="2025-01-15")
    got = {(c.subject, c.rule_id, c.verdict) for c in res.claims}
    assert ("drug:ibuprofen", "MED-DOSE-MAX", "supported") in got
    assert ("drug:ibuprofen", "MED-INTERACT", "supported") in got
    assert ("drug:naproxen", "MED-DOSE-MAX", "contradicted") in got  # OTC limit is 660 mg
    row = next(c for c in res.claims if c.subject == "drug:naproxen")
    assert text[row.start : row.end].startswith("| Naproxen")


def test_class_membership_makes_no_interaction_claim(auditor_obj):
    res = auditor_obj.audit(
        "Sertraline is an SSRI; do not combine with linezolid.", domain="medical"
    )
    assert [c.object for c in res.claims if c.rule_id == "MED-INTERACT"] == ["drug:linezolid"]


@pytest.mark.parametrize(
    ("text", "outcomes"),
    [
        # a short form's pinpoint past the start of the next case in a complete volume
        (
            "See Terry v. Ohio, 392 U.S. 1 (1968). Terry, 392 U.S. at 130. Terry, 392 U.S. at 27.",
            [("verified", "in_graph"), ("contradicted", "nonexistent"), ("verified", "resolved")],
        ),
        # "Id." after a full cite whose only fault is its year: the reference itself is sound
        (
            "Tellabs, Inc. v. Makor Issues & Rights, Ltd., 551 U.S. 308, 324 (2008). Id. at 322.",
            [("contradicted", "wrong_year"), ("verified", "resolved")],
        ),
        # a recent volume SCDB lists without every first page: an unknown name is provable,
        # a known party at a wrong page is left to the reviewer
        (
            "Harmon v. Delacroix Logistics, Inc., 598 U.S. 395 (2023). "
            "Sackett v. EPA, 598 U.S. 650 (2023).",
            [("contradicted", "nonexistent"), ("unverified", "not_in_index")],
        ),
    ],
)
def test_back_references_and_recent_volumes(auditor_obj, text, outcomes):
    res = auditor_obj.audit(text, domain="legal", as_of="2025-01-15")
    assert [(c.outcome, c.reason) for c in res.citations] == outcomes, [
        (c.text, c.outcome, c.reason, c.detail) for c in res.citations
    ]
