"""A request is checked once: the route builds a ``CheckedRequest`` and the trail stores it
as it is (same digest, same metadata), without checking it again under other limits."""

from __future__ import annotations

from dataclasses import replace

import pytest

from auditor.errors import UsageError
from trail import Trail
from trail.append import check_request, prepare
from trail.metadata import MetadataLimits
from trail.testing import fake_result

REQUEST = {"domain": "medical", "as_of": "2026-01-15", "citations": None}


def test_the_checked_digest_is_the_one_prepare_computes() -> None:
    checked = check_request("some text", REQUEST, {"model": "m", "n": [1, 2]})
    plain = prepare(
        fake_result("some text"), text="some text", metadata={"model": "m", "n": [1, 2]},
        request=REQUEST,
    )  # fmt: skip
    given = prepare(fake_result("some text"), text="some text", checked=checked)
    assert plain.request_sha256 == given.request_sha256 == checked.digest
    assert given.metadata == plain.metadata and given.request == plain.request
    assert given.digests == plain.digests


def test_a_checked_request_is_not_checked_again_under_the_default_limits(trail: Trail) -> None:
    """100 KB of metadata checked under a raised limit is stored by a trail whose own limits
    are the defaults (the request's checker owns the limits)."""
    meta = {"blob": "x" * 100_000}
    with pytest.raises(UsageError, match="metadata"):
        check_request("t", REQUEST, meta)  # the default limit refuses it
    checked = check_request(
        "t", REQUEST, meta, replace(MetadataLimits.defaults(), max_bytes=200_000)
    )
    rec, stored = trail.record_and_get(fake_result("t"), text="t", checked=checked)
    assert rec.created and stored["metadata"] == meta
    assert stored["request_sha256"] == checked.digest and trail.verify().ok


def test_text_is_checked_unless_the_caller_did() -> None:
    with pytest.raises(UsageError, match="NUL"):
        check_request("a\x00b", REQUEST, None)
    assert check_request("a\x00b", REQUEST, None, text_checked=True).text == "a\x00b"


def test_a_checked_request_must_be_the_audited_text() -> None:
    checked = check_request("one text", REQUEST, None)
    with pytest.raises(UsageError, match="differs"):
        prepare(fake_result("another"), text="another", checked=checked)


def test_a_bare_trail_uses_the_settings_defaults(trail: Trail) -> None:
    """One source (issue 29): a trail built without settings applies ``Settings``' defaults,
    read from the settings' fields rather than restated in the trail."""
    from auditor.settings import Settings

    fields = Settings.model_fields
    assert (
        trail.metadata_limits
        == MetadataLimits.defaults()
        == MetadataLimits(
            max_bytes=fields["max_metadata_bytes"].default,
            max_depth=fields["max_metadata_depth"].default,
            max_keys=fields["max_metadata_keys"].default,
        )
    )
    with pytest.raises(UsageError, match="the limit is 65,536"):
        trail.record(fake_result("t"), text="t", metadata={"blob": "x" * 70_000})
