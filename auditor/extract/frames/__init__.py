"""Claim frames: per predicate family, the trigger, subject, value and qualifiers of a claim,
bound through the document's structure (see :mod:`auditor.extract.layout`).

``FRAME_BUILDERS`` maps ``relation:object kind`` of a rule to the frame builder that makes its
claims (instead of the generic builders of :mod:`auditor.extract.claims`)."""

from auditor.extract.frames.authority import authority_claims
from auditor.extract.frames.capital import capital_claims
from auditor.extract.frames.dispensing import rx_claims, schedule_claims
from auditor.extract.frames.dose import dose_claims
from auditor.extract.frames.effective import effective_claims
from auditor.extract.frames.moves import move_claims
from auditor.extract.frames.rates import rate_claims
from auditor.extract.frames.thresholds import threshold_claims
from auditor.extract.frames.washout import washout_claims

FRAME_BUILDERS = {
    "maxDose:quantity": dose_claims,
    "policyRate:quantity": rate_claims,
    "policyRate:none": move_claims,
    "rateEffective:none": effective_claims,
    "minimumRatio:quantity": capital_claims,
    "reportingThreshold:quantity": threshold_claims,
    "overruledBy:status": authority_claims,
    "washoutBefore:none": washout_claims,
    "controlledSchedule:none": schedule_claims,
    "prescriptionStatus:none": rx_claims,
}


def frame_builder(relation: str | None, kind: str):  # type: ignore[no-untyped-def]
    return FRAME_BUILDERS.get(f"{relation}:{kind}")


__all__ = ["FRAME_BUILDERS", "capital_claims", "dose_claims", "frame_builder", "rate_claims"]
