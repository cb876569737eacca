"""The U.S. Supreme Court citation index: every SCDB case of Terms 1946-2023, compact.

Not RDF: ~9,300 rows loaded from ``data/scotus/cases.tsv`` (built by
``knowledge_graphs/builders/scotus.py``, provenance in its header) into first-page tables per
reporter volume, so a citation is resolved by one dictionary lookup and a bisection.

>>> ix = scotus_index()
>>> [c.name for c in ix.starting_at("U.S.", 347, 483)]
['BROWN et al. v. BOARD OF EDUCATION OF TOPEKA et al.']
>>> ix.containing("U.S.", 347, 490).name
'BROWN et al. v. BOARD OF EDUCATION OF TOPEKA et al.'
"""

from __future__ import annotations

import bisect
import itertools
import re
from dataclasses import dataclass, field
from datetime import date
from functools import lru_cache
from pathlib import Path

DATA = Path(__file__).resolve().parent / "data" / "scotus" / "cases.tsv"
SOURCE = (
    "Supreme Court Database, Version 2024 Release 01 (Spaeth, Epstein et al.), "
    "http://supremecourtdatabase.org — via rlevy820/scotus-research@8448acfd"
)
# SCDB fills U.S. Reports citations late: from Term 2016 on, some cases have none yet, so a
# page in a volume from there on may belong to a case the index cannot place.
FIRST_INCOMPLETE_TERM = 2016
_CITE = re.compile(r"^(\d+)\s+(.+?)\s+(\d+)$")
_KEY = re.compile(r"[\s.]+")


def reporter_key(reporter: str) -> str:
    """``"L. Ed. 2d"`` → ``"led2d"``: the spelling-insensitive key of a reporter."""
    return _KEY.sub("", reporter).lower()


# The early Court's nominative reporters, reprinted as U.S. Reports volumes 1-90 with the
# same pages: (first U.S. volume - 1, last nominative volume) per reporter key. 1 Dall. holds
# only Pennsylvania cases, so Dallas starts at volume 2 here.
_NOMINATIVE = {
    "dall": (0, 2, 4),
    "cranch": (4, 1, 9),
    "wheat": (13, 1, 12),
    "pet": (25, 1, 16),
    "how": (41, 1, 24),
    "black": (65, 1, 2),
    "wall": (67, 1, 23),
}


NOMINATIVE_REPORTERS = frozenset(_NOMINATIVE)  # reporter keys: "wheat", "cranch", ...


def us_volume(volume: int, reporter: str) -> int | None:
    """The U.S. Reports volume of a nominative-reporter volume ("6 Wheat." → 19), or None.

    >>> us_volume(6, "Wheat."), us_volume(1, "Cranch"), us_volume(16, "Wall."), us_volume(30, "Wall.")
    (19, 5, 83, None)
    """
    span = _NOMINATIVE.get(reporter_key(reporter))
    if span is None or not span[1] <= volume <= span[2]:
        return None
    return volume + span[0]


@dataclass(frozen=True, slots=True)
class ScotusCase:
    id: str  # SCDB caseId
    decided: date
    us: str
    sct: str
    led: str
    lexis: str
    dockets: str
    name: str
    aliases: tuple[str, ...]

    @property
    def year(self) -> int:
        return self.decided.year

    @property
    def cite(self) -> str:
        """The best citation: U.S. Reports, else S. Ct., else Lexis."""
        return self.us or self.sct or self.lexis


