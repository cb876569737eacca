"""Back-references: short forms, Id., supra and parallel citations point to an earlier citation
and share its verdict (the idea of eyecite's ``resolve_citations``, done over our own
extraction so the audit stays fast).

* ``parallel`` — the citation right before it in the same chain ("550 U.S. 544, 127 S. Ct.
  1955"); when SCDB records a different cite in that reporter for the verified case the
  parallel is *unverified* (``parallel_mismatch``: SCDB's parallels have known errors), never
  contradicted.
* ``short`` — "Twombly, 550 U.S. at 556": the latest full citation in the same volume and
  reporter that starts at or before the pinpoint, whose name fits.
* ``id`` — the citation just before. ``supra`` — the latest full citation with that name.
  Neither writes a cite of its own: after a contradicted antecedent they are *unverified*
  (the error is reported once, on the antecedent); after a wrong year only, *verified*.

>>> from auditor.types import CitationCheck, CitationRef
>>> r = Resolver()
>>> full = CitationRef(0, 30, "Twombly, 550 U.S. 544", "case", 550, "U.S.", 544,
...                    case_name="Bell Atlantic Corp. v. Twombly")
>>> r.add(full, CitationCheck(full.text, 0, 30, "case", "verified", 1.0, "", reason="in_index"))
>>> short = CitationRef(40, 60, "Twombly, 550 U.S. at 556", "case", 550, "U.S.", 556,
...                     case_name="Twombly", short_form=True, form="short")
>>> r.shared(short).outcome, r.shared(short).resolved_to
('verified', 'Twombly, 550 U.S. 544')
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from auditor.types import CitationCheck, CitationRef
from auditor.verify.legal.names import same_case
from auditor.verify.legal.scotus import title
from knowledge_graphs.scotus import ScotusIndex, reporter_key

BACK_REFERENCES = frozenset({"short", "id", "supra", "parallel"})


@dataclass
class Resolver:
    """The citations seen so far in one text, in order."""

    seen: list[tuple[CitationRef, CitationCheck]] = field(default_factory=list)
    index: ScotusIndex | None = None  # page spans, to check a short form's pinpoint

    def add(self, ref: CitationRef, check: CitationCheck) -> None:
        self.seen.append((ref, check))

    def antecedent(self, ref: CitationRef) -> tuple[CitationRef, CitationCheck] | None:
        if not self.seen:
            return None
        if ref.form == "id":
            return self.seen[-1]
        if ref.form == "parallel":
            i = len(self.seen) - 1
            while i > 0 and self.seen[i][0].form == "parallel":
                i -= 1
            return self.seen[i]
        for i in range(len(self.seen) - 1, -1, -1):
            prior, _ = self.seen[i]
            if prior.form in BACK_REFERENCES - {"parallel"}:
                continue
            if ref.form == "supra" and prior.case_name and ref.case_name:
                if same_case(ref.case_name, prior.case_name):
                    return self.seen[i]
            elif ref.form == "short" and self._holds(prior, ref):
                return self.seen[i]
        return None

    def _pin_beyond(self, prior: CitationRef, ref: CitationRef) -> str | None:
        """Why a short form's pinpoint ("Terry, 392 U.S. at 130") cannot lie in its case: the
        page is past the start of the next case of a volume the index holds complete."""
        ix = self.index
        if (ix is None or ref.form != "short" or not ref.volume or not ref.page
                or reporter_key(ref.reporter or "") != "us" or not prior.page
                or not ix.us_complete(ref.volume)
                or ix.after_last("U.S.", ref.volume, ref.page)):  # fmt: skip
            return None
        holder = ix.containing("U.S.", ref.volume, ref.page)
        own = ix.containing("U.S.", ref.volume, prior.page)
        if holder is None or own is None or holder.us == own.us:
            return None
        return (f"page {ref.page} is not in the case cited at {own.us}: "
                f"{title(holder.name)} begins at {holder.us}")  # fmt: skip

    @staticmethod
    def _holds(prior: CitationRef, ref: CitationRef) -> bool:
        same_place = (
            prior.volume == ref.volume
            and reporter_key(prior.reporter or "") == reporter_key(ref.reporter or "")
            and (prior.page or 0) <= (ref.page or 0)
        )
        named_ok = (
            not ref.case_name or not prior.case_name or same_case(ref.case_name, prior.case_name)
        )
        return same_place and named_ok

    def shared(self, ref: CitationRef) -> CitationCheck | None:
        """The check of a back-reference: its antecedent's verdict, or ``None`` when no
        antecedent is found."""
        found = self.antecedent(ref)
        if found is None:
            return None
        prior, chk = found
        lead_text = chk.resolved_to or chk.text
        beyond = self._pin_beyond(prior, ref) if chk.outcome == "verified" else None
        if beyond is not None:
            return CitationCheck(ref.text, ref.start, ref.end, ref.kind, "contradicted", 0.0,
                                 beyond, ref.caller_supplied, reason="nonexistent",
                                 resolved_to=lead_text, case=chk.case)  # fmt: skip
        outcome, reason = chk.outcome, "resolved"
        detail = chk.detail if chk.reason == "resolved" else f"refers to {lead_text}: {chk.detail}"
        if ref.form != "parallel" and chk.reason == "wrong_year":
            # "Id. at 322" after a full cite with a wrong year: the case and page are real;
            # the year error belongs to the full citation, which is flagged on its own
            outcome = "verified"
            detail = f"refers to {lead_text} (a real case; its year is wrong there: {chk.detail})"
        elif ref.form in {"id", "supra"} and chk.outcome == "contradicted":
            # "Id. at 557" after a contradicted citation: it writes no cite of its own, so the
            # error is the antecedent's, reported there once; the Id. itself stays unchecked
            outcome = "unverified"
            detail = f"refers to {lead_text}, which is contradicted there: {chk.detail}"
        if ref.form == "parallel" and chk.outcome == "verified" and chk.case:
            recorded = _recorded_cite(chk.case, ref.reporter or "")
            mine = f"{ref.volume} {ref.reporter} {ref.page}"
            if recorded and _norm(recorded) != _norm(mine):
                outcome, reason = "unverified", "parallel_mismatch"
                detail = (
                    f"SCDB gives {recorded} as the {ref.reporter} citation of "
                    f"{chk.case['name']}, not {mine}; SCDB's parallel citations have known "
                    "errors, so this is left to a reviewer"
                )
        return CitationCheck(
            ref.text,
            ref.start,
            ref.end,
            ref.kind,
            outcome,
            chk.score if outcome == chk.outcome else (1.0 if outcome == "verified" else 0.6),
            detail,
            ref.caller_supplied,
            reason=reason,
            resolved_to=lead_text,
            case=chk.case,
        )


def _recorded_cite(case: dict[str, Any], reporter: str) -> str | None:
    want = reporter_key(reporter)
    for cite in (case.get("citation"), *case.get("parallel", [])):
        parts = str(cite or "").split()
        if len(parts) >= 3 and reporter_key(" ".join(parts[1:-1])) == want:
            return str(cite)
    return None


def _norm(cite: str) -> str:
    return reporter_key(cite)


__all__ = ["BACK_REFERENCES", "Resolver"]
