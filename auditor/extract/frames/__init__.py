"""Claim frames: per predicate family, the trigger, subject, value and qualifiers of a claim,
bound through the document's structure (see :mod:`auditor.extract.layout`)."""

from auditor.extract.frames.dose import dose_claims

FRAME_BUILDERS = {"maxDose": dose_claims}

__all__ = ["FRAME_BUILDERS", "dose_claims"]
