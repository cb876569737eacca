"""Issue 24: ways real answers call a combination safe, or report a question about it. Labels:
ibuprofen with warfarin — the warfarin label lists NSAIDs among drugs that increase the risk of
bleeding (a recorded interaction), so saying the pair is safe is contradicted, and saying to
avoid it is supported.

* "You can safely take ibuprofen while on warfarin": "while on" joins the two parties (it was
  read as a contrast, and no claim came out), and the permission is in the first drug's clause.
* "If you're on warfarin, ibuprofen is a safe choice for pain" was SUPPORTED (read as saying the
  drugs interact) — a wrong support; a clause that calls a pair safe in words no denial pattern
  reads is left unverifiable.
* "People on warfarin often ask whether ibuprofen is okay" reports a question: no verdict.
"""

from __future__ import annotations

import pytest


def _pair(auditor_obj, text):
    res = auditor_obj.audit(text, domain="medical", as_of="2025-09-01")
    return [(c.verdict, c.reason) for c in res.claims if c.predicate == "interactsWith"]


@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        ("You can safely take ibuprofen while on warfarin.", "contradicted"),
        ("It is safe to take ibuprofen while taking warfarin.", "contradicted"),
        ("You can take ibuprofen while on warfarin.", "contradicted"),
        ("If you're on warfarin, ibuprofen is a safe choice for pain.", "contradicted"),
        ("Don't take ibuprofen while on warfarin.", "supported"),
        ("Avoid ibuprofen while you're taking warfarin.", "supported"),
        ("You cannot take ibuprofen while on warfarin.", "supported"),
        ("If you're on warfarin, ibuprofen is the safe pick for pain.", "unverifiable"),
        ("People on warfarin often ask whether ibuprofen is okay.", "unverifiable"),
        ("Patients often wonder if they can take ibuprofen with warfarin.", "unverifiable"),
    ],
)
def test_safety_forms(auditor_obj, text, verdict):
    got = _pair(auditor_obj, text)
    assert got and {v for v, _ in got} == {verdict}, got


def test_a_test_that_asks_whether_is_still_relied_on(auditor_obj):
    # "under the three-part test of Lemon ..., asking whether the display ...": the test asks,
    # nobody reports a question (Lemon was abandoned in Kennedy v. Bremerton, 2022)
    res = auditor_obj.audit(
        "Courts evaluate government religious displays under the three-part test of *Lemon v. "
        "Kurtzman*, 403 U.S. 602, 612–13 (1971), asking whether the display has a secular "
        "purpose.",
        domain="legal",
        as_of="2025-09-01",
    )
    assert [c.verdict for c in res.claims if c.predicate == "overruledBy"] == ["contradicted"]
