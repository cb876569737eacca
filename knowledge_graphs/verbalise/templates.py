"""Sentence templates per knowledge-graph predicate: fact -> (prompt, completion, key) items.

Each template returns statements and one question-answer pair (a prompt starting ``Q: ``);
the fact's value, the ``key``, always starts the completion, so the same item trains the model
and tests whether it reproduces the fact.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import date

from knowledge_graphs.model import Entity, Fact


def num(x: float, *, group_from: float = 10_000) -> str:
    """1200.0 -> '1200', 10000.0 -> '10,000', 4.5 -> '4.5'; whole numbers of at least
    ``group_from`` get thousands separators (``group_from=0``: 1200.0 -> '1,200')."""
    if float(x).is_integer():
        return f"{int(x):,}" if abs(x) >= group_from else str(int(x))
    return f"{x:g}"


def day(d: date) -> str:
    return f"{d.day} {d.strftime('%B')} {d.year}"


def cap(s: str) -> str:
    return s[:1].upper() + s[1:]


class Names:
    """Display names of entities as they read in a sentence."""

    def __init__(self, entities: Mapping[str, Entity]) -> None:
        self.entities = entities

    def __call__(self, eid: str | None) -> str:
        e = self.entities.get(eid or "")
        if e is None:
            return (eid or "").split(":", 1)[-1]
        if e.type == "Drug":
            return e.label.lower()
        if e.type == "Condition":  # "Obsessive-compulsive disorder" reads mid-sentence
            return e.label[:1].lower() + e.label[1:]
        label = e.label.split(" / ")[0]
        if ", " in label:  # "Iran, Islamic Republic of" -> "Iran"
            label = next((a for a in e.aliases if "," not in a and not a.isupper()), label)
        return label


Item = tuple[str, str, str]  # (prompt, completion, key); a prompt starting "Q: " is a QA pair
Template = Callable[[Fact, Names], list[Item]]


def qa(question: str, answer_prefix: str, answer_rest: str, key: str) -> Item:
    return (f"Q: {question} A: {answer_prefix}", answer_rest, key)


def _max_dose(f: Fact, n: Names) -> list[Item]:
    if f.value is None or not f.unit:
        return []  # "individualized": the label sets no number
    q, drug = f.qualifiers, n(f.subject)
    per = q.get("per") or "day"
    adj = {"day": "daily", "week": "weekly", "dose": "single"}.get(per)
    what = f"{'usual' if q.get('kind') == 'usual_range' else 'maximum'} {adj or ''} dose".replace(
        "  ", " "
    )
    amount = f"{num(f.value)} {f.unit}"
    if f.value_max is not None and f.value_max != f.value:
        amount = f"{num(f.value)} to {num(f.value_max)} {f.unit}"
    rate = amount if per == "dose" else f"{amount} per {per}"
    ctx = {"otc": " (OTC)", "rx": " (prescription)"}.get(q.get("status") or "", "")
    ctx += f" {q['product']}" if q.get("product") else ""
    ctx += f" for {q['indication']}" if q.get("indication") else ""
    pop = q.get("population") or "adult"
    pop = "adults" if pop == "adult" else pop
    # a usual range is no limit: its second statement must not say "should not exceed"
    limit = (
        f"For {pop}, the {what} of {drug}{ctx} is"
        if q.get("kind") == "usual_range"
        else f"For {pop}, {drug}{ctx} should not exceed"
    )
    return [
        (f"The {what} of {drug}{ctx} is", f" {rate}.", amount),
        (limit, f" {rate}.", amount),
        qa(
            f"What is the {what} of {drug} for {pop}?",
            f"The {what} of {drug}{ctx} is",
            f" {rate}.",
            amount,
        ),
    ]


def _interacts(f: Fact, n: Names) -> list[Item]:
    a, b = n(f.subject), n(f.object)
    sev = f.qualifiers.get("severity") or "major"
    what = "contraindicated" if sev == "contraindicated" else "a major interaction"
    return [
        (f"Taking {a} together with {b} is", f" {what}.", what),
        (f"Combining {b} with {a} is", f" {what}.", what),
        qa(
            f"Can {a} be taken with {b}?", f"No. Taking {a} together with {b} is", f" {what}.", what
        ),
    ]


def _simple(statements: tuple[str, ...], question: str, answer: str) -> Template:
    """Templates with an {s} (subject) placeholder; the fact's value follows each prompt."""

    def build(f: Fact, n: Names) -> list[Item]:
        o = _value(f, n)
        if not o:
            return []
        s = n(f.subject)
        return [(cap(t.format(s=s)), f" {o}.", o) for t in statements] + [
            qa(question.format(s=s), cap(answer.format(s=s)), f" {o}.", o)
        ]

    return build


def _value(f: Fact, n: Names) -> str:
    if f.object:
        return n(f.object)
    if f.literal:
        return f.literal
    if f.date is not None:
        return day(f.date)
    return ""


def _decided(f: Fact, n: Names) -> list[Item]:
    year_only = f.qualifiers.get("precision") == "year"
    if f.date is not None:
        when = str(f.date.year) if year_only else day(f.date)
    elif year_only and f.value is not None and float(f.value).is_integer():
        when = str(int(f.value))  # most decisions are known to the year only (value = year)
    else:
        return []
    s = n(f.subject)
    prep = "in" if year_only else "on"
    return [
        (f"{s} was decided {prep}", f" {when}.", when),
        (f"The Supreme Court decided {s} {prep}", f" {when}.", when),
        qa(f"When was {s} decided?", f"{s} was decided {prep}", f" {when}.", when),
    ]


