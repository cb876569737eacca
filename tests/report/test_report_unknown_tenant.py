"""A tenant the trail does not know is named as such, apart from an empty period."""

from __future__ import annotations

import pytest

from services.report import build_report
from services.report.data import NoAudits, UnknownTenant


def test_unknown_tenant_is_named(report_trail, today: str) -> None:
    with pytest.raises(UnknownTenant) as info:
        build_report(report_trail, start=today, end=today, tenant="defualt")
    message = str(info.value)
    assert message.startswith("unknown tenant 'defualt': the audit trail has no such tenant")
    assert "known tenants: default, other" in message


def test_known_tenant_with_an_empty_period_says_no_audits(report_trail) -> None:
    with pytest.raises(NoAudits, match="no audits were recorded from 2001-01-01") as info:
        build_report(report_trail, start="2001-01-01", end="2001-01-31", tenant="other")
    assert not isinstance(info.value, UnknownTenant)
