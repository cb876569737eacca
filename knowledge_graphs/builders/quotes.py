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

_NOT_A_LIMIT = re.compile(r"\b(?:recommended|usual(?:ly)?|studied|optimal)\b", re.I)
_LIMIT = re.compile(
    r"\bnot\s+(?:to\s+)?exceed|\bshould\s+not\s+exceed|\bmaximum\b|\b(?:no|not)\s+more\s+than\b"
    r"|\bnot\s+(?:be\s+)?(?:greater|higher)\s+than\b",
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
