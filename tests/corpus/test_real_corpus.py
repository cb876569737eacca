"""The real-phrasing corpus (``tests/corpus/real``): sentences written by others.

* every record is well formed (URL, retrieval date, domain, claims whose spans are exact
  substrings, labels from the allowed set; ids unique);
* no contradiction on correct text: a record whose claims carry no ``false`` label must yield
  no contradicted claim or citation, and a contradiction on a record with ``false`` labels must
  be explained by one of them. Records the auditor still gets wrong are listed in
  ``known_false_alarms.yaml`` with the reason; a listed record that stops alarming fails the
  test too, so the list stays true.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from measure.evaluation.corpus import judge, load_records, schema_problems

ROOT = Path(__file__).resolve().parent / "real"
RECORDS = load_records(ROOT)
KNOWN: dict[str, str] = (
    yaml.safe_load((ROOT / "known_false_alarms.yaml").read_text(encoding="utf-8")) or {}
).get("known_false_alarms") or {}


def test_the_corpus_covers_every_domain() -> None:
    for domain in ("medical", "finance", "legal"):
        assert sum(r["domain"] == domain for r in RECORDS) >= 50, domain


def test_records_are_well_formed() -> None:
    problems = [p for r in RECORDS for p in schema_problems(r)]
    assert not problems, problems[:10]
    ids = [r["id"] for r in RECORDS]
    assert len(ids) == len(set(ids))
    assert all(r["id"].startswith(r["domain"][:3] + "-") for r in RECORDS)


def test_known_false_alarms_name_real_records() -> None:
    ids = {r["id"] for r in RECORDS}
    assert set(KNOWN) <= ids, set(KNOWN) - ids
    assert all(isinstance(v, str) and len(v) > 20 for v in KNOWN.values())


@pytest.fixture(scope="module")
def outcomes(auditor_obj):  # type: ignore[no-untyped-def]
    return {
        r["id"]: judge(
            r,
            auditor_obj.audit(
                r["text"], domain=r["domain"], as_of=r.get("as_of") or r["retrieved"]
            ),
        )
        for r in RECORDS
    }


@pytest.mark.parametrize("rid", [r["id"] for r in RECORDS])
def test_no_contradiction_on_correct_text(rid, outcomes) -> None:  # type: ignore[no-untyped-def]
    alarms = outcomes[rid].false_alarms
    if rid in KNOWN:
        assert alarms, f"{rid} no longer alarms: remove it from known_false_alarms.yaml"
        return
    assert not alarms, alarms
