"""kill -9 of a serving ``kgaudit serve`` (master and workers) mid-load loses no acknowledged audit.

A short version of ``kgaudit bench crash`` (issue 27's drill is 8 clients x 200 audits, five
rounds; its figures are in docs/trail.md). Two rounds on one trail, so the second starts on
the trail the first crash left behind: every audit that got a 2xx is found by its id, and the
full chain and Merkle tree verify.
"""

from __future__ import annotations

import pytest

from measure.bench.crash import crash_drill

pytestmark = pytest.mark.slow


def test_kill_minus_nine_loses_no_acknowledged_audit(db_url: str) -> None:
    rounds = crash_drill(db_url, clients=8, per_client=15, workers=2, repeats=2, seed=7)
    for r in rounds:
        assert r["acked"] > 0, r  # the kill came mid-load, after some acknowledgements
        assert r["acked_missing"] == 0, r
        assert r["verify_ok"], r["first_broken"]
        assert r["stored_events"] >= sum(x["acked"] for x in rounds[: rounds.index(r) + 1])
