"""``kgaudit bench review``: the reviewer workbench's pages over a large trail.

Builds a trail of ``--audits`` audits of tenant ``bench`` (small answers of the three
domains, the share ``--queued`` of them with an open item — by default all, a queue of
``--audits`` audits — plus one answer of ``--claims`` claims) on SQLite and/or PostgreSQL,
serves the app in-process (FastAPI's TestClient: routing, session cookie, templates and the
trail queries, no network), signs in as a reviewer and times the queue's first and last
pages, a filtered queue page and the large audit's page. Reported as p50/p95 in
milliseconds and the p95's ratio to the 300 ms target of issue 26, never as pass/fail.
"""

from __future__ import annotations

import json
import math
import random
import re
import tempfile
import time
from pathlib import Path
from typing import Any

import click

from measure.bench.audit import percentile

TARGET_MS = 300.0
TENANT = "bench"
RISK_THRESHOLD = 0.5  # the setting's default: unverifiable claims count from this risk
_DOMAINS = ("medical", "legal", "finance")


def _claim(text: str, start: int, end: int, verdict: str, rule: str, i: int) -> dict[str, Any]:
    evidence = (
        []
        if verdict == "unverifiable"
        else [
            {
                "role": "supports" if verdict == "supported" else "contradicts",
                "fact": f"f{i}",
                "statement": f"graph fact {i} about {text[start:end][:30]}",
                "source": {
                    "document": f"Source document {i}",
                    "section": None,
                    "url": f"https://example.org/source/{i}",
                },
            }
        ]
    )
    return {
        "text": text[start:end],
        "start": start,
        "end": end,
        "subject": f"ent:{i}",
        "predicate": "p",
        "object": "o",
        "verdict": verdict,
        "reason": "the graph says otherwise" if verdict == "contradicted" else "",
        "evidence": evidence,
        "rule_id": rule,
        "severity": "critical",
        "hallucination_type": "numeric_mismatch" if verdict == "contradicted" else None,
    }


def _result(
    domain: str, text: str, verdicts: list[str], risk: float, rng: random.Random
) -> dict[str, Any]:
    sentences, pos, claims = text.split(". "), 0, []
    for i, (sent, verdict) in enumerate(zip(sentences, verdicts, strict=False)):
        rule = f"{domain.upper()[:3]}-R{rng.randint(0, 4)}"
        claims.append(_claim(text, pos, pos + len(sent), verdict, rule, i))
        pos += len(sent) + 2
    counts = {v: verdicts.count(v) for v in ("supported", "contradicted", "unverifiable")}
    checked = counts["supported"] + counts["contradicted"]
    return {
        "domain": domain,
        "domains": [domain],
        "as_of": "2026-06-01",
        "claims": claims,
        "citations": [],
        "fer": counts["contradicted"] / checked if checked else None,
        "citation_confidence": None,
        "joint_score": None,
        "coverage": checked / len(claims) if claims else None,
        "counts": counts,
        "hallucination_types": {},
        "kg_version": "kg-bench",
        "rules_version": "rules-bench",
        "auditor_version": "kgaudit-auditor/bench",
        "risk": risk,
    }


def _small_audit(queued: bool, rng: random.Random) -> tuple[list[str], float]:
    """The verdicts and risk of a two-claim answer, with an open item when ``queued``: a
    contradicted claim, or an unverifiable one at or above the risk threshold."""
    second = rng.choice(
        ["contradicted", "unverifiable"] if queued else ["supported", "unverifiable"]
    )
    risk = rng.random()
    if second == "unverifiable":  # open only at risk >= the threshold
        risk = RISK_THRESHOLD + (1 - RISK_THRESHOLD) * risk if queued else RISK_THRESHOLD * risk
    return ["supported", second], math.floor(risk * 1000) / 1000


def build_trail(
    db_url: str, n_audits: int, n_claims: int, seed: int = 0, queued: float = 1.0
) -> str:
    """Fill ``db_url`` (migrated here) with the bench's audits, the share ``queued`` of the
    small ones with an open item; returns the large audit's id."""
    from trail import Trail
    from trail.append import append_many, prepare

    rng = random.Random(seed)
    trail = Trail(db_url, durable=False)
    try:
        trail.migrate()
        batch = []
        for i in range(n_audits - 1):
            domain = _DOMAINS[i % 3]
            text = f"Answer {i} states a first fact. It states a second fact about {domain}."
            verdicts, risk = _small_audit(rng.random() < queued, rng)
            res = _result(domain, text, verdicts, risk, rng)
            batch.append(prepare(res, text=text, tenant=TENANT))
            if len(batch) == 500:
                append_many(trail, batch)
                batch = []
        if batch:
            append_many(trail, batch)
        text = ". ".join(
            f"Claim {i} of the long answer says something checkable" for i in range(n_claims)
        )
        verdicts = [("supported", "contradicted", "unverifiable")[i % 3] for i in range(n_claims)]
        big = _result("medical", text, verdicts, 0.99, rng)
        rec = trail.record(big, text=text, tenant=TENANT)
        return rec.id
    finally:
        trail.close()


