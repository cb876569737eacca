"""The report's methodology section: the definitions of README "Methodology", word for word,
plus what the report itself adds (how audits are selected, what the charts count)."""

from __future__ import annotations

from typing import Any

DEFINITIONS: list[tuple[str, str]] = [
    (
        "Verdicts",
        "Every claim is read as a claim frame: the trigger that expresses the predicate "
        '("maximum", "up to", "cut the target range to"), its subject, its value, and every '
        "qualifier the fact depends on — for a dose its role (start / usual / titration / "
        "maintenance / maximum), per dose vs per day vs per week, population (adults, children, "
        "older adults, renal or hepatic impairment), formulation and strength, OTC vs Rx, "
        "indication and co-medication; for a policy rate the series (the ECB's three rates are "
        'distinct) and the date\'s role (decided, effective, "since", a previous level); for a '
        "capital ratio a requirement vs a bank's own figure; for a threshold the obligation, "
        "comparator and currency. Values are bound through the clause, the list item's label, "
        "the table cell's column header and row label, and the headings above them — never by "
        "proximity to a name. supported: a complete frame whose value matches a graph fact "
        "valid at the claim's date (with the fact as evidence). contradicted: a complete frame "
        "whose value disagrees with every comparable fact, or an impossibility (a checksum that "
        "fails, a reporter that did not exist in the cited year, a rule violated) — with what "
        "the graph says instead. unverifiable: anything incomplete or ambiguous, with the "
        'reason naming what is missing, e.g. "a starting dose; the graph records maximum '
        'doses", "the graph has no maximum dose of Metformin for children", "the text does not '
        "say which of deposit facility rate / main refinancing operations rate / marginal "
        'lending facility rate it means", "the graph holds no policy-rate history for Bank of '
        'England", "unknown name \'pramipril\' (did you mean Ramipril?)". Not-in-graph is never '
        "contradicted, and a name reached only by fuzzy matching is never supported or "
        "contradicted. Verdicts are deterministic: no LLM is used.",
    ),
    (
        "FER",
        "FER = contradicted / (supported + contradicted); null when nothing was verifiable. "
        "Coverage = (supported + contradicted) / claims.",
    ),
    (
        "Citation confidence",
        "Each citation is verified, contradicted (it failed: a wrong case at that citation, no "
        "case beginning at that page, a wrong year, a reporter or court that did not exist, a "
        "failed checksum) or unverified (it could not be checked: never taken as fabricated). "
        "Citation confidence is the mean of per-citation scores — verified 1.0, unverified "
        "0.6, contradicted 0 — halved for every contradicted citation; null when nothing is "
        "cited. Unverified citations alone keep it at or above 0.6, above the 0.5 flag line: "
        "the answer needs review, it does not fail. Short forms, Id., supra and parallel "
        "citations share the verdict of the citation they refer to and are not counted again, "
        "except that a pinpoint past the start of the next case is contradicted and a reference "
        "to a real case cited with a wrong year stays verified.",
    ),
    (
        "Trust score",
        "Trust score = (1 − FER) × citation confidence; if one is null the other is used alone.",
    ),
]

REPORT_NOTES: list[tuple[str, str]] = [
    (
        "Selection",
        "The report covers the audits recorded in the audit trail from the start date through "
        "the end date inclusive (UTC, by the time each audit was recorded), for the tenant and "
        "domain named in the parameters. Claims are judged as of each audit's own as-of date.",
    ),
    (
        "Pooled and mean FER",
        "Pooled FER divides all contradicted claims of the period by all verifiable claims; the "
        "mean and quantiles are over audits that had at least one verifiable claim. FER over "
        "time is the pooled FER of each day and domain.",
    ),
    (
        "Worst audits",
        "Audits with at least one contradicted claim, ranked by FER, then by the number of "
        "contradicted claims, then by the lowest trust score; each is shown with its "
        "contradicted claims, the reason, and the graph facts and rule citations used as "
        "evidence, with their sources.",
    ),
    (
        "Reviewer-adjusted figures",
        "Reviewers' decisions are the review events of the audit trail; the report reads every "
        "decision on the period's audits recorded before it was generated. An item (a claim or "
        "a citation) takes the state of its newest confirm or overturn; a note changes nothing. "
        "Open: it needs a person (a contradicted claim, a citation not verified, an "
        "unverifiable claim of an answer whose risk is at least the review threshold) and no "
        "one has confirmed or overturned it. Noted: it has at least one note, whatever its "
        "state. FER after review counts each claim with its reviewed verdict: an overturned "
        "contradicted claim counts as supported (not an error), an overturned supported claim "
        "as contradicted (an error), a confirmed or undecided claim keeps its verdict, and an "
        "overturned unverifiable claim stays unverifiable, outside FER (the decision says it "
        "could be checked, not whether it is right); decisions on citations do not change FER. "
        "The verifiable claims are thus the same before and after review. Time to review is "
        "the time of an item's first confirm or overturn minus the time its audit was "
        "recorded; the median is over the decided items. Needs review lists every open item "
        "by its text (the claim, or the citation with its case name) and its audit id.",
    ),
    (
        "Reproducibility",
        "Every audit stores the content hash of the graphs (kg_version), of the rule packs "
        "(rules_version) and the auditor version; re-running a stored audit against the same "
        "versions gives the same verdicts ('kgaudit trail reaudit').",
    ),
]


def methodology() -> dict[str, Any]:
    return {
        "definitions": [{"term": t, "text": x} for t, x in DEFINITIONS],
        "report": [{"term": t, "text": x} for t, x in REPORT_NOTES],
    }


__all__ = ["DEFINITIONS", "REPORT_NOTES", "methodology"]
