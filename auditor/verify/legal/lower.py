"""Offline proofs that a citation cannot be real, without any case list.

* **Edition dates**: a decision of year Y cannot be reported in an edition that began after
  Y + 1 or ended before Y − 1 (reporters-db dates with the project's sourced overrides in
  ``curated/legal/reporter_dates.yaml``; U.S. Reports volumes 1-90 are the renumbered
  nominative reporters and are exempt).
* **U.S. Reports volume ↔ year**: from the dated cases around the volume (the SCDB index for
  Terms 1946+, the curated cases before).
* **Court existence**: the court named in the parenthetical did not exist in that year
  (courts-db dates with sourced overrides in ``curated/legal/courts.yaml``).
* **Court ↔ reporter**: F.3d / F.4th / F. App'x report the courts of appeals, F. Supp. the
  district courts; a district court in F.3d or a circuit in F. Supp. is impossible.

Each proof returns ``(reason code, sentence)`` or ``None``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from auditor.types import CitationRef
from auditor.verify.legal.index import LegalIndex
from knowledge_graphs.scotus import reporter_key
from knowledge_graphs.store import KnowledgeBase

APPEALS_ONLY = frozenset({"f3d", "f4th", "fappx"})
DISTRICT_ONLY = frozenset({"fsupp", "fsupp2d", "fsupp3d"})
_CIRCUIT = re.compile(r"^ca\d+$|^cadc$|^cafc$")
SLACK_YEARS = 1  # decided late in one year, published early the next; series overlap


def impossible(ref: CitationRef, kb: KnowledgeBase, ix: LegalIndex) -> tuple[str, str] | None:
    """Why the citation cannot exist as written, or ``None`` when nothing proves it."""
    return _edition(ref, kb, ix) or _us_volume(ref, ix) or _court(ref, kb)


def _edition(ref: CitationRef, kb: KnowledgeBase, ix: LegalIndex) -> tuple[str, str] | None:
    if not ref.year:
        return None
    rid = ix.reporters.get(reporter_key(ref.reporter or ""))
    rep = kb.entity(rid) if rid else None
    if rep is None:
        return None
    start, end = rep.attrs.get("start"), rep.attrs.get("end")
    nominative = rep.attrs.get("nominative_through_volume")
    if nominative is not None and (ref.volume or 0) <= int(nominative):
        return None
    if start and ref.year < int(start[:4]) - SLACK_YEARS:
        return "impossible_date", (
            f"{ref.reporter} began in {start[:4]}; no {ref.year} decision can be reported in it"
        )
    if end and ref.year > int(end[:4]) + SLACK_YEARS:
        return "impossible_date", (
            f"{ref.reporter} ended in {end[:4]}; no {ref.year} decision can be reported in it"
        )
    return None


def _us_volume(ref: CitationRef, ix: LegalIndex) -> tuple[str, str] | None:
    if reporter_key(ref.reporter or "") != "us" or not ref.volume or not ref.year:
        return None
    dates = ix.scotus.us_dates.get(ref.volume)
    if dates is not None and ix.scotus.us_complete(ref.volume):
        lo, hi = dates[0].year, dates[1].year
    else:
        bounds = ix.us_year_bounds(ref.volume)
        if bounds is None:
            return None
        lo, hi = bounds[0] + 1, bounds[1] - 1
    if lo - SLACK_YEARS <= ref.year <= hi + SLACK_YEARS:
        return None
    span = f"{lo}" if lo == hi else f"{lo}–{hi}"
    return "impossible_date", (
        f"volume {ref.volume} of the U.S. Reports holds decisions of {span}, not {ref.year}"
    )


def _court(ref: CitationRef, kb: KnowledgeBase) -> tuple[str, str] | None:
    if not ref.court or ref.court == "scotus":
        return None
    court = kb.entity(f"court:{ref.court}")
    if court is None:
        return None
    if ref.year:
        spans = kb.facts_about(court.id, "courtExists")
        if spans and not any(
            (f.valid_from is None or f.valid_from.year <= ref.year)
            and (f.valid_to is None or ref.year <= f.valid_to.year)
            for f in spans
        ):
            first = min((d for f in spans if (d := f.valid_from) is not None), default=None)
            src = next((f.source.document for f in spans if f.valid_from == first), "")
            return "impossible_date", (
                f"the {court.label} did not exist in {ref.year} (it exists from {first}; {src})"
            )
    rk = reporter_key(ref.reporter or "")
    circuit = bool(_CIRCUIT.match(ref.court))
    district = _is_district(court.attrs.get("citation_string") or "", court.attrs)
    if rk in APPEALS_ONLY and district:
        return "court_reporter_mismatch", (
            f"{ref.reporter} reports the federal courts of appeals, not the {court.label}"
        )
    if rk in DISTRICT_ONLY and circuit:
        return "court_reporter_mismatch", (
            f"{ref.reporter} reports the federal district courts, not the {court.label}"
        )
    return None


_DISTRICT = re.compile(r"^(?:[NSEWMC]\.\s?)?D\.\s?[A-Z]")


def _is_district(cite: str, attrs: Mapping[str, object]) -> bool:
    """A federal district court ("S.D.N.Y.", "D. Mass.", "D.D.C."), not a bankruptcy court."""
    return (
        attrs.get("system") == "federal"
        and bool(_DISTRICT.match(cite))
        and "Bankr" not in cite
        and "Cir." not in cite  # "D.C. Cir." is a court of appeals
    )


__all__ = ["impossible"]
