"""Checks a curated medical fact against its own quote (format in ``curated/FORMAT.md``).

* a fact of a quoted kind (dose, interaction, washout) needs ``quote`` or ``unquoted: true``;
* a ``label_maximum`` whose quote states a recommended / usual / studied / optimal dose, and
  no maximum, is rejected: such a dose is a regimen, not a limit;
* an interaction cited from a Contraindications section must be ``contraindicated``.
"""

from __future__ import annotations

import re

from knowledge_graphs.builders.curated import DoseIn, InteractionIn, Quoted
from knowledge_graphs.errors import DataError

# an effective / target dose ("the dosage shown to be effective in a controlled clinical trial
# is 28 mg once daily") is no more a limit than a recommended one
_NOT_A_LIMIT = re.compile(
    r"\b(?:recommended|usual(?:ly)?|studied|optimal|target|effective)\b", re.I
)
_ABOVE = r"(?:above|exceeding|over|greater\s+than|higher\s+than|in\s+excess\s+of)"
_LIMIT = re.compile(
    # "not to exceed", "should not exceed", "do not exceed"
    r"\bnot\s+(?:to\s+)?exceed|\bshould\s+not\s+exceed"
    # "maximum recommended dose is", "up to a maximum of"
    r"|\bmaximum\b"
    # "no more than", "do not take / use / give more than"
    r"|\b(?:no|not)\s+(?:(?:take|use|give|administer)\s+)?more\s+than\b"
    r"|\bnot\s+(?:be\s+)?(?:greater|higher)\s+than\b"
    # "should not be given at doses above N", "do not administer at a dose exceeding N"
    r"|\bnot\s+(?:be\s+)?(?:given|used|taken|administered|administer|give|use|take)\s+"
    r"(?:\w+\s+){0,2}?(?:at\s+)?(?:a\s+)?doses?\s+" + _ABOVE + r"\b"
    # "doses above N mg/day are not recommended"
    r"|\bdoses?\s+" + _ABOVE + r"\s+[^.;]{1,40}?\b(?:is|are)\s+not\s+recommended\b",
    re.I,
)
_CONTRAINDICATIONS = re.compile(r"contraindication", re.I)


def require_quote(item: Quoted, kind: str, where: str) -> None:
    """Refuse a fact of a quoted kind that has neither a quote nor ``unquoted: true``."""
    if item.quote is None and not item.unquoted:
        raise DataError(
            f"field 'quote': a {kind} fact needs its source's sentence ('quote', verbatim, "
            "at most 300 characters) or an explicit 'unquoted: true'",
            location=where,
        )


def limit_role_error(quote: str) -> str | None:
    """Why ``quote`` cannot back a label maximum, or None when it can.

    >>> limit_role_error("The recommended dose is 50 mg once daily")
    "the quote states a recommended dose ('recommended'), not a maximum"
    >>> limit_role_error("Do not exceed the recommended dose of 4,000 mg per day") is None
    True
    >>> limit_role_error("Citalopram should not be given at doses above 40 mg/day") is None
    True
    """
    m = _NOT_A_LIMIT.search(quote)
    if m is None or _LIMIT.search(quote):
        return None
    word = m.group(0).lower()
    what = {"usually": "usual"}.get(word, word)
    return f"the quote states a {what} dose ({m.group(0)!r}), not a maximum"


def check_dose_role(d: DoseIn, where: str) -> None:
    if d.kind == "label_maximum" and d.quote:
        why = limit_role_error(d.quote)
        if why:
            raise DataError(
                f"field 'kind': label_maximum rejected: {why} (use kind: usual_range)",
                location=where,
            )


def check_interaction_section(it: InteractionIn, where: str) -> None:
    section = (it.source.section if it.source else None) or ""
    if it.severity != "contraindicated" and _CONTRAINDICATIONS.search(section):
        raise DataError(
            f"field 'severity': {it.severity!r} but the source section is {section!r}; "
            "a Contraindications statement is 'contraindicated'",
            location=where,
        )
