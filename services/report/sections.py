"""The report's sections as one model that HTML and PDF both lay out.

:func:`sections` turns the report dict into an ordered list of :class:`Section`: a title and
blocks — headings, paragraphs, tables, key figures, charts, entries (a claim with its reason
and evidence, an open item), definitions. Every title, sentence, table head and cell is
written here, once; :mod:`services.report.html` and :mod:`services.report.pdf` only decide how
each kind of block looks (``kind`` names it). A paragraph or cell is text or a sequence of
runs: ``str``, :class:`Link` (only an http(s) URL is kept, see :func:`safe_url`) and
:class:`Code`.

>>> link("FDA label", "https://www.fda.gov/x"), link("x", "javascript:alert(1)")
(Link(text='FDA label', url='https://www.fda.gov/x'), Link(text='x', url=None))
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar
from urllib.parse import urlsplit

from services.report.charts import render_charts
from services.report.data import provenance_text
from services.report.fmt import (
    REVIEW_HEAD,
    RISK_HEAD,
    by_domain_rows,
    label,
    num,
    open_item_text,
    operating_point_rows,
    pct,
    review_line,
    review_rows,
    risk_line,
    scope_line,
    score,
    top_rule_rows,
    versions_rows,
)


def safe_url(value: Any) -> str | None:
    """``value`` when it is an absolute http(s) URL without control characters, else None.

    >>> safe_url("https://www.fda.gov/x"), safe_url("javascript:alert(1)"), safe_url("/etc")
    ('https://www.fda.gov/x', None, None)
    """
    if not isinstance(value, str):
        return None
    v = value.strip()
    if any(ord(ch) < 32 or ord(ch) == 127 for ch in v):
        return None
    parts = urlsplit(v)
    return v if parts.scheme in ("http", "https") and parts.netloc else None


@dataclass(frozen=True, slots=True)
class Link:
    """Text that links to ``url`` (None: not a web URL, shown as plain text)."""

    kind: ClassVar[str] = "link"
    text: str
    url: str | None


@dataclass(frozen=True, slots=True)
class Code:
    """A hash or identifier, set in a monospaced face where the format has one."""

    kind: ClassVar[str] = "code"
    text: str


Run = str | Link | Code
Cell = str | Link


def link(text: Any, url: Any) -> Link:
    return Link("" if text is None else str(text), safe_url(url))


def runs_text(runs: tuple[Run, ...]) -> str:
    """The runs as plain text."""
    return "".join(r if isinstance(r, str) else r.text for r in runs)


def _t(value: Any) -> str:
    return "" if value is None else str(value)


@dataclass(frozen=True, slots=True)
class Heading:
    kind: ClassVar[str] = "heading"
    text: str
    anchor: str | None = None


@dataclass(frozen=True, slots=True)
class Para:
    """A paragraph; ``style`` is ``muted``, ``ok`` or ``bad`` (a failed integrity check)."""

    kind: ClassVar[str] = "para"
    runs: tuple[Run, ...]
    style: str = ""


@dataclass(frozen=True, slots=True)
class Table:
    """A table; ``widths`` (mm, summing to the PDF's text width) and ``size`` (pt) are hints
    for the PDF, which cannot size columns by their content."""

    kind: ClassVar[str] = "table"
    head: Sequence[str]
    rows: Sequence[Sequence[Cell]]
    widths: Sequence[float] | None = None
    size: float | None = None


@dataclass(frozen=True, slots=True)
class Kpis:
    """The headline figures: (label, value)."""

    kind: ClassVar[str] = "kpis"
    items: list[tuple[str, str]]


@dataclass(frozen=True, slots=True)
class Figure:
    kind: ClassVar[str] = "figure"
    name: str
    caption: str
    png: bytes


@dataclass(frozen=True, slots=True)
class Entry:
    """One entry of a list: a bold ``lead`` (``style`` ``bad`` for a contradiction), its
    text, further lines, and sub-items (a claim's evidence)."""

    lead: str
    text: tuple[Run, ...]
    lines: tuple[tuple[Run, ...], ...] = ()
    sub: tuple[tuple[Run, ...], ...] = ()
    style: str = ""


@dataclass(frozen=True, slots=True)
class Entries:
    kind: ClassVar[str] = "entries"
    items: list[Entry]


@dataclass(frozen=True, slots=True)
class Definitions:
    kind: ClassVar[str] = "definitions"
    items: list[tuple[str, str]]


Block = Heading | Para | Table | Kpis | Figure | Entries | Definitions


@dataclass(slots=True)
class Section:
    id: str
    title: str
    blocks: list[Block] = field(default_factory=list)


def header(report: dict[str, Any]) -> tuple[str, str]:
    """The report's title and the line under it (period, scope, generation time)."""
    p = report["parameters"]
    return (
        report["title"],
        f"{p['from']} to {p['to']} · {scope_line(p)} · generated {report['generated_at']}",
    )


def _summary(r: dict[str, Any]) -> Section:
    s = r["summary"]
    f, t, c, cc, ci = (
        s["fer"],
        s["trust_score"],
        s["counts"],
        s["citation_confidence"],
        s["citations"],
    )
    kpis = [
        ("Audits", num(s["audits"])),
        ("Claims", num(s["claims"])),
        ("Pooled FER", pct(f["pooled"])),
        ("FER after review", pct(r["review"]["fer_after_review"]["pooled"])),
        ("Mean trust score", score(t["mean"])),
        ("Coverage", pct(s["coverage"]["pooled"])),
        ("Audits with a contradiction", num(s["audits_with_contradictions"])),
    ]
    sentence = (
        f"Claims: {num(c['supported'])} supported, {num(c['contradicted'])} contradicted, "
        f"{num(c['unverifiable'])} unverifiable. Trust score p10 {score(t['p10'])}, median "
        f"{score(t['p50'])}; citation confidence mean {pct(cc['mean'])} over "
        f"{num(cc['audits_with_citations'])} audits with citations; "
        f"{num(ci['contradicted'])} citations failed, {num(ci['could_not_be_checked'])} could "
        f"not be checked ({num(ci['audits_needing_review'])} audits need review)."
    )
    hist = f["histogram"]
    return Section(
        "summary",
        "Executive summary",
        [
            Kpis(kpis),
            Para((sentence,)),
            Heading("FER distribution"),
            Table(
                ["", "mean", "p50", "p90", "p95", "max"],
                [
                    [
                        "FER",
                        pct(f["mean"]),
                        pct(f["p50"]),
                        pct(f["p90"]),
                        pct(f["p95"]),
                        pct(f["max"]),
                    ]
                ],
            ),
            Table(
                [h["bin"] for h in hist] + ["nothing verifiable"],
                [[num(h["audits"]) for h in hist] + [num(f["audits_without_verifiable_claims"])]],
            ),
            Heading("By domain"),
            Table(
                ["domain", "audits", "FER", "mean trust score", "coverage"],
                by_domain_rows(s["by_domain"]),
            ),
        ],
    )


def _charts(r: dict[str, Any]) -> Section:
    sec = Section("charts", "Charts")
    sec.blocks += [Figure(name, caption, png) for name, caption, png in render_charts(r)]
    if r["top_failing_rules"]:
        sec.blocks += [
            Heading("Top failing rules"),
            Table(
                ["rule", "title", "contradicted", "claims checked", "audits"],
                top_rule_rows(r["top_failing_rules"]),
                widths=[30, 84, 24, 23, 19],
            ),
        ]
    return sec


def _evidence(e: dict[str, Any]) -> tuple[Run, ...]:
    runs: list[Run] = [f"{_t(e['role'])}: {_t(e['statement'])}"]
    if e.get("document"):
        runs += [" — source: ", link(e["document"], e.get("url"))]
        if e.get("section"):
            runs.append(f", {e['section']}")
    return tuple(runs)


def _worst(r: dict[str, Any]) -> Section:
    sec = Section("worst", f"Worst audits ({len(r['worst_audits'])})")
    for w in r["worst_audits"]:
        sec.blocks += [
            Heading(f"Audit {w['id']}"),
            Para(
                (
                    f"external id {w['external_id'] or '—'} · {w['domain']} · recorded "
                    f"{w['created_at']} · as of {w['as_of']} · FER {pct(w['fer'])} · trust "
                    f"score {score(w['joint_score'])}",
                ),
                "muted",
            ),
        ]
        if w.get("context"):
            sec.blocks.append(Para((f"Question: {w['context']}",)))
        sec.blocks.append(
            Entries(
                [
                    Entry(
                        "CONTRADICTED",
                        (
                            f"({_t(c['rule_id'])}, {label(c['hallucination_type'])}) "
                            f"“{_t(c['text'])}”",
                        ),
                        lines=((f"why: {_t(c['reason'])}",),),
                        sub=tuple(_evidence(e) for e in c["evidence"]),
                        style="bad",
                    )
                    for c in w["claims"]
                ]
            )
        )
        if w["claims_not_shown"]:
            sec.blocks.append(
                Para((f"… and {w['claims_not_shown']} more contradicted claims",), "muted")
            )
    return sec


def _review(r: dict[str, Any]) -> Section:
    rv = r["review"]
    sec = Section(
        "review",
        "Reviewer decisions",
        [
            Table(REVIEW_HEAD, review_rows(rv, r["summary"]["fer"]["pooled"]), size=7.5),
            Para((review_line(rv),)),
            Heading(f"Needs review ({num(rv['items']['open'])} open items)", "needs-review"),
        ],
    )
    if rv["open_items"]:
        sec.blocks.append(
            Entries(
                [
                    Entry(
                        f"{it['verdict']} {it['kind']}",
                        (f"“{_t(it['text'])}”",),
                        lines=((open_item_text(it),),),
                    )
                    for it in rv["open_items"]
                ]
            )
        )
    else:
        sec.blocks.append(Para(("No item is waiting for a reviewer.",)))
    if rv["open_items_not_shown"]:
        sec.blocks.append(
            Para(
                (
                    f"… and {num(rv['open_items_not_shown'])} more open items (the review queue "
                    "lists them all).",
                ),
                "muted",
            )
        )
    return sec


def _risk(r: dict[str, Any]) -> Section | None:
    risk = r.get("risk")
    if not risk:
        return None
    sec = Section(
        "risk",
        "Calibrated risk and operating points",
        [Para((risk_line(risk),)), Para((risk["statement"],))],
    )
    rows = operating_point_rows(risk)
    if rows:
        sec.blocks.append(Table(RISK_HEAD, rows, widths=[22, 22, 28, 28, 28, 52], size=8))
    sec.blocks.append(
        Para(
            (
                "The calibration curve is in the charts above: predicted risk against the "
                "observed share of hallucinated answers on the model's held-out split.",
            ),
            "muted",
        )
    )
    return sec


def _methodology(r: dict[str, Any]) -> Section:
    m = r["methodology"]
    return Section(
        "methodology",
        "Methodology",
        [Definitions([(d["term"], d["text"]) for d in m["definitions"] + m["report"]])],
    )


def _sources(g: dict[str, Any]) -> tuple[Run, ...]:
    runs: list[Run] = [
        f"{g['domain']} {_t(g['version'])}: {num(g['facts'])} facts, {num(g['entities'])} "
        f"entities, {num(g['sources'])} sources. Most used: "
    ]
    for i, s in enumerate(g["top_sources"]):
        runs += ["; "] if i else []
        runs += [link(s["document"], s.get("url")), f" ({num(s['facts'])})"]
    runs.append(". " + provenance_text(g.get("provenance")))
    return tuple(runs)


def _versions(r: dict[str, Any]) -> Section:
    v = r["versions"]
    sec = Section(
        "versions",
        "Versions and sources",
        [
            Heading("Versions in the audits"),
            Table(["graphs (kg_version)", "rules", "auditor", "audits"], versions_rows(v["seen"])),
        ],
    )
    if v["graphs"]:
        sec.blocks.append(Heading(f"Knowledge graphs loaded now ({v['graphs']['kg_version']})"))
        sec.blocks += [Para(_sources(g)) for g in v["graphs"]["domains"]]
    if v["rule_packs"]:
        sec.blocks += [
            Heading(f"Rule packs ({v['rule_packs']['rules_version']})"),
            Table(
                ["pack", "rule", "title", "cites"],
                [
                    [
                        f"{p['pack']} {p['version']}",
                        x["id"],
                        x["title"],
                        link(x["citation"], x.get("url")),
                    ]
                    for p in v["rule_packs"]["packs"]
                    for x in p["rules"]
                ],
                widths=[22, 30, 58, 70],
                size=7,
            ),
        ]
    return sec


def _integrity(r: dict[str, Any]) -> Section:
    i = r["integrity"]
    return Section(
        "integrity",
        "Audit-trail integrity",
        [
            Para((i["statement"],), "ok" if i["chain_verified"] else "bad"),
            Para(("Head hash: ", Code(_t(i["head_hash"])))),
            Para((f"Generated by kgaudit at {r['generated_at']}.",), "muted"),
        ],
    )


def sections(report: dict[str, Any]) -> list[Section]:
    """The report's sections in order (the risk section only when the report has one)."""
    risk = _risk(report)
    return [
        _summary(report),
        _charts(report),
        _worst(report),
        _review(report),
        *([risk] if risk else []),
        _methodology(report),
        _versions(report),
        _integrity(report),
    ]


__all__ = [
    "Block",
    "Code",
    "Definitions",
    "Entries",
    "Entry",
    "Figure",
    "Heading",
    "Kpis",
    "Link",
    "Para",
    "Section",
    "Table",
    "header",
    "link",
    "runs_text",
    "safe_url",
    "sections",
]
