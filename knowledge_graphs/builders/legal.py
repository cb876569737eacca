"""Legal graph: reporters with edition dates (reporters-db), courts with existence dates and
citation strings (courts-db), curated U.S. Supreme Court cases and federal statutes."""

from __future__ import annotations

from datetime import date, datetime

from pydantic import Field

from knowledge_graphs.builders.common import GraphBuilder, package_source
from knowledge_graphs.builders.curated import (
    CaseIn,
    Sourced,
    StatuteIn,
    load_entries,
    require_source,
)
from knowledge_graphs.errors import DataError
from knowledge_graphs.model import Source

# U.S. Reports volumes 1-90 are the renumbered nominative reporters (Dallas ... Wallace),
# so "5 U.S. 137 (1803)" is valid although the "U.S." edition itself starts in 1875.
US_NOMINATIVE_LAST_VOLUME = 90


class ReporterDatesIn(Sourced):
    """A sourced override of a reporters-db edition's years (``reporter_dates.yaml``)."""

    reporter: str
    start: int = Field(ge=1600, le=2100)
    end: int | None = Field(default=None, ge=1600, le=2100)
    note: str | None = None


class CourtDatesIn(Sourced):
    """A sourced override of a courts-db court's first day (``courts.yaml``)."""

    court: str
    start: date
    note: str | None = None


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
    overrides = {
        o.reporter: (o, require_source(o, f"legal/reporter_dates.yaml: {o.reporter}"))
        for o in load_entries("legal/reporter_dates.yaml", ReporterDatesIn)
    }
    for key, reporters in reporters_db.REPORTERS.items():
        for rep in reporters:
            variations = rep.get("variations", {})
            for abbr, ed in rep.get("editions", {}).items():
                rid = f"reporter:{abbr}"
                names = [v for v, target in variations.items() if target == abbr]
                start, end = _day(ed.get("start")), _day(ed.get("end"))
                fact_src: Source = src
                if abbr in overrides:
                    o, fact_src = overrides.pop(abbr)
                    start, end = date(o.start, 1, 1), date(o.end, 12, 31) if o.end else None
                attrs = {
                    "abbreviation": abbr,
                    "reporter": key,
                    "cite_type": rep.get("cite_type"),
                    "start": start.isoformat() if start else None,
                    "end": end.isoformat() if end else None,
                }
                if abbr == "U.S.":
                    attrs["nominative_through_volume"] = US_NOMINATIVE_LAST_VOLUME
                if fact_src is not src:
                    attrs["dates_source"] = fact_src.document
                g.entity(rid, "Reporter", rep.get("name") or abbr, [abbr, *names], attrs, src)
                if start:
                    g.fact(rid, "editionStart", fact_src, date=start)
                if end:
                    g.fact(rid, "editionEnd", fact_src, date=end)
    if overrides:
        raise DataError(
            f"reporter_dates.yaml names reporters reporters-db lacks: {sorted(overrides)}",
            location="legal/reporter_dates.yaml",
        )


def _add_courts(g: GraphBuilder) -> None:
    import courts_db

    src = package_source(
        "courts-db",
        "Free Law Project courts database",
        "https://github.com/freelawproject/courts-db",
    )
    overrides = {
        o.court: (o, require_source(o, f"legal/courts.yaml: {o.court}"))
        for o in load_entries("legal/courts.yaml", CourtDatesIn)
    }
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
            fact_src, quals = src, None
            if c["id"] in overrides and span is c["dates"][0]:
                o, fact_src = overrides[c["id"]]
                start, quals = o.start, {"overrides": "courts-db"}
            if start or end:
                g.fact(cid, "courtExists", fact_src, valid_from=start, valid_to=end,
                       qualifiers=quals)  # fmt: skip


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
        decided, scdb = _decision_date(g, later), None
        if decided is None:
            decided, scdb = _scdb_decision(g.entities[later].attrs["primary_citation"])
        if decided is None:
            raise DataError(
                f"no decision date for the overruling case {c.overruled_by.case!r}: give it a "
                "'decided' day in cases.yaml (SCDB covers only Terms 1946-2023)",
                location=where,
            )
        g.fact(
            case_id(c.volume, c.reporter, c.page),
            "overruledBy",
            require_source(c, where),
            object=later,
            qualifiers={
                "kind": c.overruled_by.kind,
                "note": c.overruled_by.note,
                "extent": c.overruled_by.overruled_extent,
                **({"date_source": f"{scdb.document}, {scdb.section}"} if scdb else {}),
            },
            valid_from=decided,
        )
        if decided.year != int(when):
            raise DataError(
                f"SCDB dates {c.overruled_by.case!r} {decided}, not in {when}", location=where
            )


def _decision_date(g: GraphBuilder, cid: str) -> date | None:
    for f in g.facts.values():
        if f.subject == cid and f.predicate == "decided":
            return f.date
    return None


def _scdb_decision(cite: str) -> tuple[date | None, Source | None]:
    """The decision date SCDB gives the case starting at ``cite`` (a U.S. Reports cite)."""
    from knowledge_graphs.scotus import SOURCE, scotus_index

    vol, rep, page = cite.partition(" U.S. ")
    if not rep:
        return None, None
    hits = scotus_index().starting_at("U.S.", int(vol), int(page))
    if len(hits) != 1:
        return None, None
    return hits[0].decided, Source(
        SOURCE, f"case {hits[0].id}: {hits[0].name}", "http://supremecourtdatabase.org"
    )


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
