"""Legal graph: reporters with edition dates (reporters-db), courts with existence dates and
citation strings (courts-db), curated U.S. Supreme Court cases and federal statutes."""

from __future__ import annotations

from datetime import date, datetime

from knowledge_graphs.builders.common import GraphBuilder, package_source
from knowledge_graphs.builders.curated import CaseIn, StatuteIn, load_entries, require_source
from knowledge_graphs.errors import DataError

# U.S. Reports volumes 1-90 are the renumbered nominative reporters (Dallas ... Wallace),
# so "5 U.S. 137 (1803)" is valid although the "U.S." edition itself starts in 1875.
US_NOMINATIVE_LAST_VOLUME = 90


def case_id(volume: int, reporter: str, page: int) -> str:
    return f"case:{volume} {reporter} {page}"


def build_legal() -> GraphBuilder:
    g = GraphBuilder("legal")
    _add_reporters(g)
    _add_courts(g)
    _add_cases(g)
    _add_statutes(g)
    g.check_references()
    return g


def _day(value: object) -> date | None:
    if value is None or value == "":
        return None
    if isinstance(value, datetime):
        return value.date()
    if isinstance(value, date):
        return value
    return date.fromisoformat(str(value)[:10])


def _add_reporters(g: GraphBuilder) -> None:
    import reporters_db

    src = package_source(
        "reporters-db",
        "Free Law Project reporters database",
        "https://github.com/freelawproject/reporters-db",
    )
    for key, reporters in reporters_db.REPORTERS.items():
        for rep in reporters:
            variations = rep.get("variations", {})
            for abbr, ed in rep.get("editions", {}).items():
                rid = f"reporter:{abbr}"
                names = [v for v, target in variations.items() if target == abbr]
                start, end = _day(ed.get("start")), _day(ed.get("end"))
                attrs = {
                    "abbreviation": abbr,
                    "reporter": key,
                    "cite_type": rep.get("cite_type"),
                    "start": start.isoformat() if start else None,
                    "end": end.isoformat() if end else None,
                }
                if abbr == "U.S.":
                    attrs["nominative_through_volume"] = US_NOMINATIVE_LAST_VOLUME
                g.entity(rid, "Reporter", rep.get("name") or abbr, [abbr, *names], attrs, src)
                if start:
                    g.fact(rid, "editionStart", src, date=start)
                if end:
                    g.fact(rid, "editionEnd", src, date=end)


def _add_courts(g: GraphBuilder) -> None:
    import courts_db

    src = package_source(
        "courts-db",
        "Free Law Project courts database",
        "https://github.com/freelawproject/courts-db",
    )
    for c in courts_db.courts:
        cid = f"court:{c['id']}"
        cite = c.get("citation_string") or ""
        g.entity(
            cid,
            "Court",
            c["name"],
            [cite] if cite else [],
            {"citation_string": cite, "system": c.get("system"), "level": c.get("level")},
            src,
        )
        for span in c.get("dates") or []:
            start, end = _day(span.get("start")), _day(span.get("end"))
            if start and end and start > end:
                g.warnings.append(
                    f"courts-db: court {c['id']} has a date span ending before it "
                    f"starts ({start} > {end}); span skipped"
                )
                continue
            if start or end:
                g.fact(cid, "courtExists", src, valid_from=start, valid_to=end)


def _short_names(cases: list[CaseIn]) -> set[str]:
    """Short names usable as mentions ("Miranda", "Chevron", "Dobbs"): unique among the cases
    and not everyday English words ("Brown", "Loving" are left out). Matched case-sensitively."""
    from collections import Counter

    from wordfreq import zipf_frequency

    counts = Counter(c.short for c in cases if c.short)
    return {
        s
        for s, n in counts.items()
        if n == 1 and len(s) >= 4 and " v" not in s and zipf_frequency(s.lower(), "en") < 4.0
    }


def _add_cases(g: GraphBuilder) -> None:
    cases = load_entries("legal/cases.yaml", CaseIn)
    usable_short = _short_names(cases)
    by_name: dict[str, str] = {}
    for i, c in enumerate(cases):
        where = f"legal/cases.yaml: entry {i + 1} ({c.name})"
        src = require_source(c, where)
        cid = case_id(c.volume, c.reporter, c.page)
        if cid in g.entities:
            raise DataError(f"duplicate citation {c.volume} {c.reporter} {c.page}", location=where)
        cite = f"{c.volume} {c.reporter} {c.page}"
        short = [c.short] if c.short in usable_short else []
        attrs = {"short_name": c.short, "year": c.decision_year, "primary_citation": cite}
        if short:
            attrs["exact_aliases"] = short
        g.entity(cid, "Case", c.name, [*c.aliases, *short], attrs, src)
        for n in (c.name, *c.aliases):
            by_name[n.lower()] = cid
        g.fact(
            cid,
            "citation",
            src,
            literal=cite,
            qualifiers={"volume": c.volume, "reporter": c.reporter, "page": c.page},
        )
        for p in c.parallel:
            g.fact(cid, "citation", src, literal=p, qualifiers={"parallel": "true"})
        g.fact(
            cid,
            "decided",
            src,
            date=c.decided,
            value=float(c.decision_year),
            qualifiers={"precision": "day" if c.decided else "year"},
        )
        g.fact(cid, "court", src, object="court:scotus")
    for i, c in enumerate(cases):
        if c.overruled_by is None:
            continue
        where = f"legal/cases.yaml: entry {i + 1} ({c.name})"
        later = by_name.get(c.overruled_by.case.lower())
        if later is None:
            raise DataError(
                f"overruled_by names {c.overruled_by.case!r}, which is not in the file",
                location=where,
            )
        when = g.entities[later].attrs["year"]
        g.fact(
            case_id(c.volume, c.reporter, c.page),
            "overruledBy",
            require_source(c, where),
            object=later,
            qualifiers={"kind": c.overruled_by.kind, "note": c.overruled_by.note},
            valid_from=_decision_date(g, later) or date(int(when), 1, 1),
        )


def _decision_date(g: GraphBuilder, cid: str) -> date | None:
    for f in g.facts.values():
        if f.subject == cid and f.predicate == "decided":
            return f.date
    return None


def _add_statutes(g: GraphBuilder) -> None:
    for i, s in enumerate(load_entries("legal/statutes.yaml", StatuteIn)):
        where = f"legal/statutes.yaml: entry {i + 1} ({s.title} {s.code} {s.section})"
        src = require_source(s, where)
        label = f"{s.title} {s.code} § {s.section}"
        sid = f"statute:{s.title} {s.code} {s.section}"
        plain = f"{s.title} {s.code} {s.section}"
        g.entity(
            sid,
            "Statute",
            label,
            [plain, s.name, *s.aliases],
            {"title": s.title, "code": s.code, "section": s.section},
            src,
        )
        g.fact(sid, "sectionHeading", src, literal=s.name)
        g.fact(sid, "statuteSubject", src, literal=s.subject)
