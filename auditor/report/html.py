"""The report as one self-contained HTML page: inline CSS, charts as inline base64 PNGs."""

from __future__ import annotations

import base64
from html import escape
from typing import Any

from auditor.report.charts import render_charts
from auditor.report.data import provenance_text
from auditor.report.fmt import RISK_HEAD, label, num, operating_point_rows, pct, risk_line, score

CSS = """
*,*::before,*::after{box-sizing:border-box}
body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;margin:2rem auto;max-width:980px;
padding:0 1rem;color:#1b1b1b;line-height:1.45;overflow-wrap:anywhere}h1{margin-bottom:.2rem}
h2{border-bottom:2px solid #ddd;padding-bottom:.2rem;margin-top:2.2rem}
table{border-collapse:collapse;margin:.6rem 0;width:100%}
th,td{border:1px solid #ddd;padding:.3rem .5rem;text-align:left;vertical-align:top;
font-size:.92rem;overflow-wrap:anywhere}th{background:#f4f4f4}
.kpis{display:flex;flex-wrap:wrap;gap:.8rem}
.kpi{border:1px solid #ddd;border-radius:6px;padding:.6rem 1rem;min-width:9rem}
.kpi b{display:block;font-size:1.5rem}.muted{color:#666;font-size:.9rem}
.bad{color:#b00020}.ok{color:#1b5e20}img{max-width:100%;height:auto}
.claim{margin:.4rem 0 .8rem 1rem}code{font-size:.85rem;word-break:break-all}
@media (max-width:600px){body{margin:1rem auto;padding:0 .5rem}
th,td{padding:.2rem .25rem;font-size:.78rem}.kpi{min-width:7rem;padding:.4rem .6rem}
.kpi b{font-size:1.2rem}.claim{margin-left:.4rem}}
"""


def _e(x: Any) -> str:
    return escape("" if x is None else str(x))


def _table(head: list[str], rows: list[list[Any]]) -> str:
    th = "".join(f"<th>{_e(h)}</th>" for h in head)
    body = "".join("<tr>" + "".join(f"<td>{_e(c)}</td>" for c in r) + "</tr>" for r in rows)
    return f"<table><tr>{th}</tr>{body}</table>"


def _link(text: Any, url: str | None) -> str:
    return f'<a href="{_e(url)}">{_e(text)}</a>' if url else _e(text)


def _summary(r: dict[str, Any]) -> str:
    s = r["summary"]
    kpis = [
        ("Audits", num(s["audits"])),
        ("Claims", num(s["claims"])),
        ("Pooled FER", pct(s["fer"]["pooled"])),
        ("Mean trust score", score(s["trust_score"]["mean"])),
        ("Coverage", pct(s["coverage"]["pooled"])),
        ("Audits with a contradiction", num(s["audits_with_contradictions"])),
    ]
    tiles = "".join(f'<div class="kpi"><b>{_e(v)}</b>{_e(k)}</div>' for k, v in kpis)
    f, t = s["fer"], s["trust_score"]
    dist = _table(
        ["", "mean", "p50", "p90", "p95", "max"],
        [["FER", pct(f["mean"]), pct(f["p50"]), pct(f["p90"]), pct(f["p95"]), pct(f["max"])]],
    )
    hist = _table(
        [h["bin"] for h in f["histogram"]] + ["nothing verifiable"],
        [[num(h["audits"]) for h in f["histogram"]] + [num(f["audits_without_verifiable_claims"])]],
    )
    dom = _table(
        ["domain", "audits", "FER", "mean trust score", "coverage"],
        [
            [
                d["domain"],
                num(d["audits"]),
                pct(d["fer"]),
                score(d["trust_score_mean"]),
                pct(d["coverage"]),
            ]
            for d in s["by_domain"]
        ],
    )
    c = s["counts"]
    return (
        f'<h2>Executive summary</h2><div class="kpis">{tiles}</div>'
        f"<p>Claims: {num(c['supported'])} supported, {num(c['contradicted'])} "
        f"contradicted, {num(c['unverifiable'])} unverifiable. Trust score p10 "
        f"{score(t['p10'])}, median {score(t['p50'])}; citation confidence mean "
        f"{pct(s['citation_confidence']['mean'])} over "
        f"{num(s['citation_confidence']['audits_with_citations'])} audits with citations; "
        f"{num(s['citations']['contradicted'])} citations failed, "
        f"{num(s['citations']['could_not_be_checked'])} could not be checked "
        f"({num(s['citations']['audits_needing_review'])} audits need review)."
        f"</p><h3>FER distribution</h3>{dist}{hist}<h3>By domain</h3>{dom}"
    )


def _charts(r: dict[str, Any]) -> str:
    parts = ["<h2>Charts</h2>"]
    for name, caption, png in render_charts(r):
        b64 = base64.b64encode(png).decode("ascii")
        parts.append(
            f'<figure id="{name}"><img alt="{_e(caption)}" '
            f'src="data:image/png;base64,{b64}"><figcaption class="muted">'
            f"{_e(caption)}</figcaption></figure>"
        )
    rules = r["top_failing_rules"]
    if rules:
        parts.append(
            _table(
                ["rule", "title", "contradicted", "claims checked", "audits"],
                [
                    [
                        x["rule_id"],
                        x["title"] or "",
                        num(x["contradicted"]),
                        num(x["claims"]),
                        num(x["audits"]),
                    ]
                    for x in rules
                ],
            )
        )
    return "".join(parts)


