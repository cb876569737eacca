"""The ``review_items`` index (migration 0008) against the slow path: the queue computed by
decoding every stored result (what the queue did before), on SQLite and PostgreSQL, before
and after decisions, and after the migration fills an older trail."""

from __future__ import annotations

import random
from typing import Any

import pytest
from sqlalchemy import func, select

from trail import Trail, db
from trail.canonical import AUDIT_FIELDS
from trail.models import Audit, ReviewItem
from trail.review_queue import QueueFilter, open_items, review_queue
from trail.reviews import Decision, append_reviews, reviews_of
from trail.testing import fake_result

DOMAINS = ("medical", "legal", "finance")
VERDICTS = ("supported", "contradicted", "unverifiable")


def _result(rng: random.Random, i: int) -> dict[str, Any]:
    domain = DOMAINS[i % 3]
    verdicts = [rng.choice(VERDICTS) for _ in range(rng.randint(1, 4))]
    res = fake_result(f"Answer {i}: some claims about things.", domain=domain, verdicts=verdicts)
    for c in res["claims"]:
        c["rule_id"] = f"{domain}.rule_{rng.randint(0, 2)}"
    if rng.random() < 0.3:
        res["citations"] = [
            {"text": "x", "start": 0, "end": 1, "outcome": rng.choice(["verified", "unverified"])}
        ]
    if rng.random() < 0.85:  # some answers carry no risk (sorted last)
        res["risk"] = rng.choice([0.2, 0.5, 0.7, 0.9, rng.random()])
    return res


def _fill(trail: Trail, n: int, seed: int, tenants: tuple[str, ...] = ("acme", "beta")) -> None:
    rng = random.Random(seed)
    for i in range(n):
        trail.record(
            _result(rng, i),
            text=f"Answer {i}: some claims about things.",
            tenant=tenants[i % len(tenants)],
        )


def _slow(trail: Trail, tenant: str, thr: float, flt: QueueFilter) -> list[tuple[str, int]]:
    """(audit id, number of open items) of the queue, decoding every audit's result."""
    from trail.queries import to_datetime

    with trail.session() as s:
        rows = s.execute(
            select(Audit.id, Audit.created_at, Audit.domain, Audit.result)
            .where(Audit.tenant_id == tenant)
            .order_by(Audit.seq.desc())
        ).all()
    decided = reviews_of(trail, [r.id for r in rows], tenant=tenant)
    out = []
    for r in rows:
        if flt.domain and r.domain != flt.domain:
            continue
        if flt.start and r.created_at < to_datetime(flt.start):
            continue
        if flt.end and r.created_at >= to_datetime(flt.end, end=True):
            continue
        items = open_items(r.result, decided[r.id], risk_threshold=thr, flt=flt)
        if items:
            risk = r.result.get("risk")
            key = risk if isinstance(risk, (int, float)) else -1.0
            out.append((key, r.created_at, str(r.id), len(items)))
    out.sort(key=lambda t: (t[0], t[1]), reverse=True)
    return [(t[2], t[3]) for t in out]


def _fast(trail: Trail, tenant: str, thr: float, flt: QueueFilter) -> list[tuple[str, int]]:
    out, page = [], 1
    while True:
        q = review_queue(trail, tenant=tenant, risk_threshold=thr, flt=flt, page=page, page_size=7)
        out += [(r.id, len(r.open_items)) for r in q.rows]
        assert q.total >= len(out)
        if page >= q.pages:
            assert q.total == len(out)
            return out
        page += 1


FILTERS = [
    QueueFilter(),
    QueueFilter(domain="legal"),
    QueueFilter(verdict="contradicted"),
    QueueFilter(verdict="unverifiable"),
    QueueFilter(verdict="unverified"),
    QueueFilter(rule="medical.rule_1"),
    QueueFilter(domain="finance", verdict="unverifiable", rule="finance.rule_0"),
    QueueFilter(start="2000-01-01", end="2999-12-31"),
    QueueFilter(end="2000-01-01"),
]


def _check_all(trail: Trail) -> None:
    for tenant in ("acme", "beta"):
        for thr in (0.0, 0.5, 1.0):
            for flt in FILTERS:
                assert _fast(trail, tenant, thr, flt) == _slow(trail, tenant, thr, flt), (
                    tenant,
                    thr,
                    flt,
                )


