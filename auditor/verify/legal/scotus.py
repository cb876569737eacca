"""Supreme Court citations against the complete SCDB index (Terms 1946-2023).

* The page starts a case: the claimed name must be that case (else *misattributed*, naming
  both) and the year its decision year (else *wrong_year*).
* The page starts no case but lies inside one's span (between two first pages of a U.S.
  Reports volume the index holds completely): *nonexistent* — no case begins there.
* Anything the index cannot place — a volume it lacks, a volume whose cases are not all
  indexed yet (Terms 2016+), a page past the volume's last first page (orders, in-chambers
  opinions), a non-first page in S. Ct. / L. Ed. (SCDB's parallel cites have known errors) —
  is left to the caller: ``None``, never a contradiction.

>>> from knowledge_graphs.scotus import scotus_index
>>> v = check_scotus("Bell Atlantic Corp. v. Twombly", 556, "U.S.", 662, 2009, scotus_index())
>>> v.outcome, v.reason
('contradicted', 'misattributed')
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from auditor.memo import IdentityCache
from auditor.verify.legal.names import party_keys, same_case
from knowledge_graphs.scotus import SOURCE, ScotusCase, ScotusIndex, reporter_key

SCOTUS_REPORTERS = frozenset({"us", "sct", "led", "led2d", "uslexis"})


@dataclass
class ScotusVerdict:
    outcome: str  # verified | contradicted | unverified
    reason: str
    detail: str
    cases: list[ScotusCase] = field(default_factory=list)

    def case_dict(self) -> dict[str, Any] | None:
        if not self.cases:
            return None
        c = self.cases[0]
        return {
            "name": c.name,
            "citation": c.cite,
            "parallel": [x for x in (c.us, c.sct, c.led, c.lexis) if x and x != c.cite],
            "decided": c.decided.isoformat(),
            "docket": c.dockets,
            "scdb_id": c.id,
            "source": SOURCE,
        }


def describe(c: ScotusCase) -> str:
    return f"{title(c.name)} ({c.cite}, decided {c.decided.isoformat()})"


def title(name: str) -> str:
    """SCDB captions are in capitals: "BROWN et al. v. BOARD OF EDUCATION" → "Brown et al. v. Board Of Education"."""
    words = (w if not w.isupper() or len(w) <= 1 else w.capitalize() for w in name.split())
    return " ".join(w.lower() if w.lower() in {"et", "al.", "al", "of", "the", "and"} else w
                    for w in words)  # fmt: skip


def check_scotus(
    name: str | None, volume: int, reporter: str, page: int, year: int | None, ix: ScotusIndex
) -> ScotusVerdict | None:
    """The verdict on one full citation, or ``None`` when the index cannot speak to it."""
    rk = reporter_key(reporter)
    if rk == "uslexis":
        hit = ix.by_lexis(f"{volume} U.S. LEXIS {page}")
        return _at_start(name, year, [hit], f"{volume} U.S. LEXIS {page}", ix) if hit else None
    if rk not in SCOTUS_REPORTERS or not ix.has_volume(reporter, volume):
        return None
    cite = f"{volume} {reporter} {page}"
    exact = ix.starting_at(reporter, volume, page)
    if exact:
        return _at_start(name, year, exact, cite, ix)
    if rk == "us" and name and not ix.us_complete(volume):
        return _unknown_name(name, volume, cite, ix)  # a recent volume: the name can speak
    if rk != "us" or not ix.us_complete(volume) or ix.after_last(reporter, volume, page):
        return None  # not provable: only the U.S. Reports spans of complete volumes are
    holder = ix.containing(reporter, volume, page)
    where = (
        f"page {page} lies inside {describe(holder)}"
        if holder
        else f"page {page} comes before the volume's first case"
    )
    if name and holder and same_case(name, holder.name, holder.aliases):
        elsewhere, also = [], f"; {title(holder.name)} begins at {holder.cite}"
    else:
        elsewhere = named_elsewhere(name, ix, exclude=holder) if name else []
        also = f"; {name} is {describe(elsewhere[0])}" if elsewhere else ""
    return ScotusVerdict(
        "contradicted",
        "nonexistent",
        f"no Supreme Court case begins at {cite}: {where}{also}",
        [holder] if holder else elsewhere[:1],
    )


def _unknown_name(name: str, volume: int, cite: str, ix: ScotusIndex) -> ScotusVerdict | None:
    """A U.S. Reports volume whose cases SCDB lists without every first page (recent terms):
    a page cannot be proved empty, but a name can be proved unknown. SCDB lists every
    decision of its terms, so a name that shares no party word with any case decided while
    the volume was being filled (a month either side), and that no case of the index bears,
    names no Supreme Court case."""
    span = ix.us_dates.get(volume)
    keys = party_keys(name)
    if span is None or not keys or " v" not in f" {name.lower()}":
        return None
    lo, hi = span[0] - timedelta(days=31), span[1] + timedelta(days=31)
    by_word = party_word_index(ix)
    for k in keys:
        if any(lo <= ix.cases[i].decided <= hi for i in by_word.get(k, ())):
            return None  # a case of that time shares a party: leave it to the reviewer
    if named_elsewhere(name, ix, limit=1):
        return None
    return ScotusVerdict(
        "contradicted",
        "nonexistent",
        f"no Supreme Court case named {name} exists: SCDB lists every decision of the "
        f"{lo.year}–{hi.year} period of volume {volume} and none shares a party with it "
        f"({cite} starts no case in the index)",
        [],
    )


def _at_start(
    name: str | None, year: int | None, exact: list[ScotusCase], cite: str, ix: ScotusIndex
) -> ScotusVerdict:
    match = [c for c in exact if name is None or same_case(name, c.name, c.aliases)]
    if not match:
        elsewhere = named_elsewhere(name or "", ix, exclude=exact[0])
        also = f"; {name} is {describe(elsewhere[0])}" if elsewhere else ""
        return ScotusVerdict(
            "contradicted",
            "misattributed",
            f"{cite} is {describe(exact[0])}, not {name}{also}",
            exact[:1] + elsewhere[:1],
        )
    case = match[0]
    if year is not None and all(c.year != year for c in match):
        return ScotusVerdict(
            "contradicted",
            "wrong_year",
            f"{title(case.name)} ({cite}) was decided on {case.decided.isoformat()}, not in {year}",
            [case],
        )
    how = "citation, case name and year" if name and year else "citation"
    return ScotusVerdict("verified", "in_index", f"{how} match {describe(case)} in SCDB", [case])


def named_elsewhere(
    name: str, ix: ScotusIndex, exclude: ScotusCase | None = None, limit: int = 3
) -> list[ScotusCase]:
    """Cases of the index the name can denote (rarest distinctive word first)."""
    keys = party_keys(name)
    if not keys or " v" not in f" {name.lower()}":
        return []
    by_word = party_word_index(ix)
    pools = sorted((by_word.get(k, ()) for k in keys), key=len)
    if not pools or not pools[0]:
        return []
    out = []
    for i in pools[0]:
        c = ix.cases[i]
        if c is not exclude and same_case(name, c.name, c.aliases):
            out.append(c)
            if len(out) >= limit:
                break
    return out


_WORDS: IdentityCache[dict[str, tuple[int, ...]]] = IdentityCache()


def party_word_index(ix: ScotusIndex) -> dict[str, tuple[int, ...]]:
    """Distinctive party word → cases whose name (or a docket's name) holds it; built once."""

    def build() -> dict[str, tuple[int, ...]]:
        acc: dict[str, list[int]] = {}
        for i, c in enumerate(ix.cases):
            for w in set().union(*(party_keys(n) for n in (c.name, *c.aliases))):
                acc.setdefault(w, []).append(i)
        return {w: tuple(v) for w, v in acc.items()}

    return _WORDS.get((ix,), build)


__all__ = ["ScotusVerdict", "check_scotus", "describe", "named_elsewhere", "title"]
