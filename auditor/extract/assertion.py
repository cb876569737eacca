"""The assertion layer: what a clause asserts, read once and the same way by every frame.

* **Is it asserted?** Headings, questions, worked examples, hypotheticals, projections and
  preferences are not claims about the world, whatever numbers they hold
  (:func:`non_assertion`, :func:`preference`, :func:`projection`).
* **Polarity** — :func:`is_negated` (grammatical negation, limit phrases such as "do not
  exceed" excluded) and :func:`polarity` (``denied`` / ``mitigated`` / ``affirmed``: "X and Y
  don't interact", "fine to combine if you just cut the dose in half", "only with a large
  reduction of the dose"), read from the lexicons of :mod:`assertion_lexicon`.
* **Context qualifiers** — :func:`context_qualifiers`: dispensing status ("when
  self-treating", "without a prescription" → ``otc``) and route ("tablets", "by mouth" →
  ``oral``; "take" → ``taken``, never an infusion; "IV", "infusion" → ``intravenous``).

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
>>> polarity("Simvastatin and clarithromycin don't interact.", "interactsWith")
'denied'
>>> polarity("They can be combined if you just cut the dose in half.", "interactsWith")
'mitigated'
>>> polarity("Use it with simvastatin only with a large reduction of the dose.", "interactsWith")
'affirmed'
>>> context_qualifiers("When self-treating, take no more than 8 mg a day.")
{'status': 'otc', 'route': 'taken'}
>>> is_negated("Do not exceed 4,000 mg a day.")   # a limit, not a negation of the claim
False
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache

from auditor.extract import assertion_lexicon as lex
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
# "As expected, the Fed raised ...", "a larger-than-expected cut": what was expected happened;
# the clause still asserts it
_FULFILLED = re.compile(
    r"\b(?:as\s+(?:(?:was|had\s+been|widely|largely|generally|many\s+had)\s+)*"
    r"(?:expected|anticipated|forecast|projected)|(?:than|as)[\s-]+(?:(?:markets?|investors|"
    r"analysts|economists|many)\s+)?(?:had\s+)?(?:expected|anticipated|forecast))\b",
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
    if _PROJECTION.search(_FULFILLED.sub(" ", lead)):
        return "a projection or forecast"
    if indirect_question(text):
        return "an indirect question, not an assertion"
    return None


def indirect_question(text: str) -> bool:
    """The sentence reports a question instead of answering it ("People on warfarin often ask
    whether ibuprofen is okay")."""
    return bool(_INDIRECT_QUESTION.search(text))


# "People on warfarin often ask whether ibuprofen is okay", "many wonder if ...": the clause
# reports a question, it does not answer it
_INDIRECT_QUESTION = re.compile(
    r"\b(?:people|patients|many|some|you|they|users|readers|customers|clients|others|parents|"
    r"men|women|folks|consumers)\b(?:\s+\w+){0,3}?\s+(?:ask(?:s|ed)?|wonder(?:s|ed)?|"
    r"(?:are|were|is|feel)\s+(?:often\s+)?(?:unsure|not\s+sure|uncertain|curious)|want\s+to\s+know)"
    r"\s+(?:\w+\s+){0,2}?(?:whether|if)\b",
    re.I,
)


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


_LIMITS = re.compile(
    r"\b(?:do\s+not|don'?t|does\s+not|should\s+not|shouldn'?t|must\s+not|not\s+to|never|no)\s+"
    r"(?:take\s+|use\s+|give\s+)?(?:exceed|more\s+than|go\s+(?:over|above|beyond)|greater\s+than)\b|"
    r"\bnot\s+(?:more|greater)\s+than\b|\bno\s+more\s+than\b|\bnot\s+(?:to\s+)?exceed\b|"
    r"\bnot\s+(?:only|just)\b|\bno\s+later\s+than\b|\bnot\s+until\b|\bno\s+longer\s+than\b",
    re.I,
)
_NEGATION = re.compile(r"\b(?:not|never|no|none|neither|nor|cannot)\b|n't\b|n’t\b", re.I)
_ANSWER = re.compile(r"^\W*(?:no|yes|nope|not\s+at\s+all)\s*[.,!:;—–-]+\s*", re.I)


def is_negated(text: str) -> bool:
    """True when the clause negates its claim (limit phrases like "do not exceed" and an
    answer word opening the sentence, "No. Loper Bright overruled Chevron", excluded)."""
    stripped = _LIMITS.sub(" ", _ANSWER.sub("", text))
    return bool(_NEGATION.search(stripped))


def _words(patterns: Iterable[str]) -> re.Pattern[str] | None:
    pats = [p for p in patterns if p]
    if not pats:
        return None
    return re.compile(r"(?<![\w])(?:" + "|".join(f"(?:{p})" for p in pats) + r")(?![\w])", re.I)


@cache
def _denial(relation: str | None, shared: bool = True) -> re.Pattern[str] | None:
    return _words((*(lex.DENIAL["*"] if shared else ()), *lex.DENIAL.get(relation or "", ())))


_MITIGATED = _words(lex.MITIGATED)
_RESTRICTIVE = _words(lex.RESTRICTIVE)
_PERMISSIVE = _words(lex.PERMISSIVE)
_NEGATED_BEFORE = re.compile(lex.NEGATED_BEFORE, re.I)
_CONTEXT = {key: [(v, _words(p)) for v, p in opts.items()] for key, opts in lex.CONTEXT.items()}


def _unnegated(pat: re.Pattern[str] | None, text: str) -> bool:
    """``pat`` occurs in ``text`` without a negation right before it ("it is *not* safe")."""
    if pat is None:
        return False
    return any(
        not _NEGATED_BEFORE.search(text[max(0, m.start() - 24) : m.start()].lower())
        for m in pat.finditer(text)
    )


def denial_trigger(text: str, relation: str | None, *, shared: bool = True) -> bool:
    """A denial phrase of ``relation`` (or, with ``shared``, one every relation shares) occurs
    in ``text`` and is not itself negated."""
    return _unnegated(_denial(relation, shared), text)


def polarity(
    clause: str, relation: str | None = None, extra: Iterable[re.Pattern[str]] = ()
) -> str:
    """``denied`` (the clause says the relation does not hold), ``mitigated`` (it allows the
    combination with the reader's own precaution: a denial of a contraindication only) or
    ``affirmed``. A restriction ("only with a large dose reduction") affirms. ``extra`` are a
    rule pack's own denial cues."""
    if _RESTRICTIVE is not None and _RESTRICTIVE.search(clause):
        return "affirmed"
    denied = _unnegated(_denial(relation), clause) or any(_unnegated(p, clause) for p in extra)
    if (
        _MITIGATED is not None
        and _MITIGATED.search(clause)
        and (denied or _unnegated(_PERMISSIVE, clause))
    ):
        return "mitigated"
    return "denied" if denied else "affirmed"


# the therapy a dose follows or replaces is not the dose's route: "oral tablets only as a
# continuation of injectable therapy", "after switching from IV", "instead of the injection"
_PRIOR_THERAPY = re.compile(
    r"\b(?:(?:a\s+|the\s+)?continuation\s+of|after(?:\s+switching\s+from)?|following|"
    r"switch(?:ing|ed)?\s+from|transition(?:ing|ed)?\s+from|step(?:ping)?[-\s]down\s+from|"
    r"instead\s+of|in\s+place\s+of)\s+(?:(?:the|an?|their|your|initial|prior)\s+)?"
    r"(?:injectable|intravenous|i\.?v\.?|intramuscular|i\.?m\.?|parenteral|injections?|"
    r"infusions?)(?:\s+(?:therapy|treatment|dosing|doses?|use|course|form))?\b",
    re.I,
)


def without_prior_therapy(text: str) -> str:
    """The text with the therapy a dose follows or replaces blanked out ("as a continuation of
    injectable therapy")."""
    return _PRIOR_THERAPY.sub(" ", text)


def context_qualifiers(text: str) -> dict[str, str]:
    """Status (``otc`` / ``rx``) and route (``intravenous`` / ``oral``) the text states; the
    first value of each key in lexicon order wins ("IV acetaminophen is given as an infusion"
    is intravenous even though it also says "given")."""
    found: dict[str, str] = {}
    for key, options in _CONTEXT.items():
        said = _PRIOR_THERAPY.sub(" ", text) if key == "route" else text
        for value, pat in options:
            if pat is not None and pat.search(said):
                found[key] = value
                break
    return found


__all__ = [
    "context_qualifiers",
    "denial_trigger",
    "example_scope",
    "headline",
    "indirect_question",
    "is_negated",
    "non_assertion",
    "polarity",
    "preference",
    "projection",
    "without_prior_therapy",
]