def _open_items(trail: Trail, tenant: str) -> list[tuple[str, str]]:
    """(audit id, item key) of every open item, from the stored results (works at 0007)."""
    with trail.session() as s:
        rows = s.execute(
            select(Audit.id, Audit.result).where(Audit.tenant_id == tenant).order_by(Audit.seq)
        ).all()
    decided = reviews_of(trail, [r.id for r in rows], tenant=tenant)
    return [
        (str(r.id), it["item"])
        for r in rows
        for it in open_items(r.result, decided[r.id], risk_threshold=0.0)
    ]


def _decide(trail: Trail, seed: int) -> int:
    rng = random.Random(seed)
    n = 0
    for tenant in ("acme", "beta"):
        decisions = []
        for aid, key in _open_items(trail, tenant):
            pick = rng.random()
            if pick < 0.3:
                decisions.append(Decision(aid, key, "confirm"))
            elif pick < 0.45:
                decisions.append(Decision(aid, key, "overturn", "wrong source"))
            elif pick < 0.6:
                decisions.append(Decision(aid, key, "note", "looked at it"))
            if pick < 0.05:  # decided again: the newest decision wins
                decisions.append(Decision(aid, key, "overturn", "on reflection"))
        append_reviews(trail, decisions, tenant=tenant, reviewer="r@example.com")
        n += len(decisions)
    return n


def test_index_matches_the_slow_path_before_and_after_decisions(trail: Trail) -> None:
    _fill(trail, 90, seed=1)
    _check_all(trail)
    assert _decide(trail, seed=2) > 20
    _check_all(trail)
    assert _decide(trail, seed=3) > 0
    _check_all(trail)
    assert trail.verify().ok


def test_migration_0008_fills_the_index_of_an_older_trail(trail: Trail) -> None:
    _fill(trail, 40, seed=4)
    _decide(trail, seed=5)
    db.downgrade(trail.engine, "0007")
    # written at 0007 by this code: the audits and decisions skip the absent index
    _fill(trail, 40, seed=6)
    _decide(trail, seed=7)
    db.upgrade(trail.engine)
    with trail.session() as s:
        assert s.execute(select(func.count()).select_from(ReviewItem)).scalar_one() > 40
    _check_all(trail)
    _fill(trail, 10, seed=8)  # and written again after the upgrade
    _decide(trail, seed=9)
    _check_all(trail)
    assert trail.verify().ok


def test_the_index_is_in_no_hash() -> None:
    derived = {"audit_seq", "risk", "status", "item", "kind", "verdict", "rule_id"}
    assert not derived & set(AUDIT_FIELDS)


@pytest.mark.parametrize("flt", [QueueFilter(), QueueFilter(verdict="contradicted")])
def test_a_page_past_the_end_shows_the_last(trail: Trail, flt: QueueFilter) -> None:
    _fill(trail, 30, seed=10, tenants=("acme",))
    q = review_queue(trail, tenant="acme", risk_threshold=0.0, flt=flt, page=99, page_size=5)
    assert q.page == q.pages
    assert 0 < len(q.rows) <= 5


def test_bench_review_runs_and_reports_ratios() -> None:
    """A tiny ``kgaudit bench review`` (figures only; no timing is asserted)."""
    import json

    from click.testing import CliRunner

    from measure.bench.review import bench_review_command

    args = ["--audits", "30", "--claims", "6", "--repeat", "2", "--db", "sqlite"]
    r = CliRunner().invoke(bench_review_command, [*args, "--format", "json"])
    assert r.exit_code == 0, r.output
    out = json.loads(r.output)["backends"]["sqlite"]
    assert out["audits"] == out["queued"] == 30  # --queued 1: every audit is in the queue
    assert set(out["pages"]) == {
        "queue, first page",
        "queue, last page",
        "queue, filtered (domain, verdict), page 3",
        "audit page, 6 claims",
    }
    assert all(f["p95_to_target"] > 0 for f in out["pages"].values())
    half = CliRunner().invoke(bench_review_command, [*args, "--queued", "0.5", "--format", "json"])
    assert half.exit_code == 0, half.output
    assert 1 <= json.loads(half.output)["backends"]["sqlite"]["queued"] < 30
