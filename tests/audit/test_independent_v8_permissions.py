"""Issue 24: permissions to combine two drugs, the class of the v6/v8 misses med-118 and
med-130, in wordings of our own.

* a condition naming one drug and a main clause that allows the other ("If you use
  apomorphine, ondansetron is not a problem as long as you space them", "When you take
  phenelzine, you can take pseudoephedrine") is one claim about the pair;
* "you can take X with Y" permits the combination (before: read as saying they interact, and
  *supported* against an MAOI contraindication);
* "is not a problem" / "isn't an issue" deny, like "is fine";
* a main clause that says something else ("If you take warfarin, ibuprofen works well for
  pain") makes no claim of the pair, and a restriction still affirms.
"""

from __future__ import annotations

import pytest


def _audit(auditor_obj, text, as_of="2026-03-01"):
    return auditor_obj.audit(text, domain="medical", as_of=as_of)


def _pairs(res):
    return {
        (frozenset((c.subject, c.object)), c.verdict)
        for c in res.claims
        if c.predicate == "interactsWith"
    }


def _pair(a, b):
    return frozenset((f"drug:{a}", f"drug:{b}"))


@pytest.mark.parametrize(
    ("text", "a", "b"),
    [
        ("You can take pseudoephedrine with phenelzine.", "pseudoephedrine", "phenelzine"),
        (
            "When you take phenelzine, you can take pseudoephedrine for a cold.",
            "phenelzine",
            "pseudoephedrine",
        ),
        (
            "If you take sildenafil, you can take nitroglycerin for chest pain.",
            "sildenafil",
            "nitroglycerin",
        ),
        (
            "If you only use a nitroglycerin spray now and then for chest pain, it's fine to take "
            "sildenafil on days you haven't used the spray.",
            "nitroglycerin spray",
            "sildenafil",
        ),
    ],
)
def test_a_permission_to_combine_contradicts_a_contraindication(auditor_obj, text, a, b):
    res = _audit(auditor_obj, text)
    got = [c for c in res.claims if c.predicate == "interactsWith"]
    assert [c.verdict for c in got] == ["contradicted"], [(c.subject, c.reason) for c in got]
    assert got[0].qualifiers.get("asserts") == "absence"


def test_not_a_problem_with_spacing_is_a_mitigated_permission(auditor_obj):
    text = ("If you use apomorphine (an injection for Parkinson's disease), ondansetron is not a "
            "problem as long as you space the two a couple of hours apart.")  # fmt: skip
    res = _audit(auditor_obj, text)
    got = [c for c in res.claims if c.predicate == "interactsWith"]
    assert [(c.verdict, c.qualifiers.get("asserts")) for c in got] == [
        ("contradicted", "mitigated")
    ]
    assert "contraindicates" in (got[0].reason or "")


def test_spacing_a_manageable_interaction_is_not_judged(auditor_obj):
    text = (
        "If you take levothyroxine, calcium is fine as long as you separate the doses by 4 hours."
    )
    res = _audit(auditor_obj, text)
    assert not [c for c in res.claims if c.verdict == "contradicted"]


@pytest.mark.parametrize(
    "text",
    [
        "If you take warfarin, ibuprofen works well for pain.",
        "You can take ibuprofen with food.",
        "If you take phenelzine, pseudoephedrine can raise your blood pressure dangerously.",
    ],
)
def test_no_permission_no_denial(auditor_obj, text):
    res = _audit(auditor_obj, text)
    assert not [
        c
        for c in res.claims
        if c.predicate == "interactsWith"
        and c.qualifiers.get("asserts") in {"absence", "mitigated"}
    ]
    assert not [c for c in res.claims if c.verdict == "contradicted"]


@pytest.mark.parametrize(
    "text",
    [
        "You cannot take pseudoephedrine with phenelzine.",
        "You can take ibuprofen with warfarin only under close monitoring.",
    ],
)
def test_a_ban_or_a_restriction_still_affirms(auditor_obj, text):
    res = _audit(auditor_obj, text)
    got = [c for c in res.claims if c.predicate == "interactsWith"]
    assert got and all(c.verdict == "supported" for c in got)