def _worst(r: dict[str, Any]) -> str:
    parts = [f"<h2>Worst audits ({len(r['worst_audits'])})</h2>"]
    for w in r["worst_audits"]:
        parts.append(
            f"<h3>Audit {_e(w['id'])}</h3><p class=muted>external id "
            f"{_e(w['external_id'] or '—')} · {_e(w['domain'])} · recorded "
            f"{_e(w['created_at'])} · as of {_e(w['as_of'])} · FER {pct(w['fer'])} · "
            f"trust score {score(w['joint_score'])}</p>"
        )
        if w.get("context"):
            parts.append(f"<p><i>Question:</i> {_e(w['context'])}</p>")
        for c in w["claims"]:
            ev = "".join(
                f"<li>{_e(e['role'])}: {_e(e['statement'])}"
                + (
                    f" — source: {_link(e['document'], e['url'])}"
                    + (f", {_e(e['section'])}" if e.get("section") else "")
                    if e.get("document")
                    else ""
                )
                + "</li>"
                for e in c["evidence"]
            )
            parts.append(
                f'<div class="claim"><b class="bad">CONTRADICTED</b> '
                f"({_e(c['rule_id'])}, {_e(label(c['hallucination_type']))}) "
                f"“{_e(c['text'])}”<br>why: {_e(c['reason'])}<ul>{ev}</ul></div>"
            )
        if w["claims_not_shown"]:
            parts.append(
                f"<p class=muted>… and {w['claims_not_shown']} more contradicted claims</p>"
            )
    return "".join(parts)


def _methodology(r: dict[str, Any]) -> str:
    m = r["methodology"]
    items = "".join(
        f"<dt><b>{_e(d['term'])}</b></dt><dd>{_e(d['text'])}</dd>"
        for d in m["definitions"] + m["report"]
    )
    v = r["versions"]
    parts = [
        f"<h2>Methodology</h2><dl>{items}</dl><h3>Versions in the audits</h3>",
        _table(
            ["graphs (kg_version)", "rules", "auditor", "audits"],
            [
                [x["kg_version"], x["rules_version"], x["auditor_version"], num(x["audits"])]
                for x in v["seen"]
            ],
        ),
    ]
    if v["graphs"]:
        parts.append(f"<h3>Knowledge graphs loaded now ({_e(v['graphs']['kg_version'])})</h3>")
        for d in v["graphs"]["domains"]:
            parts.append(
                f"<p><b>{_e(d['domain'])}</b> {_e(d['version'])}: {num(d['facts'])} "
                f"facts, {num(d['entities'])} entities, {num(d['sources'])} sources. "
                "Most used: "
                + "; ".join(
                    f"{_link(s['document'], s['url'])} ({num(s['facts'])})"
                    for s in d["top_sources"]
                )
                + ". "
                + _e(provenance_text(d.get("provenance")))
                + "</p>"
            )
    if v["rule_packs"]:
        parts.append(f"<h3>Rule packs ({_e(v['rule_packs']['rules_version'])})</h3>")
        rows = [
            [f"{p['pack']} {p['version']}", x["id"], x["title"], x["citation"]]
            for p in v["rule_packs"]["packs"]
            for x in p["rules"]
        ]
        parts.append(_table(["pack", "rule", "title", "cites"], rows))
    return "".join(parts)


def _risk(r: dict[str, Any]) -> str:
    risk = r.get("risk")
    if not risk:
        return ""
    parts = ["<h2>Calibrated risk and operating points</h2>", f"<p>{_e(risk_line(risk))}</p>",
             f"<p>{_e(risk['statement'])}</p>"]  # fmt: skip
    rows = operating_point_rows(risk)
    if rows:
        parts.append(_table(RISK_HEAD, rows))
    parts.append(
        "<p class=muted>The calibration curve is in the charts above: predicted risk against "
        "the observed share of hallucinated answers on the model's held-out split.</p>"
    )
    return "".join(parts)


def _integrity(r: dict[str, Any]) -> str:
    i = r["integrity"]
    cls = "ok" if i["chain_verified"] else "bad"
    return (
        f'<h2>Audit-trail integrity</h2><p class="{cls}">{_e(i["statement"])}</p>'
        f"<p>Head hash: <code>{_e(i['head_hash'])}</code></p>"
    )


def render_html(report: dict[str, Any]) -> bytes:
    p = report["parameters"]
    scope = f"tenant {p['tenant']}" + (f", domain {p['domain']}" if p["domain"] else "")
    if p.get("by") == "answered":
        scope += ", by the day each text was said"
    body = "".join(
        [
            f"<h1>{_e(report['title'])}</h1><p class=muted>{_e(p['from'])} to {_e(p['to'])} · "
            f"{_e(scope)} · generated {_e(report['generated_at'])}</p>",
            _summary(report),
            _charts(report),
            _worst(report),
            _risk(report),
            _methodology(report),
            _integrity(report),
            f"<p class=muted>Generated by kgaudit at {_e(report['generated_at'])}.</p>",
        ]
    )
    return (
        f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>'
        f"{_e(report['title'])} {_e(p['from'])}–{_e(p['to'])}</title><style>{CSS}</style>"
        f"</head><body>{body}</body></html>"
    ).encode()


__all__ = ["render_html"]
