"""Review decisions are chain events: verified, exported, and every kind of tampering caught."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy import delete, insert, update
from sqlalchemy.orm import Session

from auditor.errors import UsageError
from trail import Trail, db
from trail.export import export_trail
from trail.models import Review, TrailEvent
from trail.reviews import Decision, append_reviews, review_summary, reviews_of
from trail.testing import fake_result

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def reviewed(trail: Trail) -> tuple[str, list[dict]]:
    """An audit (seq 1), three decisions on it (seq 2-4), another audit (seq 5)."""
    rec = trail.record(fake_result(verdicts=("supported", "contradicted")), text="t", tenant="acme")
    out = append_reviews(
        trail,
        [
            Decision(rec.id, "claim:1", "confirm"),
            Decision(rec.id, "claim:0", "overturn", "the label says otherwise"),
            Decision(rec.id, "claim:1", "note", "asked the pharmacist"),
        ],
        tenant="acme",
        reviewer="key:abc",
    )
    trail.record(fake_result(), text="after", tenant="acme")
    assert trail.verify().ok and trail.verify().checked == 5
    return rec.id, out


def test_decisions_are_chained_with_the_stored_verdict(
    trail: Trail, reviewed: tuple[str, list[dict]]
) -> None:
    aid, out = reviewed
    assert [r["seq"] for r in out] == [2, 3, 4]
    assert [r["verdict"] for r in out] == ["contradicted", "supported", "contradicted"]
    import uuid

    decided = reviews_of(trail, [uuid.UUID(aid)], tenant="acme")[uuid.UUID(aid)]
    stored = trail.get(aid, tenant="acme")
    summary = review_summary(stored["result"], decided, risk_threshold=0.5)
    assert summary["counts"] == {"open": 0, "confirmed": 1, "overturned": 1}
    assert reviews_of(trail, [uuid.UUID(aid)], tenant="beta")[uuid.UUID(aid)] == []


@pytest.mark.parametrize(
    ("decision", "message"),
    [
        (Decision("x", "claim:0", "confirm"), "no audit"),
        (Decision("AID", "claim:7", "confirm"), "no item"),
        (Decision("AID", "claim:0", "approve"), "invalid"),
        (Decision("AID", "claim:0", "overturn"), "needs a reason"),
        (Decision("AID", "claim:0", "note", "   "), "needs a reason"),
    ],
    ids=["unknown-audit", "unknown-item", "bad-decision", "overturn-no-reason", "blank-note"],
)
def test_malformed_decisions_append_nothing(
    trail: Trail, reviewed: tuple[str, list[dict]], decision: Decision, message: str
) -> None:
    aid, _ = reviewed
    d = Decision(
        aid if decision.audit_id == "AID" else decision.audit_id,
        decision.item,
        decision.decision,
        decision.reason,
    )
    with pytest.raises(UsageError, match=message):
        append_reviews(trail, [Decision(aid, "claim:1", "confirm"), d], tenant="acme", reviewer="r")
    assert trail.verify().checked == 5  # all or nothing


def test_another_tenant_cannot_review(trail: Trail, reviewed: tuple[str, list[dict]]) -> None:
    aid, _ = reviewed
    with pytest.raises(UsageError, match="no audit"):
        append_reviews(trail, [Decision(aid, "claim:0", "confirm")], tenant="beta", reviewer="r")


TAMPER: dict[str, tuple[Callable[[Session], object], str]] = {
    "decision": (
        lambda s: s.execute(update(Review).where(Review.seq == 3).values(decision="confirm")),
        "review_altered",
    ),
    "reason": (
        lambda s: s.execute(update(Review).where(Review.seq == 3).values(reason="fine")),
        "review_altered",
    ),
    "reviewer": (
        lambda s: s.execute(update(Review).where(Review.seq == 3).values(reviewer="key:zzz")),
        "review_altered",
    ),
    "deleted": (lambda s: s.execute(delete(Review).where(Review.seq == 3)), "missing_review"),
    "event-deleted": (
        lambda s: s.execute(delete(TrailEvent).where(TrailEvent.seq == 3)),
        "missing_event",
    ),
}


@pytest.mark.parametrize("how", list(TAMPER), ids=list(TAMPER))
def test_tampering_a_decision_is_detected(
    trail: Trail, reviewed: tuple[str, list[dict]], how: str
) -> None:
    change, code = TAMPER[how]
    with trail.session(write=True) as s:
        change(s)
    report = trail.verify()
    assert not report.ok
    assert report.first_broken["code"] == code and report.first_broken["seq"] == 3


def test_a_forged_decision_is_detected(trail: Trail, reviewed: tuple[str, list[dict]]) -> None:
    import uuid

    aid, _ = reviewed
    with trail.session(write=True) as s:
        s.execute(
            insert(Review).values(
                seq=99,
                audit_id=uuid.UUID(aid),
                tenant_id="acme",
                created_at=datetime.now(UTC),
                reviewer="key:abc",
                item="claim:1",
                decision="overturn",
                verdict="contradicted",
                reason="forged",
            )
        )
    report = trail.verify()
    assert not report.ok and report.first_broken["code"] == "review_not_in_chain"


def test_export_and_the_standalone_verifier_cover_decisions(
    trail: Trail, reviewed: tuple[str, list[dict]], tmp_path: Path
) -> None:
    out = tmp_path / "trail.jsonl"
    assert export_trail(trail, out) == 5
    script = [sys.executable, str(REPO / "docs" / "trail_verify.py"), str(out)]
    ok = subprocess.run(script, capture_output=True, text=True, check=False)
    assert ok.returncode == 0 and ok.stdout.startswith("ok: 5 records")
    lines = out.read_text(encoding="utf-8").splitlines()
    lines[2] = lines[2].replace("the label says otherwise", "the label agrees")
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    bad = subprocess.run(script, capture_output=True, text=True, check=False)
    assert bad.returncode == 1 and "seq 3" in bad.stdout


def test_downgrade_below_0005_is_refused_with_decisions(
    trail: Trail, reviewed: tuple[str, list[dict]]
) -> None:
    with pytest.raises(RuntimeError, match="review events"):
        db.downgrade(trail.engine, "0004")
    assert trail.verify().ok
