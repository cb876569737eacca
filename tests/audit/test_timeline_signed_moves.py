"""Issue 24 (v6 miss real-fin-123): a timeline of decisions whose bullets give only a signed
move and the new level ("- **May 4, 2022:** +50 bp to 0.75%–1.00%"), under a heading or a
lead naming the bank, is a list of rate claims; the move size is checked against the
decision. A table's cells keep their own column binding (a signed move in a Fed column is not
the ECB's because the ECB was named last).
"""

from __future__ import annotations

TIMELINE = (
    "### How fast did the Fed raise rates in 2022–2023?\n\n"
    "Between March 2022 and July 2023 the FOMC raised the federal funds target range 11 times.\n\n"
    "**The timeline**\n\n"
    "- **March 16, 2022:** +25 bp, lifting the range off zero to 0.25%–0.50%.\n"
    "- **May 4, 2022:** +50 bp to 0.75%–1.00%.\n"
    "- **December 14, 2022:** {size} to 4.25%–4.50%.\n"
)


def _rates(auditor_obj, text):
    res = auditor_obj.audit(text, domain="finance", as_of="2025-10-01")
    return {c.object: c.verdict for c in res.claims if c.predicate == "policyRate" and c.quantity}


def test_signed_moves_in_a_timeline_are_checked(auditor_obj):
    got = _rates(auditor_obj, TIMELINE.format(size="+50 bp"))
    assert got == {"0.25–0.5%": "supported", "0.75–1%": "supported", "4.25–4.5%": "supported"}


def test_a_wrong_move_size_in_a_timeline_is_contradicted(auditor_obj):
    got = _rates(auditor_obj, TIMELINE.format(size="+75 bp"))
    assert got["4.25–4.5%"] == "contradicted"
    assert got["0.75–1%"] == "supported"


def test_a_table_column_is_not_bound_to_the_last_bank_named(auditor_obj):
    text = (
        "## Fed vs ECB\n\n| | Federal Reserve (target range) | ECB (deposit facility rate) |\n"
        "|---|---|---|\n| Final hike | 26 Jul 2023: to 5.25–5.50% | 14 Sep 2023: DFR to 4.00% |\n"
        "| First cut afterwards | 18 Sep 2024: −50 bp to 4.75–5.00% | 6 Jun 2024: −25 bp to "
        "3.75% |\n"
    )
    res = auditor_obj.audit(text, domain="finance", as_of="2026-03-20")
    assert not [c for c in res.claims if c.verdict == "contradicted"]


def test_a_move_dated_to_a_day_that_held_is_a_wrong_date(auditor_obj):
    # v5 miss real-fin-109: the +25 bp move to 5.00-5.25% was May 3, 2023; June 14 held
    text = (
        "| FOMC decision | Change | New target range |\n|---|---|---|\n"
        "| March 22, 2023 | +25 bp | 4.75%–5.00% |\n"
        "| {day} | +25 bp | 5.00%–5.25% |\n"
    )
    res = auditor_obj.audit(text.format(day="June 14, 2023"), domain="finance", as_of="2025-09-01")
    got = {c.object: c.verdict for c in res.claims if c.predicate == "policyRate"}
    assert got == {"4.75–5%": "supported", "5–5.25%": "contradicted"}
    res = auditor_obj.audit(text.format(day="May 3, 2023"), domain="finance", as_of="2025-09-01")
    assert not [c for c in res.claims if c.verdict == "contradicted"]
    # no move stated: the level held on that day
    held = "On June 14, 2023 the FOMC held the target range at 5.00%–5.25%."
    res = auditor_obj.audit(held, domain="finance", as_of="2025-09-01")
    assert not [c for c in res.claims if c.verdict == "contradicted"]
