"""Finance benchmark sentences: policy rates at dates, thresholds, Basel ratios, regulation dates
and identifiers, currencies over time, FATF lists, identifier checksums."""

from __future__ import annotations

import random
from datetime import date, timedelta

from knowledge_graphs.model import Fact
from knowledge_graphs.store import KnowledgeBase
from measure.evaluation.cases import Maker, fmt_num, kinds

AS_OF = date(2025, 1, 15)
MONTHS = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
]
VALID_ISINS = [
    "US0378331005",
    "US5949181045",
    "DE0007164600",
    "GB0002634946",
    "FR0000120271",
    "US02079K3059",
    "NL0010273215",
    "CH0012032048",
]


def _day(d: date) -> str:
    return f"{MONTHS[d.month - 1]} {d.day}, {d.year}"


def _pct(lo: float, hi: float | None) -> str:
    if hi is None or hi == lo:
        return f"{lo:.2f}%"
    return f"{lo:.2f}%–{hi:.2f}%"


def makers(kb: KnowledgeBase, rng: random.Random) -> tuple[list[tuple[str, Maker]], date]:
    rates = [
        f
        for f in kb.facts
        if f.predicate == "policyRate"
        and f.valid_from
        and f.valid_from.year >= 2008
        and f.valid_to
        and (f.valid_to - f.valid_from).days > 40
    ]
    thresholds = [
        f
        for f in kb.facts
        if f.predicate == "reportingThreshold" and f.value_max is None and f.valid_at(AS_OF)
    ]
    ratios = [f for f in kb.facts if f.predicate == "minimumRatio" and f.value_max is None]
    reg_dates = [
        f
        for f in kb.facts
        if f.predicate in {"applicationDate", "entryIntoForce", "adopted"} and f.date
    ]
    idents = [
        f
        for f in kb.facts
        if f.predicate == "officialIdentifier"
        and f.literal
        and "/" in f.literal
        and f.literal.startswith(("Regulation", "Directive"))
    ]
    currency_changes = [
        f
        for f in kb.facts
        if f.predicate == "currency"
        and f.valid_to
        and f.valid_to.year >= 1999
        and f.valid_to < AS_OF
    ]

    def rate_label(f: Fact) -> str:
        ent = kb.entity(f.subject)
        assert ent is not None
        return rng.choice([ent.label, *ent.aliases]) if ent.aliases else ent.label

    def mid(f: Fact) -> date:
        assert f.valid_from and f.valid_to
        return f.valid_from + timedelta(days=(f.valid_to - f.valid_from).days // 2)

    @kinds("numeric_error", "outdated_fact")
    def rate(rng: random.Random, false: bool, kind: str | None):  # type: ignore[no-untyped-def]
        f = rng.choice(rates)
        when = mid(f)
        lo, hi = f.value or 0.0, f.value_max
        if false and kind == "numeric_error":
            delta = rng.choice([0.25, 0.5, 1.0, -0.25, -0.5])
            if lo + delta < 0:
                return None
            lo, hi = lo + delta, (hi + delta if hi is not None else None)
        elif false:  # outdated: the value that held before
            prev = [
                p for p in kb.facts_about(f.subject, "policyRate") if p.valid_to == f.valid_from
            ]
            if not prev:
                return None
            lo, hi = prev[0].value or 0.0, prev[0].value_max
            if (lo, hi) == (f.value, f.value_max):
                return None
        tpl = rng.choice(
            [
                "On {d}, the {r} stood at {v}.",
                "As of {d}, the {r} was {v}.",
                "In {m} {y}, the {r} was set at {v}.",
            ]
        )
        s = tpl.format(
            d=_day(when), r=rate_label(f), v=_pct(lo, hi), m=MONTHS[when.month - 1], y=when.year
        )
        if (
            tpl.startswith("In ")
            and f.valid_from
            and (f.valid_from.year, f.valid_from.month) == (when.year, when.month)
        ):
            return None
        return (s, "contradicted", kind, True) if false else (s, "supported", None, False)

    @kinds("numeric_error", "unit_error")
    def threshold(rng: random.Random, false: bool, kind: str | None):  # type: ignore[no-untyped-def]
        f = rng.choice(thresholds)
        ent = kb.entity(f.subject)
        assert ent is not None
        names = [n for n in (ent.label, *ent.aliases) if not any(ch.isdigit() for ch in n)]
        if not names:
            return None
        name = rng.choice(names)
        amount, cur = f.value or 0.0, f.unit or "USD"
        if false and kind == "numeric_error":
            amount = rng.choice(
                [a for a in (1000.0, 2500.0, 5000.0, 15000.0, 20000.0, 50000.0) if a != amount]
            )
        elif false:
            cur = {"USD": "EUR", "EUR": "USD"}.get(cur, "USD")
        sign = {"USD": "$", "EUR": "€"}.get(cur, cur + " ")
        if f.qualifiers.get("comparator") == ">=":  # the sentence says what the rule says
            tpl = rng.choice(
                [
                    "A {n} is required for amounts of {a} or more.",
                    "The {n} threshold is {a}.",
                    "The {n} must be filed when the amount is at least {a}.",
                ]
            )
        else:
            tpl = rng.choice(
                [
                    "A {n} is required for amounts over {a}.",
                    "The {n} threshold is {a}.",
                    "The {n} must be filed when the amount exceeds {a}.",
                ]
            )
        s = tpl.format(n=name, a=f"{sign}{fmt_num(amount)}")
        return (s, "contradicted", kind, True) if false else (s, "supported", None, False)

    @kinds("numeric_error")
    def ratio(rng: random.Random, false: bool, kind: str | None):  # type: ignore[no-untyped-def]
        f = rng.choice(ratios)
        ent = kb.entity(f.subject)
        assert ent is not None
        v = f.value or 0.0
        if false:
            others = {g.value for g in kb.facts_about(f.subject, "minimumRatio")}
            v = rng.choice(
                [x for x in (v + 1.0, v + 2.0, v - 0.5, v + 0.5) if x > 0 and x not in others]
            )
        name = rng.choice([ent.label, *ent.aliases])
        us = ent.attrs.get("jurisdiction") == "US"
        s = rng.choice(
            ["Under Regulation Q, the minimum {n} is {v}.", "Regulation Q sets the {n} at {v}."]
            if us
            else ["Under Basel III, the minimum {n} is {v}.", "Basel III sets the {n} at {v}."]
        ).format(n=name, v=f"{fmt_num(v)}%")
        return (s, "contradicted", kind, True) if false else (s, "supported", None, False)

    @kinds("wrong_date")
    def reg_date(rng: random.Random, false: bool, kind: str | None):  # type: ignore[no-untyped-def]
        f = rng.choice(reg_dates)
        ent = kb.entity(f.subject)
        assert ent is not None and f.date is not None
        d = f.date
        others = {g.date for g in kb.facts_about(f.subject) if g.date}
        if false:
            d = (
                d.replace(year=d.year + rng.choice([-2, -1, 1, 2]))
                if not (d.month == 2 and d.day == 29)
                else d
            )
            if any(o and o.year == d.year for o in others):
                return None
        verb = {
            "applicationDate": "has applied since",
            "entryIntoForce": "entered into force on",
            "adopted": "was adopted on",
        }[f.predicate]
        name = rng.choice([ent.label, *ent.aliases])
        s = f"The {name} {verb} {_day(d)}." if not name.isupper() else f"{name} {verb} {_day(d)}."
        return (s, "contradicted", kind, True) if false else (s, "supported", None, False)

    @kinds("fabricated_citation")
    def reg_ident(rng: random.Random, false: bool, kind: str | None):  # type: ignore[no-untyped-def]
        f = rng.choice(idents)
        ent = kb.entity(f.subject)
        assert ent is not None and f.literal is not None
        ident = f.literal
        if false:
            head, _, num = ident.rpartition("/")
            digits = "".join(c for c in num if c.isdigit())
            if not digits:
                return None
            ident = f"{head}/{int(digits) + rng.choice([1, 2, 7])}{num[len(digits) :]}"
        s = f"The {ent.label} ({ident}) sets the rules in this area."
        return (s, "contradicted", kind, True) if false else (s, "supported", None, False)

    @kinds("outdated_fact")
    def currency(rng: random.Random, false: bool, kind: str | None):  # type: ignore[no-untyped-def]
        f = rng.choice(currency_changes)
        country = kb.entity(f.subject)
        now = [g for g in kb.facts_about(f.subject, "currency") if g.valid_at(AS_OF)]
        if country is None or len(now) != 1:
            return None
        cur = kb.entity(f.object if false else now[0].object or "")
        if cur is None:
            return None
        s = rng.choice(
            ["The official currency of {c} is the {k}.", "{c} uses the {k} as its currency."]
        ).format(c=country.label, k=cur.label)
        return (s, "contradicted", kind, True) if false else (s, "supported", None, False)

    @kinds("impossible_citation")
    def isin(rng: random.Random, false: bool, kind: str | None):  # type: ignore[no-untyped-def]
        code = rng.choice(VALID_ISINS)
        if false:
            code = code[:-1] + str((int(code[-1]) + rng.randint(1, 9)) % 10)
            return f"The security's ISIN is {code}.", "contradicted", kind, True
        return None

    return [
        ("rate", rate),
        ("rate", rate),
        ("threshold", threshold),
        ("ratio", ratio),
        ("reg_date", reg_date),
        ("reg_ident", reg_ident),
        ("currency", currency),
        ("isin", isin),
    ], AS_OF
