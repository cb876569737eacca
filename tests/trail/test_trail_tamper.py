"""Tampering with any stored field or row is detected, naming the first broken record."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from datetime import date, datetime, timedelta

import pytest
from sqlalchemy import delete, insert, select, update
from sqlalchemy.orm import Session

from trail import Trail
from trail.canonical import AUDIT_FIELDS, CLAIM_FIELDS, event_hash, record_hash
from trail.models import Audit, AuditClaim, TrailEvent, TrailHead
from trail.testing import fake_result

N = 5
TARGET = 3


@pytest.fixture
def chain(trail: Trail) -> dict[int, str]:
    """Five audits (seq 1..5) of two tenants; returns seq -> audit id."""
    ids = {}
    for i in range(1, N + 1):
        res = fake_result(verdicts=("supported", "contradicted", "unverifiable"))
        rec = trail.record(
            res,
            text=f"text number {i}",
            tenant="acme" if i % 2 else "beta",
            external_id=f"ext-{i}",
            metadata={"i": i},
            requester="r",
        )
        ids[rec.seq] = rec.id
    assert trail.verify().ok
    return ids


def _changed(value: object, python_type: type) -> object:
    if value is None:
        return {float: 0.5, int: 7, str: "forged"}.get(python_type, "forged")
    if isinstance(value, str):  # same length, so it fits the column
        return value[:-1] + ("0" if value[-1:] != "0" else "1") if value else "x"
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 1000
    if isinstance(value, float):
        return value + 0.125
    if isinstance(value, datetime):
        return value + timedelta(seconds=1)
    if isinstance(value, date):
        return value - timedelta(days=1)
    if isinstance(value, dict):
        return {**value, "forged": True}
    if isinstance(value, uuid.UUID):
        return uuid.uuid4()
    raise TypeError(type(value))


def _set(model: type, where: object, field: str) -> Callable[[Session], None]:
    def op(s: Session) -> None:
        current = s.execute(select(getattr(model, field)).where(where)).scalars().first()
        python_type = model.__table__.c[
            getattr(model, field).property.columns[0].name
        ].type.python_type
        new = (
            ("beta" if current == "acme" else "acme")
            if field == "tenant_id"
            else _changed(current, python_type)
        )  # tenant: move to another existing tenant
        s.execute(update(model).where(where).values({field: new}))

    return op


AUDIT_EDITABLE = [f for f in AUDIT_FIELDS if f != "id"]  # the id is pinned by foreign keys
EVENT_FIELDS = [
    "kind",
    "tenant_id",
    "created_at",
    "record_hash",
    "prev_hash",
    "hash",
    "hash_version",
]


def _delete_record(seq: int) -> Callable[[Session], None]:
    def op(s: Session) -> None:
        aid = s.execute(select(TrailEvent.audit_id).where(TrailEvent.seq == seq)).scalar_one()
        s.execute(delete(TrailEvent).where(TrailEvent.seq == seq))
        s.execute(delete(Audit).where(Audit.id == aid))

    return op


def _swap_events(a: int, b: int) -> Callable[[Session], None]:
    def op(s: Session) -> None:
        s.execute(update(TrailEvent).where(TrailEvent.seq == a).values(seq=-1))
        s.execute(update(TrailEvent).where(TrailEvent.seq == b).values(seq=a))
        s.execute(update(TrailEvent).where(TrailEvent.seq == -1).values(seq=b))

    return op


def _swap_texts(a: int, b: int) -> Callable[[Session], None]:
    def op(s: Session) -> None:
        ta = s.execute(select(Audit.text).where(Audit.seq == a)).scalar_one()
        tb = s.execute(select(Audit.text).where(Audit.seq == b)).scalar_one()
        s.execute(update(Audit).where(Audit.seq == a).values(text=tb))
        s.execute(update(Audit).where(Audit.seq == b).values(text=ta))

    return op


def _forged_audit_row(s: Session, seq: int) -> tuple[uuid.UUID, str]:
    """A self-consistent forged audit (no claims); returns its id and record hash."""
    src = s.execute(select(Audit).where(Audit.seq == 1)).scalar_one()
    row = {
        **{k: getattr(src, k) for k in AUDIT_FIELDS},
        "id": uuid.uuid4(),
        "seq": seq,
        "external_id": None,
        "text": "forged",
    }
    s.execute(insert(Audit), [row])
    return row["id"], record_hash(row, [])


def _insert_orphan(s: Session) -> None:
    _forged_audit_row(s, 100)


def _forge_event(*, position: int, valid_hash: bool, move_head: bool) -> Callable[[Session], None]:
    """Insert a forged audit + event at ``position`` (shifting later events up)."""

    def op(s: Session) -> None:
        last = s.execute(select(TrailEvent.seq).order_by(TrailEvent.seq.desc())).scalars().first()
        for seq in range(last, position - 1, -1):  # make room, as a careful forger would
            s.execute(update(TrailEvent).where(TrailEvent.seq == seq).values(seq=seq + 1))
            s.execute(update(Audit).where(Audit.seq == seq).values(seq=seq + 1))
        prev = s.execute(select(TrailEvent.hash).where(TrailEvent.seq == position - 1)).scalar_one()
        aid, rh = _forged_audit_row(s, position)
        model = s.execute(select(TrailEvent).where(TrailEvent.seq == 1)).scalar_one()
        fields = {
            "seq": position,
            "kind": model.kind,
            "audit_id": aid,
            "tenant_id": "acme",
            "created_at": model.created_at,
            "record_hash": rh,
            "prev_hash": prev,
        }
        h = event_hash(**fields) if valid_hash else "f" * 64
        s.execute(insert(TrailEvent), [{**fields, "hash": h}])
        if move_head:
            s.execute(update(TrailHead).values(seq=last + 1, hash=h))

    return op


def _delete_and_renumber(seq: int) -> Callable[[Session], None]:
    """Delete a record, close the gap, and rehash each moved event (keeping its link)."""

    def op(s: Session) -> None:
        _delete_record(seq)(s)
        last = s.execute(select(TrailEvent.seq).order_by(TrailEvent.seq.desc())).scalars().first()
        for old in range(seq + 1, last + 1):
            ev = s.execute(select(TrailEvent).where(TrailEvent.seq == old)).scalar_one()
            h = event_hash(
                seq=old - 1,
                kind=ev.kind,
                audit_id=ev.audit_id,
                tenant_id=ev.tenant_id,
                created_at=ev.created_at,
                record_hash=ev.record_hash,
                prev_hash=ev.prev_hash,
            )
            s.execute(update(TrailEvent).where(TrailEvent.seq == old).values(seq=old - 1, hash=h))
        s.execute(update(TrailHead).values(seq=last - 1, hash=h))

    return op


# (id, operation, expected code, expected seq of the first broken record); for record and
# event changes the report must also name the audit (see NAMED for moved records).
CASES: list[tuple[str, Callable[[Session], None], str, int]] = [
    *[
        (f"audit.{f}", _set(Audit, Audit.seq == TARGET, f), "record_altered", TARGET)
        for f in AUDIT_EDITABLE
        if f != "seq"
    ],
    ("audit.seq", _set(Audit, Audit.seq == TARGET, "seq"), "record_altered", TARGET),
    *[
        (f"claim.{f}", _set(AuditClaim, AuditClaim.idx == 1, f), "record_altered", 1)
        for f in CLAIM_FIELDS
    ],
    *[
        (f"event.{f}", _set(TrailEvent, TrailEvent.seq == TARGET, f), "event_altered", TARGET)
        for f in EVENT_FIELDS
    ],
    (
        "delete-claim",
        lambda s: s.execute(delete(AuditClaim).where(AuditClaim.idx == 2)),
        "record_altered",
        1,
    ),
    ("delete-record", _delete_record(TARGET), "missing_event", TARGET),
    ("delete-first", _delete_record(1), "missing_event", 1),
    ("delete-and-renumber", _delete_and_renumber(TARGET), "broken_link", TARGET),
    ("delete-last", _delete_record(N), "head_mismatch", N),
    ("reorder-events", _swap_events(2, 4), "event_altered", 2),
    ("reorder-texts", _swap_texts(2, 4), "record_altered", 2),
    ("insert-orphan-audit", _insert_orphan, "not_in_chain", 100),
    (
        "insert-bad-hash-at-end",
        _forge_event(position=N + 1, valid_hash=False, move_head=True),
        "event_altered",
        N + 1,
    ),
    (
        "insert-valid-at-end-head-untouched",
        _forge_event(position=N + 1, valid_hash=True, move_head=False),
        "head_mismatch",
        N + 1,
    ),
    (
        "insert-valid-in-middle",
        _forge_event(position=TARGET, valid_hash=True, move_head=True),
        "event_altered",
        TARGET + 1,
    ),
]


# cases where the broken position holds a record that was moved: original seq of that record
NAMED = {"reorder-events": 4, "insert-valid-in-middle": TARGET, "delete-and-renumber": TARGET + 1}


@pytest.mark.parametrize(("case", "op", "code", "seq"), CASES, ids=[c[0] for c in CASES])
def test_tampering_is_detected(
    trail: Trail,
    chain: dict[int, str],
    case: str,
    op: Callable[[Session], None],
    code: str,
    seq: int,
) -> None:
    with trail.session(write=True) as s:
        op(s)
    report = trail.verify()
    assert not report.ok
    first = report.first_broken
    assert (first["code"], first["seq"]) == (code, seq), report.problems
    if code in ("record_altered", "event_altered") and NAMED.get(case, seq) in chain:
        named = chain[NAMED.get(case, seq)]
        # the id is a field (withheld from other tenants by the API), never in the reason
        assert first["audit_id"] == named and named not in first["reason"]


def test_every_hashed_field_is_covered() -> None:
    ids = {c[0] for c in CASES}
    assert {f"audit.{f}" for f in AUDIT_EDITABLE} <= ids
    assert {f"claim.{f}" for f in CLAIM_FIELDS} <= ids