def _time(client: Any, path: str, repeat: int) -> list[float]:
    for _ in range(3):  # warm-up: template compilation, caches, the first connection
        assert client.get(path).status_code == 200, path
    out = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        r = client.get(path)
        out.append((time.perf_counter() - t0) * 1000.0)
        if r.status_code != 200:
            raise click.ClickException(f"GET {path} answered {r.status_code}")
    return out


def bench_one(
    db_url: str, n_audits: int, n_claims: int, repeat: int, queued: float = 1.0
) -> dict[str, Any]:
    """Build, serve, sign in, time; the figures of one backend."""
    from fastapi.testclient import TestClient

    from auditor.settings import Settings
    from services.api import create_app
    from services.api.keys import KeyStore
    from trail import Trail

    t0 = time.perf_counter()
    big = build_trail(db_url, n_audits, n_claims, queued=queued)
    build_s = time.perf_counter() - t0
    with tempfile.TemporaryDirectory(prefix="kgaudit-bench-review-") as home:
        settings = Settings(
            home=Path(home),
            database_url=db_url,
            rate_limit_per_minute=10**7,
            review_risk_threshold=RISK_THRESHOLD,
        )
        trail = Trail(db_url)
        try:
            token = KeyStore(trail).create(tenant=TENANT, role="reviewer", name="bench")[1]
            client = TestClient(create_app(settings, trail=trail))
            with client:
                page = client.get("/review/login")
                m = re.search(r'name="csrf" value="([^"]+)"', page.text)
                if m is None:
                    raise click.ClickException("the sign-in page has no CSRF token")
                r = client.post(
                    "/review/login",
                    data={"csrf": m.group(1), "api_key": token},
                    follow_redirects=False,
                )
                if r.status_code != 303:
                    raise click.ClickException(f"sign-in answered {r.status_code}")
                first = client.get("/review").text
                total = re.search(r'id="queue-total">(\d+)<', first)
                last = re.search(r"page 1 of (\d+)", first)
                pages = {
                    "queue, first page": "/review",
                    "queue, last page": f"/review?page={last.group(1) if last else 1}",
                    "queue, filtered (domain, verdict), page 3": (
                        "/review?domain=legal&verdict=contradicted&page=3"
                    ),
                    f"audit page, {n_claims} claims": f"/review/audits/{big}",
                }
                figures = {}
                for name, path in pages.items():
                    ms = _time(client, path, repeat)
                    p95 = percentile(ms, 0.95)
                    figures[name] = {
                        "p50_ms": round(percentile(ms, 0.5), 1),
                        "p95_ms": round(p95, 1),
                        "p95_to_target": round(p95 / TARGET_MS, 3),
                    }
        finally:
            trail.close()
    return {
        "audits": n_audits,
        "queued": int(total.group(1)) if total else None,
        "build_s": round(build_s, 1),
        "pages": figures,
    }


@click.command("review")
@click.option("--audits", default=10_000, show_default=True, type=click.IntRange(2))
@click.option(
    "--claims",
    default=50,
    show_default=True,
    type=click.IntRange(1),
    help="Claims of the large audit.",
)
@click.option(
    "--repeat", default=40, show_default=True, type=click.IntRange(1), help="Requests per page."
)
@click.option(
    "--queued",
    default=1.0,
    show_default=True,
    type=click.FloatRange(0.0, 1.0),
    help="Share of the small audits with an open item (1: every audit is in the queue).",
)
@click.option(
    "--db",
    "backends",
    multiple=True,
    default=("sqlite", "postgres"),
    show_default=True,
    help="sqlite, postgres or a SQLAlchemy URL (repeatable). The database is filled here.",
)
@click.option(
    "--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True
)
def bench_review_command(
    audits: int, claims: int, repeat: int, queued: float, backends: tuple[str, ...], fmt: str
) -> None:
    """p50/p95 of the reviewer workbench's queue and audit pages over a large trail."""
    from measure.bench.api import bench_database

    out: dict[str, Any] = {"target_p95_ms": TARGET_MS, "backends": {}}
    for kind in backends:
        with bench_database(kind) as url:
            out["backends"][kind] = bench_one(url, audits, claims, repeat, queued)
    if fmt == "json":
        click.echo(json.dumps(out, indent=2))
        return
    for kind, res in out["backends"].items():
        click.echo(
            f"{kind}: {res['audits']} audits ({res['queued']} queued), built in {res['build_s']} s"
        )
        for name, f in res["pages"].items():
            click.echo(
                f"  {name:45s} p50 {f['p50_ms']:7.1f} ms  p95 {f['p95_ms']:7.1f} ms  "
                f"p95/target {f['p95_to_target']:.2f} (target {TARGET_MS:.0f} ms)"
            )


__all__ = ["TARGET_MS", "bench_one", "bench_review_command", "build_trail"]
