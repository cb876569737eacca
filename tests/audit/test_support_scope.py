"""A supported claim's span is the value it certifies, not the sentence around it: a wrong
value beside a right one in the same sentence is never shown as covered by "supported"."""

from __future__ import annotations

from auditor import audit


def _by_verdict(text: str, domain: str, as_of: str) -> dict[str, list[str]]:
    r = audit(text, domain=domain, as_of=as_of)
    out: dict[str, list[str]] = {}
    for c in r.claims:
        out.setdefault(c.verdict, []).append(text[c.start : c.end])
    return out


def test_list_items_are_scoped_one_by_one() -> None:
    text = (
        "Adding the conservation buffer gives effective requirements of **7% CET1**, "
        "**8.5% Tier 1** and 10% total capital."
    )
    got = _by_verdict(text, "finance", "2025-08-01")
    assert got["supported"] == ["7% CET1", "8.5% Tier 1"]
    # the contradiction keeps the whole clause: the conflict may lie in any slot
    assert got["contradicted"] == [text]


def test_a_right_level_is_not_stretched_over_a_wrong_move_size() -> None:
    text = (
        "On July 26, 2023, the FOMC raised the federal funds target range by 50 basis points, "
        "to 5-1/4 to 5-1/2 percent."
    )
    got = _by_verdict(text, "finance", "2025-09-01")
    assert got["supported"] == ["5-1/4 to 5-1/2 percent"]
    assert "50 basis points" in got["contradicted"][0]


def test_a_right_direction_folds_into_the_misstated_decision() -> None:
    text = (
        "Yesterday (December 18, 2024), the Federal Reserve lowered the target range for the "
        "federal funds rate by 25 basis points, to 4.50%–4.75%."
    )
    r = audit(text, domain="finance", as_of="2024-12-19")
    assert [c.verdict for c in r.claims] == ["contradicted"]
    assert any(e.get("role") == "consistent_part" for e in r.claims[0].evidence)


def test_a_date_valued_support_is_its_date() -> None:
    text = (
        "The Markets in Crypto-Assets Regulation (MiCA), which came into full effect on "
        "December 30, 2024, and the Digital Operational Resilience Act (DORA), which became "
        "applicable as of January 17, 2025."
    )
    got = _by_verdict(text, "finance", "2025-06-01")
    assert got["supported"] == ["on December 30, 2024", "as of January 17, 2025"]


def test_an_overruling_support_is_its_clause() -> None:
    text = (
        "In West Coast Hotel Co. v. Parrish, 300 U.S. 379 (1936), the Court upheld Washington's "
        "minimum wage for women and expressly overruled Adkins v. Children's Hospital."
    )
    r = audit(text, domain="legal", as_of="2025-09-01")
    over = [c for c in r.claims if c.predicate == "overruledBy"]
    assert [c.verdict for c in over] == ["supported"]
    assert "300 U.S. 379" not in text[over[0].start : over[0].end]
    assert text[over[0].start : over[0].end].startswith("the Court upheld")
