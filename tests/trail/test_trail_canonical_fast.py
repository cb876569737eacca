"""The fast RFC 8785 path of ``canonical_json`` gives the ``rfc8785`` library's bytes exactly.

Every trail hash of format version 2 depends on it, so the property runs over arbitrary JSON
values: nested objects with any (including astral and control) characters in keys and
strings, integers at and beyond the ±(2^53 - 1) limit, floats of every magnitude, and the
values a stored audit holds (dates, UUIDs, sets, integer keys).
"""

from __future__ import annotations

import json
import uuid
from datetime import UTC, date, datetime

import pytest
import rfc8785
from hypothesis import given, settings
from hypothesis import strategies as st

from auditor.errors import DataError
from trail.canonical import _v1, canonical_json, canonical_json_of_text, field_digests

_SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**53) + 1, max_value=2**53 - 1)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.integers(-(10**17), 10**17).map(float)  # integral floats around 2^53 and 1e16
    | st.text()
)
_JSON = st.recursive(
    _SCALARS,
    lambda inner: st.lists(inner, max_size=6) | st.dictionaries(st.text(), inner, max_size=6),
    max_leaves=40,
)


def _reference(value: object) -> bytes:
    return rfc8785.dumps(json.loads(_v1(value)))


@settings(max_examples=1000, deadline=None)
@given(_JSON)
def test_fast_path_equals_the_library(value: object) -> None:
    try:
        expected = _reference(value)
    except (ValueError, rfc8785.CanonicalizationError):
        with pytest.raises(DataError):
            canonical_json(value)
        return
    assert canonical_json(value) == expected


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(st.integers(-1000, 1000), st.integers(-9, 9), max_size=12))
def test_integer_keys_sort_as_strings(value: dict[int, int]) -> None:
    assert canonical_json(value) == _reference(value)


@pytest.mark.parametrize(
    "value",
    [
        {"a": 3.0, "b": -0.0, "c": 1e21, "d": 1e-7, "e": 1e16, "f": 0.00001, "g": 123.0},
        {"a": 9007199254740992.0, "b": -9007199254740993.0, "c": 9999999999999998.0},
        {"\U0001f600": 1, "\ue000": 2, "z": 3},  # astral vs high-BMP key order differs
        {"k": "text with 1.0, 2e5 and 12345678901234567 in it"},
        [2**53 - 1, -(2**53) + 1, 1.5, "\x00\x1f\x7f\u2028"],
        {"when": datetime(2026, 12, 4, 1, 2, 3, tzinfo=UTC), "day": date(2025, 1, 15)},
        {"id": uuid.UUID(int=7), "tags": {"b", "a"}},
    ],
)
def test_edge_values(value: object) -> None:
    assert canonical_json(value) == _reference(value)


def test_out_of_domain_values_are_refused() -> None:
    for bad in (2**53, float("nan"), "\ud800"):
        with pytest.raises(DataError):
            canonical_json({"x": bad})


_KEYED = st.recursive(
    _SCALARS,
    lambda inner: (
        st.lists(inner, max_size=6)
        | st.dictionaries(st.text() | st.integers(-20, 20), inner, max_size=6)
    ),
    max_leaves=40,
)


@settings(max_examples=500, deadline=None)
@given(_KEYED)
def test_canonical_json_of_a_format_1_text_is_that_of_its_value(value: object) -> None:
    """What ``prepare`` relies on to hash the result from the JSON it was parsed from."""
    try:
        text = canonical_json(value, version=1)  # what canonical_result parses the result from
        expected = canonical_json(json.loads(text))
    except (ValueError, DataError):
        return
    assert canonical_json_of_text(text) == expected
    assert canonical_json_of_text(text, version=1) == canonical_json(json.loads(text), version=1)
    value_digests = field_digests({"result": json.loads(text)})
    assert field_digests({"result": json.loads(text)}, json_texts={"result": text}) == (
        value_digests
    )
