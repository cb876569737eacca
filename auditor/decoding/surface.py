"""Surface forms: how entities and fact values read in an answer, with their variants.

Entity names are the label, the aliases (minus inverted index forms such as "sodium,
warfarin"), the display name the training verbaliser uses ("ibuprofen" for the drug
"Ibuprofen") and the linker's punctuation variants of case names ("v." / "v" / "vs.").
Values are spelt the ways the verbaliser and ordinary prose write them: numbers with and
without thousands separators, with their unit, ranges, percentages, dates as "1 January
2023", "January 1, 2023", ISO and bare years, literals as stored, plus the few qualifiers an
answer repeats (population, indication, product). Every form then gets case variants (as
stored, lower case, first letter upper and lower) and is written with and without a leading
space, since both tokenize differently.

>>> sorted(variants("Ibuprofen"))
[' Ibuprofen', ' ibuprofen', 'Ibuprofen', 'ibuprofen']
>>> sorted(number_forms(1200.0))
['1,200', '1200']
>>> sorted(date_forms(date(2023, 1, 1)))
['1 January 2023', '2023', '2023-01-01', 'January 1, 2023']
"""

from __future__ import annotations

import calendar
from collections.abc import Callable, Iterable
from datetime import date

from auditor.extract.linker import name_variants
from knowledge_graphs.model import Entity, Fact

# Qualifiers an answer may repeat next to a value ("for adults", "for rheumatoid arthritis").
ECHOED_QUALIFIERS = ("population", "indication", "product")
_MONTHS = calendar.month_name[1:]  # English in the C locale the service runs in


def variants(form: str) -> set[str]:
    """Case variants of ``form``, each with and without a leading space."""
    form = " ".join(form.split())
    if not form:
        return set()
    if form.isupper() and " " not in form:
        cased = {form}  # a code or acronym ("ERI", "ISK"): "eri" and "isk" are no one's name
    else:
        cased = {form, form.lower(), form[:1].upper() + form[1:], form[:1].lower() + form[1:]}
    return cased | {" " + c for c in cased}


def entity_names(entity: Entity, display: Callable[[str], str] | None = None) -> set[str]:
    """The names an answer may use for ``entity`` (before case/space variants)."""
    out: set[str] = set()
    for n in entity.names():
        if entity.type == "Drug" and ", " in n and n != entity.label:
            continue  # inverted index forms never occur in prose
        out |= name_variants(n) or {n}
    if display is not None:
        out.add(display(entity.id))
    return {n for n in out if n.strip()}


def number_forms(x: float) -> set[str]:
    """1200.0 -> {'1200', '1,200'}; 4.5 -> {'4.5', '4.50'}; 0.25 -> {'0.25'}."""
    if float(x).is_integer():
        n = int(x)
        return {str(n), f"{n:,}"}
    return {f"{x:g}", f"{x:.2f}", f"{x:,.2f}", f"{x:,g}"}


def date_forms(d: date) -> set[str]:
    month = _MONTHS[d.month - 1]
    return {f"{d.day} {month} {d.year}", f"{month} {d.day}, {d.year}", d.isoformat(), str(d.year)}


def _unit_forms(unit: str) -> set[str]:
    if unit in ("percent", "%"):
        return {"percent", "%", "per cent"}
    return {unit}


def main_value_forms(fact: Fact) -> set[str]:
    """The forms of the value itself of a value fact: the number (a range, with its unit),
    the literal, the date. A year-precision value ("decided in 1996") is written as a year."""
    out: set[str] = set()
    if fact.value is not None:
        if fact.qualifiers.get("precision") in ("year", "day") and float(fact.value).is_integer():
            out.add(str(int(fact.value)))  # a year: "2004", never "2,004"
        else:
            out |= _quantity_forms(fact)
    if fact.literal:
        out.add(fact.literal)
    if fact.date is not None:
        out |= date_forms(fact.date)
    return out


def _quantity_forms(fact: Fact) -> set[str]:
    lows = number_forms(fact.value)  # type: ignore[arg-type]
    if fact.value_max is not None and fact.value_max != fact.value:
        highs = number_forms(fact.value_max)
        nums = {f"{lo} to {hi}" for lo in lows for hi in highs}
        nums |= {f"{lo}-{hi}" for lo in lows for hi in highs}
    else:
        nums = lows
    if not fact.unit:
        return nums
    units = _unit_forms(fact.unit)
    return {f"{n} {u}" if u != "%" else f"{n}%" for n in nums for u in units}


def fact_value_forms(fact: Fact) -> set[str]:
    """The forms of the value of a value fact (number, date, literal), its validity dates and
    its echoed qualifiers; entity-valued facts contribute their object's names elsewhere."""
    out = main_value_forms(fact)
    for d in (fact.valid_from, fact.valid_to):
        if d is not None:
            out |= date_forms(d)
    for key in ECHOED_QUALIFIERS:
        q = fact.qualifiers.get(key)
        if q and len(q) <= 60:
            out.add(q)
    return out


def edge_value_forms(fact: Fact) -> set[str]:
    """Words an answer attaches to an entity-valued fact: the severity of an interaction."""
    sev = fact.qualifiers.get("severity") if fact.predicate == "interactsWith" else None
    if not sev:
        return set()
    if sev == "caution":
        return {"caution", "use caution"}
    return (
        {sev} if sev == "contraindicated" else {sev, f"{sev} interaction", f"a {sev} interaction"}
    )


def all_variants(forms: Iterable[str]) -> set[str]:
    out: set[str] = set()
    for f in forms:
        out |= variants(f)
    return out
