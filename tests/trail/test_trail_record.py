"""Recording, reading, filtering and paginating audits (SQLite and PostgreSQL)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from auditor.errors import DataError, UsageError
from trail import Trail
from trail.testing import fake_result


def test_record_roundtrip_keeps_result_and_verifies(trail: Trail) -> None:
    res = fake_result("Ünïcode ✓ text — 0.1+0.2")
    res["fer"] = 0.1 + 0.2  # a float that only round-trips in shortest-repr form
    res["claims"][0]["evidence"] = [{"nested": {"b": 1, "a": [1.5, None, "é"]}}]
    rec = trail.record(
        res,
        text="Ünïcode ✓ text — 0.1+0.2",
        tenant="acme",
        metadata={"model": "m"},
        requester="tester",
    )
    assert rec.created and rec.seq == 1 and len(rec.hash) == 64
    got = trail.get(rec.id, tenant="acme")
    assert got is not None
    assert got["result"] == res
    assert got["text"] == "Ünïcode ✓ text — 0.1+0.2"
    assert got["hash"] == rec.hash and got["seq"] == 1
    assert got["metadata"] == {"model": "m"} and got["requester"] == "tester"
    assert got["counts"] == {"supported": 1, "contradicted": 1, "unverifiable": 0}
    assert got["created_at"].endswith("Z")
    report = trail.verify()
    assert report.ok and report.checked == 1 and report.head_hash == rec.hash


def test_other_tenant_sees_nothing(trail: Trail) -> None:
    rec = trail.record(fake_result(), text="t", tenant="acme", external_id="x1")
    assert trail.get(rec.id, tenant="other") is None
    assert trail.find_by_external_id("x1", tenant="other") is None
    assert trail.claims(rec.id, tenant="other") is None
    assert trail.list_audits(tenant="other") == ([], None)
    assert trail.get("not-a-uuid", tenant="acme") is None


def test_idempotent_on_external_id(trail: Trail) -> None:
    first = trail.record(fake_result(), text="t", tenant="acme", external_id="job-1")
    again = trail.record(fake_result(), text="t", tenant="acme", external_id="job-1")
    other = trail.record(fake_result(), text="t", tenant="beta", external_id="job-1")
    assert not again.created and (again.id, again.seq, again.hash) == (
        first.id,
        first.seq,
        first.hash,
    )
    assert other.created and other.seq == 2
    assert trail.count() == 2 and trail.verify().ok
    assert trail.find_by_external_id("job-1", tenant="acme")["id"] == first.id


def _seed(trail: Trail) -> list[str]:
    ids = []
    for i, (domain, verdicts, htype) in enumerate(
        [
            ("medical", ("supported",), None),
            ("medical", ("supported", "contradicted"), "numeric_mismatch"),
            ("finance", ("contradicted", "contradicted"), "fabricated_entity"),
            ("legal", ("unverifiable",), None),
            ("finance", ("supported", "supported", "supported", "contradicted"), "temporal"),
        ]
    ):
        res = fake_result(domain=domain, verdicts=verdicts, hallucination_type=htype)
        ids.append(trail.record(res, text=f"text {i}", tenant="acme").id)
    return ids


@pytest.mark.parametrize(
    ("filters", "expected"),
    [
        ({}, [4, 3, 2, 1, 0]),
        ({"domain": "finance"}, [4, 2]),
        ({"verdict": "contradicted"}, [4, 2, 1]),
        ({"verdict": "unverifiable"}, [3]),
        ({"hallucination_type": "fabricated_entity"}, [2]),
        ({"rule_id": "medical.rule_1"}, [1]),
        ({"fer_min": 0.5}, [2, 1]),
        ({"fer_max": 0.3}, [4, 0]),
        ({"fer_min": 0.2, "fer_max": 0.6}, [4, 1]),
        ({"domain": "medical", "verdict": "contradicted"}, [1]),
    ],
    ids=lambda v: str(v) if isinstance(v, dict) else None,
)
def test_list_filters(trail: Trail, filters: dict, expected: list[int]) -> None:
    ids = _seed(trail)
    items, cursor = trail.list_audits(tenant="acme", **filters)
    assert [it["id"] for it in items] == [ids[i] for i in expected]
    assert cursor is None


def test_date_range_and_cursor_pagination(trail: Trail) -> None:
    ids = _seed(trail)
    now = datetime.now(UTC)
    assert len(trail.list_audits(tenant="acme", start=now - timedelta(hours=1))[0]) == 5
    assert trail.list_audits(tenant="acme", start=now + timedelta(hours=1))[0] == []
    assert trail.list_audits(tenant="acme", end=now - timedelta(hours=1))[0] == []
    assert len(trail.list_audits(tenant="acme", end=now.date().isoformat())[0]) == 5
    seen, cursor, pages = [], None, 0
    while True:
        items, cursor = trail.list_audits(tenant="acme", limit=2, cursor=cursor)
        seen += [it["id"] for it in items]
        pages += 1
        if cursor is None:
            break
    assert seen == ids[::-1] and pages == 3
    with pytest.raises(UsageError, match="cursor"):
        trail.list_audits(tenant="acme", cursor="bogus!")


def test_iter_audits_streams_everything_in_order(trail: Trail) -> None:
    ids = _seed(trail)
    trail.record(fake_result(), text="other", tenant="beta")
    got = list(trail.iter_audits(tenant="acme"))
    assert [a["id"] for a in got] == ids and all("result" in a for a in got)
    assert len(list(trail.iter_audits())) == 6
    assert [a["domain"] for a in trail.iter_audits(domain="legal")] == ["legal"]


def test_claims_of_an_audit(trail: Trail) -> None:
    rec = trail.record(
        fake_result(verdicts=("supported", "contradicted", "unverifiable")), text="t", tenant="acme"
    )
    claims = trail.claims(rec.id, tenant="acme")
    assert [c["idx"] for c in claims] == [0, 1, 2]
    assert [c["verdict"] for c in trail.claims(rec.id, tenant="acme", verdict="contradicted")] == [
        "contradicted"
    ]


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"tenant": "bad tenant"}, UsageError),
        ({"tenant": ""}, UsageError),
        ({"text": "nul\x00byte"}, UsageError),
        ({"text": "lone \ud800 surrogate"}, UsageError),
        ({"external_id": "x" * 300}, UsageError),
        ({"result": {"domain": "medical"}}, DataError),
        ({"result": {**fake_result(), "claims": [{"verdict": "maybe"}]}}, DataError),
        ({"result": {**fake_result(), "fer": float("nan")}}, DataError),
        ({"result": {**fake_result(), "kg_version": "k" * 129}}, DataError),
    ],
    ids=[
        "tenant-space",
        "tenant-empty",
        "nul",
        "surrogate",
        "long-external-id",
        "missing-keys",
        "bad-verdict",
        "nan",
        "long-version",
    ],
)
def test_record_rejects_bad_input(trail: Trail, kwargs: dict, error: type) -> None:
    args = {"result": fake_result(), "text": "t", **kwargs}
    with pytest.raises(error):
        trail.record(args.pop("result"), **args)
    assert trail.count() == 0


def test_unmigrated_database_is_a_usage_error(tmp_path) -> None:
    t = Trail(f"sqlite:///{tmp_path / 'empty.db'}")
    with pytest.raises(UsageError, match="no schema"):
        t.record(fake_result(), text="t")
    t.migrate()
    t.migrate()  # idempotent
    assert t.record(fake_result(), text="t").seq == 1


def test_long_claim_fields_fit_their_columns(trail: Trail) -> None:
    res = fake_result()
    res["claims"][0]["subject"] = "s" * 2000
    res["claims"][0]["rule_id"] = "r" * 2000
    rec = trail.record(res, text="t", tenant="acme")
    assert trail.get(rec.id, tenant="acme")["result"]["claims"][0]["subject"] == "s" * 2000
    assert trail.verify().ok


def test_append_many_is_one_transaction_with_the_same_chain(trail: Trail) -> None:
    from trail import append, append_many, prepare

    first = append(trail, prepare(fake_result(), text="stored", tenant="acme", external_id="old"))[
        0
    ]
    batch = [
        prepare(
            fake_result(), text=f"t{i}", tenant="acme" if i % 2 else "beta", external_id=f"b{i}"
        )
        for i in range(5)
    ]
    batch += [
        prepare(fake_result(), text="again", tenant="acme", external_id="old"),
        prepare(fake_result(), text="t1", tenant="acme", external_id="b1"),
        prepare(fake_result(), text="no id", tenant="acme"),
    ]
    out = append_many(trail, batch)
    created = [rec.seq for rec, full in out if rec.created]
    assert created == [2, 3, 4, 5, 6, 7]
    assert out[5][0].id == first.id and not out[5][0].created and out[5][1] is None
    assert out[6][0].id == out[1][0].id and not out[6][0].created  # the first in the list wins
    assert all(full == trail.get(rec.id, tenant=full["tenant"]) for rec, full in out if full)
    assert trail.verify().ok and trail.count() == 7
    assert append_many(trail, []) == []


def test_append_many_is_all_or_nothing(trail: Trail) -> None:
    from trail import append_many, prepare

    good = prepare(fake_result(), text="ok", tenant="acme")
    bad = prepare({**fake_result(), "domain": "d" * 40}, text="bad", tenant="acme")
    with pytest.raises(DataError, match="domain"):
        append_many(trail, [good, bad])
    assert trail.count() == 0 and trail.verify().ok
