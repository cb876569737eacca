"""Lookups over the legal graph, built once per knowledge base, plus the SCDB index."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from knowledge_graphs.scotus import ScotusIndex, reporter_key, scotus_index
from knowledge_graphs.store import KnowledgeBase

_NON_WORD = re.compile(r"[^a-z0-9 ]+")


def tokens(name: str) -> list[str]:
    return [t for t in _NON_WORD.sub(" ", name.lower().replace("’", "'")).split() if t]


@dataclass
class LegalIndex:
    """Lookups over the legal graph built once per knowledge base."""

    by_cite: dict[tuple[int, str, int], str] = field(default_factory=dict)
    by_name: dict[str, str] = field(default_factory=dict)
    us_years: list[tuple[int, int]] = field(default_factory=list)  # (volume, year), sorted
    statutes: dict[tuple[str, str, str], str] = field(default_factory=dict)
    subjects: dict[str, set[str]] = field(default_factory=dict)  # phrase -> statute ids
    subject_pattern: re.Pattern[str] | None = None
    whole_subjects: set[str] = field(default_factory=set)  # a statute's subject, as written
    reporters: dict[str, str] = field(default_factory=dict)
    scotus: ScotusIndex = field(default_factory=ScotusIndex)

    @classmethod
    def build(cls, kb: KnowledgeBase) -> LegalIndex:
        ix = cls(scotus=scotus_index())
        for f in kb.facts:
            if f.predicate == "citation" and f.qualifiers.get("volume"):
                q = f.qualifiers
                ix.by_cite[(int(q["volume"]), reporter_key(q["reporter"]), int(q["page"]))] = (
                    f.subject
                )
            elif f.predicate in {"statuteSubject", "sectionHeading"} and f.literal:
                for phrase in _phrases(f.literal):
                    ix.subjects.setdefault(phrase, set()).add(f.subject)
                if f.predicate == "statuteSubject":
                    ix.whole_subjects.add(_phrases(f.literal)[0])
        for e in kb.entities.values():
            if e.type == "Case":
                for n in (e.label, *e.aliases):
                    ix.by_name.setdefault(" ".join(tokens(n)), e.id)
                vol = int(str(e.attrs.get("primary_citation", "0 x 0")).split()[0])
                if str(e.attrs.get("primary_citation", "")).split(" ")[1:2] == ["U.S."]:
                    ix.us_years.append((vol, int(e.attrs["year"])))
            elif e.type == "Statute":
                for alias in e.aliases:  # "federal program bribery", "mail fraud statute"
                    said = _alias_phrase(alias)
                    if said:
                        ix.subjects.setdefault(said, set()).add(e.id)
                ix.statutes[
                    (str(e.attrs["title"]), str(e.attrs["code"]), str(e.attrs["section"]).lower())
                ] = e.id
            elif e.type == "Reporter":
                for n in (e.label, *e.aliases):
                    ix.reporters.setdefault(reporter_key(n), e.id)
                ix.reporters[reporter_key(str(e.attrs.get("abbreviation", "")))] = e.id
        ix.us_years.sort()
        phrases = sorted((p for p in ix.subjects if len(p) > 6), key=len, reverse=True)
        if phrases:
            ix.subject_pattern = re.compile(
                r"(?<!\w)(?:" + "|".join(re.escape(p) for p in phrases) + r")(?!\w)"
            )
        return ix

    def us_year_bounds(self, volume: int) -> tuple[int, int] | None:
        """Years a U.S. Reports volume can plausibly carry, from the dated cases around it."""
        lower = [y for v, y in self.us_years if v < volume]
        upper = [y for v, y in self.us_years if v > volume]
        if not lower and not upper:
            return None
        return (max(lower) - 1 if lower else 1789, min(upper) + 1 if upper else 9999)


def _phrases(text: str) -> list[str]:
    """Subject phrases of a statute: its subject and heading, lower-cased, minus boilerplate
    ("civil RICO remedies, including treble damages" gives "treble damages")."""
    t = text.lower().replace("-", " ").strip().rstrip(".")
    bare = re.sub(r"\s*\([^)]*\)", "", t).strip()
    parts = re.split(r";|,|\band\b|\bor\b", bare)
    lead = re.compile(r"^(?:including|such as|e\.g\.|especially|notably)\s+")
    out = [t, bare] + [lead.sub("", p.strip()) for p in parts if len(p.strip()) > 4]
    return [p for p in dict.fromkeys(out) if p]


def _alias_phrase(alias: str) -> str | None:
    """A statute's alias as a subject phrase: several words, not a citation ("18 U.S.C.
    1341") or a provision's number ("Rule 10b-5", "Section 10(b)": they name a provision, not
    what it is about), not the name of a whole act ("Racketeer Influenced and Corrupt
    Organizations Act", "Title VII": an act spans many sections), without a trailing "statute" ("mail
    fraud statute" gives "mail fraud")."""
    t = re.sub(r"\s+statute$", "", alias.lower().replace("-", " ").strip())
    if re.search(r"\d|\bact\b|^title\b", t) or " " not in t or len(t) <= 6:
        return None
    return t


__all__ = ["LegalIndex", "tokens"]
