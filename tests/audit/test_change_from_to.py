"""Issue 24: "from X to Y" after a change verb is a change (an old value, then a new one), not a
range. The old reading took "cut its deposit rate from 4.00% to 3.75% in June 2024" for the
range 3.75–4.00 % and contradicted a true sentence (ECB press release, 6 June 2024: the deposit
facility rate lowered to 3.75 % from 12 June 2024). A changed maximum is read the same way:
"The maximum daily dose of citalopram has been reduced from 60 mg to 40 mg" states the current
maximum (citalopram label, 5.2: "should not be given at doses above 40 mg/day") and a former one,
which the graph cannot judge. Real phrasing: tests/corpus/real/medical.jsonl, med-062.
"""

from __future__ import annotations

import pytest

from auditor.extract.quantities import find_quantities


def _values(text: str) -> list[tuple[float, float | None, str]]:
    return [(q.value, q.value_max, q.unit) for q in find_quantities(text)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("cut its deposit rate from 4.00% to 3.75% in June", [(4.0, None, "%"), (3.75, None, "%")]),
        ("raised the rate from 5.25% to 5.5%", [(5.25, None, "%"), (5.5, None, "%")]),
        ("lowered from 4 to 3.75%", [(4.0, None, "%"), (3.75, None, "%")]),
        ("reduced from 60mg to 40mg", [(60.0, None, "mg"), (40.0, None, "mg")]),
        # ranges stay ranges: no change verb and rising, or said to range
        ("doses from 50 to 200 mg a day", [(50.0, 200.0, "mg")]),
        ("it ranges from 2 to 4 mg", [(2.0, 4.0, "mg")]),
        ("taken 50 to 200 mg", [(50.0, 200.0, "mg")]),
    ],
)
def test_change_or_range(text, expected):
    got = [(v, v2, u) for v, v2, u in _values(text)]
    assert [(v, v2) for v, v2, _ in got] == [(v, v2) for v, v2, _ in expected], got


def _verdicts(auditor_obj, text, domain, as_of="2025-01-01", predicate=None):
    res = auditor_obj.audit(text, domain=domain, as_of=as_of)
    return [(c.object, c.verdict) for c in res.claims if predicate in (None, c.predicate)]


def test_ecb_cut_from_to_is_supported(auditor_obj):
    got = _verdicts(auditor_obj, "The ECB cut its deposit rate from 4.00% to 3.75% in June 2024.",
                    "finance")  # fmt: skip
    assert ("3.75%", "supported") in got, got
    assert not [v for _, v in got if v == "contradicted"], got


def test_ecb_cut_to_a_wrong_level_is_contradicted(auditor_obj):
    got = _verdicts(auditor_obj, "The ECB cut its deposit rate from 4.00% to 3.50% in June 2024.",
                    "finance")  # fmt: skip
    assert ("3.5%", "contradicted") in got, got


def test_changed_maximum_new_value_is_the_maximum(auditor_obj):
    text = (
        "The maximum daily dose of citalopram has been reduced from 60mg to 40mg owing to the "
        "risk of dose-dependent QT interval prolongation."
    )
    res = auditor_obj.audit(text, domain="medical", as_of="2025-01-01")
    by = {c.object: c for c in res.claims if c.predicate == "maxDose"}
    assert by["40 mg"].verdict == "supported"
    assert by["60 mg"].verdict == "unverifiable"
    assert "former maximum" in (by["60 mg"].reason or "")


def test_changed_maximum_active_voice(auditor_obj):
    got = _verdicts(auditor_obj, "In 2011 the FDA lowered the maximum dose of citalopram from 60 "
                    "to 40 mg per day.", "medical", predicate="maxDose")  # fmt: skip
    assert ("40 mg per day", "supported") in got, got
    assert not [v for _, v in got if v == "contradicted"], got


def test_changed_maximum_to_a_wrong_value_is_not_supported(auditor_obj):
    got = _verdicts(auditor_obj, "The maximum daily dose of citalopram was reduced from 80 mg to "
                    "60 mg in 2011.", "medical", predicate="maxDose")  # fmt: skip
    assert ("60 mg", "supported") not in got, got
