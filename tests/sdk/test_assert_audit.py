"""``kgaudit.testing.assert_audit``: pass, and a readable failure listing the evidence."""

from __future__ import annotations

import pytest

from kgaudit import audited
from kgaudit.testing import assert_audit

from .conftest import AS_OF, MEDICAL_BAD, MEDICAL_OK


def test_a_correct_answer_passes_and_returns_the_result(real_auditor) -> None:
    result = assert_audit(MEDICAL_OK, domain="medical", as_of=AS_OF, auditor=real_auditor)
    assert result.counts["supported"] == 1


def test_a_contradiction_fails_with_claim_and_evidence(real_auditor) -> None:
    with pytest.raises(AssertionError) as info:
        assert_audit(MEDICAL_BAD, domain="medical", as_of=AS_OF, auditor=real_auditor)
    msg = str(info.value)
    assert "FER 100.0% is above the allowed 0.0%" in msg
    assert "1. 'Without a prescription" in msg and "rule MED-DOSE-MAX" in msg
    assert "evidence: Ibuprofen maxDose 1,200 mg per day" in msg
    assert "source: " in msg and "<https://" in msg


def test_max_fer_and_min_supported(real_auditor) -> None:
    both = f"{MEDICAL_OK} {MEDICAL_BAD}"
    assert_audit(both, domain="medical", max_fer=0.5, as_of=AS_OF, auditor=real_auditor)
    with pytest.raises(AssertionError, match=r"above the allowed 49\.0%"):
        assert_audit(both, domain="medical", max_fer=0.49, as_of=AS_OF, auditor=real_auditor)
    unverifiable = "Ibuprofen is an NSAID."
    assert_audit(unverifiable, domain="medical", as_of=AS_OF, auditor=real_auditor)
    with pytest.raises(AssertionError, match="0 supported claim"):
        assert_audit(
            unverifiable, domain="medical", min_supported=1, as_of=AS_OF, auditor=real_auditor
        )


def test_an_audit_already_made_is_checked_as_is(real_auditor) -> None:
    out = audited(domain="medical", as_of=AS_OF, auditor=real_auditor)(lambda: MEDICAL_BAD)()
    with pytest.raises(AssertionError, match="MED-DOSE-MAX"):
        assert_audit(out)
    with pytest.raises(AssertionError):
        assert_audit(out.audit.to_dict())
    with pytest.raises(ValueError, match="max_fer"):
        assert_audit(out, max_fer=5)
