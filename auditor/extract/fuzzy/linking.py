"""Fuzzy entity linking: the fallback for mentions the exact linker misses.

"acetominophen", "Miranda v. Arizna", "Brown v. Bd. of Ed." are linked by character n-gram
TF-IDF similarity (:mod:`auditor.extract.fuzzy.index`) between a window of the text and every
label and alias of the graph, in canonical form (:mod:`auditor.extract.fuzzy.text`).

* **Candidates.** Only words the exact linker left alone are looked at, and only around an
  *anchor*: a word of ≥ 4 letters that is not a word of any known name nor a function word,
  or a word written as an abbreviation ("Bd.", "Dep't"). Around each anchor a bounded set of
  windows is tried (every window of up to four words holding it, and the capitalised run it
  belongs to), so the work is linear in the length of the text; all windows of a text go to
  the index in one batch.
* **Neighbours, then acceptance.** The nearest names of each window by TF-IDF cosine are
  re-scored by edit similarity (1 − optimal-string-alignment distance / length, which tells a
  typo from a different name far better than n-gram overlap). A window is linked to its best
  name when that similarity is at least the calibrated threshold ``tau`` of the domain, beats
  the best name of any *other* entity by ``margin``, and keeps every digit of the name
  ("Basel III" never becomes "Basel II"; "Directive 2015/849" never ".../848"). Thresholds
  are calibrated on generated misspellings, abbreviations and case variants
  (:mod:`measure.evaluation.fuzzy_linking`) and stored in ``calibration.json``.
* **Longer names.** A window may grow towards a longer name it resembles, over exact
  mentions ("the ECB deposyt rate" holds the exact "the ECB"); such a fuzzy mention replaces
  the exact ones inside it (:func:`merge`), never the reverse.
* **Types.** A candidate is only of an entity type that a rule whose cue occurs in the
  sentence can use (as subject or object); in a sentence without any cue, only of a type that
  can be a rule's subject. So "interacts with warfrin" can only become a drug.
* **Record.** The mention carries ``fuzzy_score``; claims built on it carry it as
  ``fuzzy_link_score`` and get a ``fuzzy_link`` evidence item
  (:func:`auditor.extract.fuzzy.evidence.annotate_claims`).
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import orjson

from auditor.extract.context import CompiledRule, compile_rule
from auditor.extract.fuzzy.allowed_types import AllowedTypes, rule_words
from auditor.extract.fuzzy.distance import osa_similarity
from auditor.extract.fuzzy.index import FuzzyIndex
from auditor.extract.fuzzy.text import (
    Token,
    Window,
    anchor_regions,
    digits,
    segments,
    stretched,
    tokenize,
    windows,
)
from auditor.extract.linker import Linker
from auditor.memo import IdentityCache
from auditor.types import Mention
from knowledge_graphs.store import KnowledgeBase
from rules.schema import Rule

CALIBRATION_PATH = Path(__file__).with_name("calibration.json")
COSINE_MIN = 0.3  # TF-IDF cosine a window needs before its neighbours are re-scored
RERANK = 12  # nearest names (by cosine) re-scored by edit similarity
COSINE_SPREAD = 0.35  # ... those within this much of the nearest one
MAX_STRETCH = 6  # extra words a window may grow by towards a longer name
STRETCH_TO = 3  # ... one of its nearest names (by cosine)
_INDEX_MEMO: dict[str, FuzzyIndex] = {}
_MEMO_LOCK = threading.Lock()


@dataclass(frozen=True)
class FuzzyParams:
    """Acceptance thresholds per domain (``default`` for any other)."""

    tau: dict[str, float] = field(default_factory=lambda: {"default": 0.85})
    margin: dict[str, float] = field(default_factory=lambda: {"default": 0.03})
    version: str = "uncalibrated"

    def for_domain(self, domain: str) -> tuple[float, float]:
        t = self.tau.get(domain, self.tau.get("default", 0.85))
        return t, self.margin.get(domain, self.margin.get("default", 0.03))

    @classmethod
    def load(cls, path: Path = CALIBRATION_PATH) -> FuzzyParams:
        if not path.exists():
            return cls()
        doc = orjson.loads(path.read_bytes())
        return cls(dict(doc["tau"]), dict(doc["margin"]), str(doc["version"]))


@dataclass(frozen=True, slots=True)
class Scored:
    """A candidate window with its short list of (edit similarity, key index), best first."""

    window: Window
    ranked: list[tuple[float, int]]


class FuzzyLinker:
    """Fallback linker over ``kb``; the index is loaded (or built and cached) on first need."""

    def __init__(
        self, kb: KnowledgeBase, *, cache_dir: Path | None = None, params: FuzzyParams | None = None
    ) -> None:
        self.kb = kb
        self.cache_dir = cache_dir
        self.params = params or FuzzyParams.load()
        self._index: FuzzyIndex | None = None
        self._known: frozenset[str] | None = None
        self._rule_words: IdentityCache[frozenset[str]] = IdentityCache()
        self._lock = threading.Lock()

    def index(self) -> FuzzyIndex:
        """The TF-IDF index (loaded from the cache, or built and cached, on first use)."""
        with self._lock:
            if self._index is None:
                self._index = _shared_index(self.kb, self.cache_dir or _default_cache_dir())
            return self._index

    def known_words(self) -> frozenset[str]:
        """Words that never start a fuzzy look (a small cache file; the index if not cached)."""
        if self._known is None:
            words = FuzzyIndex.cached_words(self.kb, self.cache_dir or _default_cache_dir())
            self._known = words if words is not None else self.index().known_words()
        return self._known

    def bind(self, exact: Linker, domain: str, rules: Sequence[Rule]) -> DomainLinker:
        """A linker for one domain: exact matches, then fuzzy ones for what they missed."""
        return DomainLinker(exact, self, domain, [compile_rule(r) for r in rules])

    def link(
        self,
        text: str,
        exact: list[Mention],
        *,
        domain: str,
        rules: Sequence[CompiledRule],
        params: tuple[float, float] | None = None,
    ) -> list[Mention]:
        """``exact`` plus fuzzy mentions; an exact mention inside a longer fuzzy one (the "ECB"
        of "ECB deposti rate") gives way to it."""
        tau, margin = params or self.params.for_domain(domain)
        scored = self.score(text, exact, domain, floor=tau - margin, rules=rules)
        if not scored:
            return list(exact)
        fuzzy = self.select(text, scored, exact, domain=domain, rules=rules, tau=tau, margin=margin)
        return merge(exact, fuzzy)

    def score(
        self,
        text: str,
        exact: Sequence[Mention],
        domain: str,
        *,
        floor: float,
        rules: Sequence[CompiledRule] = (),
    ) -> list[Scored]:
        """Candidate windows of ``text`` with their nearest names (one batched TF-IDF search)
        re-scored by edit similarity (similarities below ``floor`` are not computed)."""
        known = self._known_with(rules)
        covered = sorted((m.start, m.end) for m in exact)
        found: dict[tuple[int, int], tuple[Window, list[Token]]] = {}
        for lo, hi in anchor_regions(text, known):
            for seg in segments(text, tokenize(text, lo, hi), covered):
                for w in windows(text, seg, known):
                    found.setdefault((w.start, w.end), (w, seg))
        if not found:
            return []
        index = self.index()
        hits = self._search([w for w, _ in found.values()], domain)
        longer: dict[tuple[int, int], Window] = {}
        for w, seg in found.values():
            n = w.last - w.first + 1
            near = [k for k, c in hits.get(w.text, [])[:STRETCH_TO] if c >= COSINE_MIN]
            for size in sorted({index.size(k) for k in near}):
                if n < size <= n + MAX_STRETCH:
                    for x in stretched(text, seg, w, size):
                        if (x.start, x.end) not in found:
                            longer.setdefault((x.start, x.end), x)
        wins = [w for w, _ in found.values()] + list(longer.values())
        hits.update(self._search(list(longer.values()), domain))
        ranked: dict[str, list[tuple[float, int]]] = {}
        for q in {w.text for w in wins}:
            cand = hits.get(q)
            if not cand or cand[0][1] < COSINE_MIN:
                continue
            top = cand[0][1] - COSINE_SPREAD
            sims = [
                (osa_similarity(q, index.keys[k]), k)
                for k, c in cand[:RERANK]
                if c >= top
                and abs(len(q) - len(index.keys[k]))
                <= (1 - floor) * max(len(q), len(index.keys[k]))
            ]
            sims = sorted((x for x in sims if x[0] >= floor), key=lambda x: (-x[0], x[1]))
            if sims:
                ranked[q] = sims
        return [Scored(w, ranked[w.text]) for w in wins if w.text in ranked]

    def _known_with(self, rules: Sequence[CompiledRule]) -> frozenset[str]:
        return self._rule_words.get(rules, lambda: self.known_words() | rule_words(rules))

    def _search(self, wins: Sequence[Window], domain: str) -> dict[str, list[tuple[int, float]]]:
        unique = sorted({w.text for w in wins if len(w.text) >= 4})
        return dict(zip(unique, self.index().search(unique, domain), strict=True))

    def select(
        self,
        text: str,
        scored: Sequence[Scored],
        exact: Sequence[Mention],
        *,
        domain: str,
        rules: Sequence[CompiledRule],
        tau: float,
        margin: float,
    ) -> list[Mention]:
        """The accepted fuzzy mentions: similarity ≥ ``tau``, ahead of any other entity by
        ``margin``, same digits, an allowed type; an exact mention may only lie wholly inside
        one (and denote something else); best similarity first, then longest."""
        index = self.index()
        allowed = AllowedTypes(text, rules)
        accepted: list[tuple[float, int, int, tuple[tuple[str, str], ...]]] = []
        for s in scored:
            w = s.window
            if s.ranked[0][0] < tau or not _may_cover(w, exact):
                continue
            ok = allowed.at(w.start)
            best: tuple[float, tuple[tuple[str, str], ...]] | None = None
            runner_up = 0.0
            for sim, key in s.ranked:
                ents = tuple((e, t) for e, t in index.entries(key) if t in ok)
                if not ents:
                    continue
                if best is None:
                    if digits(index.keys[key]) != digits(w.text):
                        break
                    best = (sim, ents)
                elif {e for e, _ in ents} != {e for e, _ in best[1]}:
                    runner_up = sim
                    break
            if best is None or best[0] < tau or best[0] - runner_up < margin:
                continue
            accepted.append((round(best[0], 6), w.start, w.end, best[1]))
        accepted.sort(key=lambda a: (-a[0], -(a[2] - a[1]), a[1]))
        taken: list[Mention] = []
        for sim, start, end, ents in accepted:
            if any(m.start < end and start < m.end for m in taken):
                continue
            taken.append(
                Mention(
                    start,
                    end,
                    text[start:end],
                    tuple(e for e, _ in ents),
                    tuple(t for _, t in ents),
                    fuzzy_score=round(sim, 4),
                )
            )
        return sorted(taken, key=lambda m: m.start)


class DomainLinker:
    """Exact + fuzzy linking for one domain, with the ``Linker.link`` signature."""

    def __init__(
        self, exact: Linker, fuzzy: FuzzyLinker, domain: str, rules: Sequence[CompiledRule]
    ) -> None:
        self.exact, self.fuzzy, self.domain, self.rules = exact, fuzzy, domain, rules

    def link(self, text: str, *, domains: Iterable[str] | None = None) -> list[Mention]:
        mentions = self.exact.link(text, domains=domains)
        if domains is not None and set(domains) != {self.domain}:
            return mentions
        return self.fuzzy.link(text, mentions, domain=self.domain, rules=self.rules)


def merge(exact: Sequence[Mention], fuzzy: Sequence[Mention]) -> list[Mention]:
    """Exact mentions not inside a fuzzy one, and the fuzzy ones, in text order."""
    kept = [m for m in exact if not any(f.start <= m.start and m.end <= f.end for f in fuzzy)]
    return sorted([*kept, *fuzzy], key=lambda m: (m.start, m.end))


def _may_cover(w: Window, exact: Sequence[Mention]) -> bool:
    """A window may hold exact mentions only whole, and must be longer than each of them."""
    for m in exact:
        if m.start < w.end and w.start < m.end:
            inside = w.start <= m.start and m.end <= w.end
            if not inside or (w.start, w.end) == (m.start, m.end):
                return False
    return True


def _shared_index(kb: KnowledgeBase, cache_dir: Path | None) -> FuzzyIndex:
    """One index per graph snapshot per process, loaded from or saved to ``cache_dir``."""
    with _MEMO_LOCK:
        hit = _INDEX_MEMO.get(kb.kg_version)
        if hit is None:
            hit = _INDEX_MEMO[kb.kg_version] = FuzzyIndex.cached(kb, cache_dir)
        return hit


def _default_cache_dir() -> Path | None:
    """The settings' graph cache (where ``load_graphs`` keeps the graphs themselves)."""
    try:
        from auditor.settings import get_settings

        return get_settings().kg_cache_dir
    except Exception:  # unreadable settings only cost the cache
        return None


__all__ = ["DomainLinker", "FuzzyLinker", "FuzzyParams", "merge"]