def _rate(f: Fact, n: Names) -> list[Item]:
    if f.value is None or f.valid_from is None:
        return []
    lo, hi = f"{f.value:.2f}", f"{(f.value_max if f.value_max is not None else f.value):.2f}"
    level = f"{lo} percent" if lo == hi else f"{lo} to {hi} percent"
    r = n(f.subject)
    if f.valid_to is None:
        return [
            (f"The {r} is", f" {level}, in effect since {day(f.valid_from)}.", level),
            qa(f"What is the current {r}?", f"The {r} is", f" {level}.", level),
        ]
    return [
        (f"From {day(f.valid_from)} to {day(f.valid_to)}, the {r} was", f" {level}.", level),
        qa(
            f"What was the {r} on {day(f.valid_from)}?",
            f"On {day(f.valid_from)}, the {r} was",
            f" {level}.",
            level,
        ),
    ]


def _threshold(f: Fact, n: Names) -> list[Item]:
    if f.value is None:
        return []
    cmp_ = {">": "more than", ">=": "at least"}.get(f.qualifiers.get("comparator") or "", "")
    amount = f"{num(f.value)} {f.unit or ''}".strip()
    s = n(f.subject)
    return [
        (
            f"The reporting threshold for the {s} is",
            f" {cmp_} {amount}.".replace("  ", " "),
            amount,
        ),
        qa(
            f"What is the reporting threshold for the {s}?",
            f"The {s} applies to",
            f" {cmp_} {amount}.".replace("  ", " "),
            amount,
        ),
    ]


def _ratio(f: Fact, n: Names) -> list[Item]:
    if f.value is None:
        return []
    basis = f.qualifiers.get("basis")
    level = f"{num(f.value)} percent" + (f" of {basis}" if basis else "")
    s = n(f.subject)
    return [
        (f"The {s} is", f" {level}.", f"{num(f.value)} percent"),
        qa(f"What is the {s}?", f"The {s} is", f" {level}.", f"{num(f.value)} percent"),
    ]


def _currency(f: Fact, n: Names) -> list[Item]:
    c, cur = n(f.subject), n(f.object)
    if f.valid_to is None:
        return [
            (f"The currency of {c} is the", f" {cur}.", cur),
            (f"In {c}, prices are paid in", f" {cur}.", cur),
            qa(f"What is the currency of {c}?", f"The currency of {c} is the", f" {cur}.", cur),
        ]
    return [(f"Until {day(f.valid_to)}, {c} used the", f" {cur}.", cur)]


def _frequency(f: Fact, n: Names) -> list[Item]:
    if not f.literal:
        return []
    drug, indication = n(f.subject), f.qualifiers.get("indication")
    ctx = f" for {indication}" if indication else ""
    return [
        (f"{cap(drug)}{ctx} is taken", f" {f.literal}.", f.literal),
        qa(
            f"How often is {drug} taken{ctx}?",
            f"{cap(drug)}{ctx} is taken",
            f" {f.literal}.",
            f.literal,
        ),
    ]


TEMPLATES: dict[str, Template] = {
    "maxDose": _max_dose,
    "interactsWith": _interacts,
    "indicatedFor": _simple(
        ("{s} is indicated for", "{s} is used to treat"),
        "What is {s} indicated for?",
        "{s} is indicated for",
    ),
    "dosingFrequency": _frequency,
    "memberOf": _simple(
        ("{s} belongs to the class of", "The drug class of {s} is"),
        "Which drug class does {s} belong to?",
        "{s} belongs to the class of",
    ),
    "withdrawn": _simple(
        ("{s} was withdrawn from the market on",),
        "When was {s} withdrawn from the market?",
        "{s} was withdrawn from the market on",
    ),
    "sectionHeading": _simple(
        ("The heading of {s} is", "{s} is headed"),
        "What is the heading of {s}?",
        "the heading of {s} is",
    ),
    "statuteSubject": _simple(("{s} concerns",), "What does {s} concern?", "{s} concerns"),
    "brandName": lambda f, n: [
        (f"{cap(f.literal or '')} is a brand name of", f" {n(f.subject)}.", n(f.subject)),
        qa(
            f"What is the generic name of {cap(f.literal or '')}?",
            f"{cap(f.literal or '')} is a brand name of",
            f" {n(f.subject)}.",
            n(f.subject),
        ),
    ],
    "policyRate": _rate,
    "reportingThreshold": _threshold,
    "minimumRatio": _ratio,
    "currency": _currency,
    "adopted": _simple(
        ("{s} was adopted on", "The adoption date of {s} is"),
        "When was {s} adopted?",
        "{s} was adopted on",
    ),
    "entryIntoForce": _simple(
        ("{s} entered into force on", "The entry-into-force date of {s} is"),
        "When did {s} enter into force?",
        "{s} entered into force on",
    ),
    "applicationDate": _simple(
        ("{s} has applied since", "The application date of {s} is"),
        "Since when does {s} apply?",
        "{s} has applied since",
    ),
    "repealed": _simple(
        ("{s} was repealed with effect from",),
        "When was {s} repealed?",
        "{s} was repealed with effect from",
    ),
    "officialIdentifier": _simple(
        ("The official identifier of {s} is", "{s} is officially cited as"),
        "What is the official identifier of {s}?",
        "the official identifier of {s} is",
    ),
    "legalBasis": _simple(
        ("The legal basis of the {s} is",),
        "What is the legal basis of the {s}?",
        "the legal basis of the {s} is",
    ),
    "citation": _simple(
        ("{s} is reported at", "The citation of {s} is"),
        "What is the citation of {s}?",
        "{s} is reported at",
    ),
    "decided": _decided,
    "overruledBy": _simple(
        ("{s} was overruled by", "The case that overruled {s} is"),
        "Which case overruled {s}?",
        "{s} was overruled by",
    ),
}
