"""Legal benchmark sentences: case citations (true, wrong page, wrong year, fabricated,
impossible), decision years, overrulings, "good law" statements, statute sections."""

from __future__ import annotations

import random
from datetime import date

from knowledge_graphs.store import KnowledgeBase
from measure.evaluation.cases import Maker, kinds

AS_OF = date(2025, 1, 15)
SURNAMES = [
    "Hartwell",
    "Okafor",
    "Lindqvist",
    "Marchetti",
    "Delgado",
    "Whitcombe",
    "Nakamura",
    "Brennan",
    "Petrosyan",
    "Abernathy",
    "Castellano",
    "Vukovic",
    "Ramsay",
    "Oyelaran",
    "Feldstein",
    "Quintero",
]
PARTIES = [
    "Meridian Logistics, Inc.",
    "Clearwater Holdings LLC",
    "United Freight Co.",
    "Bayside Medical Group",
    "Atlas Insurance Co.",
    "Northgate Bank",
    "City of Fairview",
    "Summit Airlines, Inc.",
]
# (reporter, court string, plausible years, impossible years) for fabricated / impossible cites
LOWER = [
    ("F.3d", "9th Cir.", (1995, 2019), (1975, 1988)),
    ("F.3d", "2d Cir.", (1995, 2019), (1970, 1989)),
    ("F.4th", "5th Cir.", (2021, 2024), (1999, 2015)),
    ("F.3d", "11th Cir.", (1995, 2019), (1972, 1979)),
    ("F. Supp. 3d", "S.D.N.Y.", (2015, 2023), (1990, 2010)),
    ("F.2d", "7th Cir.", (1950, 1990), (1995, 2010)),
]


def makers(kb: KnowledgeBase, rng: random.Random) -> tuple[list[tuple[str, Maker]], date]:
    cases = [
        e
        for e in kb.entities_of_type("Case")
        if str(e.attrs.get("primary_citation", "")).count(" U.S. ")
    ]
    overruled = [
        f
        for f in kb.facts
        if f.predicate == "overruledBy" and f.qualifiers.get("kind") == "explicit"
    ]
    statutes = [e for e in kb.entities_of_type("Statute") if e.attrs.get("code") == "U.S.C."]
    subjects = {e.id: (kb.facts_about(e.id, "statuteSubject") or [None])[0] for e in statutes}
    statutes = [
        e
        for e in statutes
        if subjects[e.id] is not None and 4 < len(subjects[e.id].literal or "") < 40
    ]

    def cite(c) -> tuple[str, int, int, int]:  # type: ignore[no-untyped-def]
        vol, _, page = str(c.attrs["primary_citation"]).partition(" U.S. ")
        return c.label, int(vol), int(page), int(c.attrs["year"])

    @kinds("fabricated_citation", "wrong_date", "impossible_citation")
    def citation(rng: random.Random, false: bool, kind: str | None):  # type: ignore[no-untyped-def]
        name, vol, page, year = cite(rng.choice(cases))
        tail = rng.choice(
            [
                ", the Court held as much.",
                ", is the leading authority.",
                " controls here.",
                ", the Supreme Court addressed this question.",
            ]
        )
        if not false:
            return f"In {name}, {vol} U.S. {page} ({year}){tail}", "supported", None, False
        if kind == "wrong_date":
            year += rng.choice([-3, -2, 2, 3, 5])
            return f"In {name}, {vol} U.S. {page} ({year}){tail}", "contradicted", kind, True
        if kind == "fabricated_citation":
            if rng.random() < 0.5:  # a real case name with a wrong page: contradicted
                page += rng.choice([1, 3, 12, 40])
                return f"In {name}, {vol} U.S. {page} ({year}){tail}", "contradicted", kind, True
            rep, court, ok, _ = rng.choice(LOWER)
            fake = f"{rng.choice(SURNAMES)} v. {rng.choice(PARTIES)}"
            y = rng.randint(*ok)
            s = f"See {fake}, {rng.randint(100, 990)} {rep} {rng.randint(100, 1500)} ({court} {y}){tail}"
            return s, "unverifiable", kind, True
        rep, court, _, bad = rng.choice(LOWER)
        fake = f"{rng.choice(SURNAMES)} v. {rng.choice(PARTIES)}"
        y = rng.randint(*bad)
        s = f"See {fake}, {rng.randint(100, 990)} {rep} {rng.randint(100, 1500)} ({court} {y}){tail}"
        return s, "contradicted", kind, True

    @kinds("wrong_date")
    def decided(rng: random.Random, false: bool, kind: str | None):  # type: ignore[no-untyped-def]
        name, _, _, year = cite(rng.choice(cases))
        if false:
            year += rng.choice([-4, -2, -1, 1, 2, 6])
        s = rng.choice(
            [
                "{n} was decided in {y}.",
                "The Supreme Court decided {n} in {y}.",
                "{n}, a landmark ruling, was handed down in {y}.",
            ]
        ).format(n=name, y=year)
        return (s, "contradicted", kind, True) if false else (s, "supported", None, False)

    @kinds("outdated_fact")
    def good_law(rng: random.Random, false: bool, kind: str | None):  # type: ignore[no-untyped-def]
        if false:
            f = rng.choice(overruled)
            name = kb.entities[f.subject].label
            later = kb.entities[f.object or ""]
            if int(later.attrs["year"]) >= AS_OF.year:
                return None
            return (
                rng.choice(["{n} remains good law.", "{n} is still binding precedent."]).format(
                    n=name
                ),
                "contradicted",
                kind,
                True,
            )
        return None

    @kinds("wrong_entity")
    def overrule(rng: random.Random, false: bool, kind: str | None):  # type: ignore[no-untyped-def]
        f = rng.choice(overruled)
        a = kb.entities[f.subject].label
        b = kb.entities[f.object or ""]
        if false:
            wrong = rng.choice(
                [
                    c
                    for c in cases
                    if c.id not in {f.object, f.subject}
                    and int(c.attrs["year"]) > int(kb.entities[f.subject].attrs["year"])
                ]
            )
            b = wrong
        s = f"{a} was overruled by {b.label.rstrip('.')}."
        return (s, "contradicted", kind, True) if false else (s, "supported", None, False)

    @kinds("wrong_entity")
    def statute(rng: random.Random, false: bool, kind: str | None):  # type: ignore[no-untyped-def]
        e = rng.choice(statutes)
        subject = (subjects[e.id].literal or "").lower()
        target = e
        if false:
            others = [
                s
                for s in statutes
                if (subjects[s.id].literal or "").lower() != subject
                and subject not in (subjects[s.id].literal or "").lower()
            ]
            target = rng.choice(others)
        cite_txt = f"{target.attrs['title']} U.S.C. § {target.attrs['section']}"
        s = rng.choice(
            [
                "{S} is governed by {c}.",
                "Liability for {s} arises under {c}.",
                "Prosecutors charge {s} under {c}.",
            ]
        ).format(S=subject.capitalize(), s=subject, c=cite_txt)
        return (s, "contradicted", kind, True) if false else (s, "supported", None, False)

    return [
        ("citation", citation),
        ("citation", citation),
        ("decided", decided),
        ("good_law", good_law),
        ("overrule", overrule),
        ("statute", statute),
    ], AS_OF
