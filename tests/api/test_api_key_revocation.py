"""Revocation takes effect at once in the revoking process, even with the key cache on."""

from __future__ import annotations

from typing import Any

import pytest

from services.api.keys import KeyStore


@pytest.fixture
def store(trail: Any) -> KeyStore:
    return KeyStore(trail, cache_s=3600.0)


def test_a_cached_key_is_refused_right_after_revoke(store: KeyStore) -> None:
    info, token = store.create(tenant="acme", role="viewer")
    assert store.authenticate(token) is not None and store.cached(token) is not None
    assert store.revoke(info["id"])
    assert store.cached(token) is None and store.authenticate(token) is None


def test_a_check_in_flight_during_revoke_does_not_cache_the_key(
    store: KeyStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A lookup that read the key before the revoke committed must not put it in the cache
    after the revoke cleared it (it would then work for the cache's lifetime)."""
    info, token = store.create(tenant="acme", role="viewer")
    import services.api.keys as keys_module

    real = keys_module.hmac.compare_digest
    calls = []

    def revoke_meanwhile(a: str, b: str) -> bool:
        if not calls:
            calls.append(1)
            store.revoke(info["id"])  # commits between this lookup's read and its cache write
        return real(a, b)

    monkeypatch.setattr(keys_module.hmac, "compare_digest", revoke_meanwhile)
    store.authenticate(token)  # read before the revoke: may still answer, once
    assert store.cached(token) is None
    assert store.authenticate(token) is None
