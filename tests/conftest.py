"""Shared fixtures: the shipped graphs and rule packs are loaded once per test session."""

from __future__ import annotations

import os

# Triton picks interpreter or compiler at its first import: the kernel tests run on CPU.
os.environ.setdefault("TRITON_INTERPRET", "1")

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci", max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile(
    "dev", max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))


@pytest.fixture(scope="session")
def kb():
    from knowledge_graphs import load_graphs

    return load_graphs()


@pytest.fixture(scope="session")
def ruleset():
    from rules.loader import load_rules

    return load_rules()


@pytest.fixture(scope="session")
def auditor_obj(kb, ruleset):
    from auditor.pipeline import Auditor

    return Auditor(kb, ruleset)