@dataclass
class ScotusIndex:
    cases: list[ScotusCase] = field(default_factory=list)
    # (reporter key, volume) -> sorted first pages, and the cases starting at each
    _pages: dict[tuple[str, int], list[int]] = field(default_factory=dict)
    _at: dict[tuple[str, int, int], list[int]] = field(default_factory=dict)
    lexis: dict[str, int] = field(default_factory=dict)
    us_dates: dict[int, tuple[date, date]] = field(default_factory=dict)
    # (reporter key, volume) -> last first page before the volume's orders section
    _provable: dict[tuple[str, int], int] = field(default_factory=dict)
    first_us_volume: int = 0
    complete_us_through: int = 0  # last U.S. volume whose every case has its U.S. cite

    @classmethod
    def load(cls, path: Path = DATA) -> ScotusIndex:
        ix = cls()
        with path.open(encoding="utf-8") as fh:
            rows = [ln.rstrip("\n").split("\t") for ln in fh if not ln.startswith("#")]
        incomplete_from: date | None = None
        for r in rows[1:]:
            case = ScotusCase(
                r[0], date.fromisoformat(r[1]), *r[2:8], tuple(a for a in r[8].split(" | ") if a)
            )
            i = len(ix.cases)
            ix.cases.append(case)
            for cite in (case.us, case.sct, case.led):
                if m := _CITE.match(cite):
                    key = (reporter_key(m.group(2)), int(m.group(1)), int(m.group(3)))
                    ix._at.setdefault(key, []).append(i)
            ix.lexis[case.lexis.lower()] = i
            if not case.us and int(case.id[:4]) >= FIRST_INCOMPLETE_TERM:
                incomplete_from = min(incomplete_from or case.decided, case.decided)
        for rep, vol, page in ix._at:
            ix._pages.setdefault((rep, vol), []).append(page)
        for key, pages in ix._pages.items():
            pages.sort()
            ix._provable[key] = _before_orders(pages)
        for c in ix.cases:
            if m := _CITE.match(c.us):
                v = int(m.group(1))
                lo, hi = ix.us_dates.get(v, (c.decided, c.decided))
                ix.us_dates[v] = (min(lo, c.decided), max(hi, c.decided))
        vols = sorted(ix.us_dates)
        ix.first_us_volume = vols[0] if vols else 0
        cut = incomplete_from or date.max
        ix.complete_us_through = max(
            (v for v in vols if ix.us_dates[v][1] < cut), default=ix.first_us_volume - 1
        )
        return ix

    def starting_at(self, reporter: str, volume: int, page: int) -> list[ScotusCase]:
        """Cases whose first page in ``reporter`` is exactly ``volume``/``page``."""
        return [self.cases[i] for i in self._at.get((reporter_key(reporter), volume, page), [])]

    def has_volume(self, reporter: str, volume: int) -> bool:
        return (reporter_key(reporter), volume) in self._pages

    def containing(self, reporter: str, volume: int, page: int) -> ScotusCase | None:
        """The case whose span holds ``page``: the greatest first page ≤ it in that volume,
        when a later case in the volume bounds the span (the last case's end is unknown)."""
        pages = self._pages.get((reporter_key(reporter), volume))
        if not pages:
            return None
        k = bisect.bisect_right(pages, page) - 1
        if k < 0 or (k == len(pages) - 1 and pages[k] != page):
            return None
        return self.cases[self._at[(reporter_key(reporter), volume, pages[k])][0]]

    def after_last(self, reporter: str, volume: int, page: int) -> bool:
        """The page lies past the last first page of the volume's opinions (orders,
        memorandum decisions, in-chambers opinions and the last case's own pages live there,
        not all in SCDB: nothing can be proved about it)."""
        last = self._provable.get((reporter_key(reporter), volume))
        return last is not None and page > last

    def us_complete(self, volume: int) -> bool:
        """Every case of this U.S. Reports volume is in the index with its first page."""
        return self.first_us_volume <= volume <= self.complete_us_through

    def by_lexis(self, cite: str) -> ScotusCase | None:
        i = self.lexis.get(" ".join(cite.split()).lower())
        return None if i is None else self.cases[i]


ORDERS_FROM_PAGE = 700
ORDERS_GAP = 50


def _before_orders(pages: list[int]) -> int:
    """The last first page before a volume's orders section. Older volumes print some per
    curiam decisions among the orders (SCDB lists them, but not the orders around them):
    the first jump of ``ORDERS_GAP`` pages or more past page ``ORDERS_FROM_PAGE`` is taken as
    its start — a long last opinion only makes that opinion's tail unprovable."""
    for a, b in itertools.pairwise(pages):
        if b >= ORDERS_FROM_PAGE and b - a >= ORDERS_GAP:
            return a
    return pages[-1]


@lru_cache(maxsize=1)
def scotus_index() -> ScotusIndex:
    """The shipped index, loaded once per process."""
    return ScotusIndex.load()


__all__ = ["SOURCE", "ScotusCase", "ScotusIndex", "reporter_key", "scotus_index"]
