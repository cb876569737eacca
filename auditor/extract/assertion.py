"""Is a statement asserted? Headings, questions, worked examples, hypotheticals, projections
and preferences are not claims about the world, whatever numbers they hold.

A ConText-style reading (Harkema et al. 2009): each trigger sets one attribute and its scope
runs to the clause end — or, for an example that opens with "Suppose ..." / "Example 1:" /
a "### Worked example" heading, to the end of the paragraph, list item or section.

>>> from auditor.extract.layout import Layout
>>> non_assertion(Layout("prose"), "Suppose a bank reports a CET1 ratio of 12%.", 40)
'a worked example or hypothetical'
>>> non_assertion(Layout("prose"), "Powell said rates could fall to 3% by 2026, per the median.", 30)
'a projection or forecast'
>>> non_assertion(Layout("prose"), "The minimum CET1 ratio is 4.5%.", 28) is None
True
"""

from __future__ import annotations

import re

from auditor.extract.layout import Layout

_EXAMPLE_LEAD = re.compile(
    r"^\W*(?:suppose|supposing|imagine|assume|assuming|consider\s+(?:a|an|the\s+case)|"
    r"let'?s\s+say|say\s+(?:a|an|you|your)\b|hypothetical(?:ly)?|in\s+a\s+hypothetical|"
    r"for\s+(?:example|instance)|e\.g\.|example(?:\s+\d+)?\s*[:.\-–—]|scenario\b|illustration\b|"
    r"worked\s+example|what\s+if\b)",
    re.I,
)
_EXAMPLE_HEADING = re.compile(
    r"\b(?:examples?|worked|scenarios?|illustrations?|hypothetical|case\s+stud(?:y|ies)|"
    r"walk[- ]?through|sample\s+calculation|calculation)\b",
    re.I,
)
_HYPOTHETICAL = re.compile(
    r"\b(?:suppose|supposing|imagine|hypothetical(?:ly)?|let'?s\s+say|for\s+(?:example|instance)"
    r"|e\.g\.|say,|, say\b|—\s*say\b|would\s+(?:be|have|face|need|breach|fall|leave)"
    r"|if\s+(?:it|its|the\s+bank|a\s+bank|you|your|a\s+customer|someone)\s+(?:\w+\s+){0,3}?"
    r"(?:were|was|had|fell|falls|drops?|dropped|rose|rises|deposits?|deposited|withdr[ae]w\w*|"
    r"sends?|sent|buys?|bought|reports?|reported|holds?|held))",
    re.I,
)
_PROJECTION = re.compile(
    r"\b(?:project(?:s|ed|ions?)|forecast(?:s|ed)?|expect(?:s|ed|ations?)|anticipat\w+|"
    r"median|dot[- ]plot|summary\s+of\s+economic\s+projections|SEP\b|penciled|pencilled|"
    r"see(?:s|ing)?\s+(?:rates|the\s+rate)|could\s+(?:fall|rise|reach|drop)|"
    r"(?:is|are)\s+likely\s+to|likely\s+to\s+(?:fall|rise|reach)|futures\s+(?:price|imply)|"
    r"markets?\s+(?:price|expect)|priced?\s+in)\b",
    re.I,
)
_PREFERENCE = re.compile(
    r"\b(?:prefer(?:ring|red|s)?|would\s+have\s+(?:preferred|liked)|favou?r(?:ed|ing)|"
    r"argu(?:ed|ing)\s+for|push(?:ed|ing)\s+for|call(?:ed|ing)\s+for|want(?:ed|ing)|"
    r"dissent\w*|voted\s+against|advocat\w+)\b",
    re.I,
)


def example_scope(layout: Layout, paragraph_lead: str) -> bool:
    """The line belongs to a worked example: a heading says so, its label does ("Example 1:"),
    or the paragraph it continues opened with "Suppose ..." / "For example, ..."."""
    if any(_EXAMPLE_HEADING.search(h) for h in layout.headings[-1:]):
        return True
    if layout.label and _EXAMPLE_HEADING.search(layout.label):
        return True
    return bool(paragraph_lead) and bool(_EXAMPLE_LEAD.match(paragraph_lead))


def non_assertion(
    layout: Layout, text: str, pos: int, *, paragraph_lead: str = "", clause: str | None = None
) -> str | None:
    """Why the statement at ``pos`` (relative to ``text``) is not an assertion, or None.

    Checks the sentence's place in the document (a heading, a question) and the lead of its
    clause up to ``pos`` (``clause`` if given, else the sentence up to ``pos``)."""
    if layout.kind == "heading" and not (headline(text) and not layout.question):
        return "a heading, not an assertion"
    if layout.question:
        return "a question, not an assertion"
    if example_scope(layout, paragraph_lead) or _EXAMPLE_LEAD.match(text):
        return "a worked example or hypothetical"
    lead = clause if clause is not None else text[: max(0, pos)]
    if _HYPOTHETICAL.search(lead):
        return "a worked example or hypothetical"
    if _PROJECTION.search(lead):
        return "a projection or forecast"
    return None


_HEADLINE = (
    re.compile(  # a third-person headline verb ("Fed holds", "ECB cuts"), not "Keep the dose"
        r"\b(?:cuts|raises|hikes|lowers|holds|keeps|leaves|lifts|trims|slashes|eases|"
        r"(?:is|are|stands|remains)\s+(?:now\s+)?at|now\s+at)\b\s+(?:\w+\s+){0,6}?[^\s]*\d",
        re.I,
    )
)


def headline(text: str) -> bool:
    """A news headline states what it says ("ECB cuts for the eighth time; deposit rate now at
    2.15%", "Fed holds rates at 4.25%-4.50%"): a finite move or level verb followed by a
    number. A title ("Where rates stand", "Maximum daily doses") is not an assertion."""
    return bool(_HEADLINE.search(text))


def preference(lead: str) -> bool:
    """A dissenter's or commentator's preferred value, not the decision."""
    return bool(_PREFERENCE.search(lead))


def projection(lead: str) -> bool:
    return bool(_PROJECTION.search(lead))


__all__ = ["example_scope", "headline", "non_assertion", "preference", "projection"]
