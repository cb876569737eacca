"""Entity linking: an Aho-Corasick automaton over every label and alias of the graphs.

Matching is case-insensitive (except short all-capital codes such as ``ALL`` or ``USD``,
which must match exactly), robust to typographic quotes and dashes, to possessives
(``ibuprofen's``) and to the punctuation of case names (``v.``/``v``/``vs.``), keeps only
whole-word matches, and resolves overlaps by taking the longest match. It runs in time
linear in the length of the text (plus the number of raw matches).

>>> from knowledge_graphs.model import Entity
>>> from knowledge_graphs.store import KnowledgeBase
>>> kb = KnowledgeBase([Entity("drug:ibuprofen", "medical", "Drug", "Ibuprofen", ("Advil",))], [], {"medical": "x"})
>>> [(m.text, m.candidates) for m in Linker(kb).link("Advil’s label; IBUPROFEN.")]
[('Advil', ('drug:ibuprofen',)), ('IBUPROFEN', ('drug:ibuprofen',))]
"""

from __future__ import annotations

import re
from collections.abc import Iterable

import ahocorasick

from auditor.types import Mention
from knowledge_graphs.store import KnowledgeBase

# Types linked in free text. Reporters and courts are found by the citation extractor.
LINKED_TYPES = frozenset(
    {
        "Drug",
        "DrugClass",
        "Condition",
        "Country",
        "Currency",
        "PolicyRate",
        "CentralBank",
        "ReportingObligation",
        "CapitalRequirement",
        "Regulation",
        "FatfList",
        "Case",
        "Statute",
    }
)
_TRANSLATE = str.maketrans(
    {
        "’": "'",
        "‘": "'",
        "“": '"',
        "”": '"',
        "–": "-",
        "—": "-",
        "‑": "-",
        "\u00a0": " ",
        "\u2009": " ",
        "\u202f": " ",
    }
)
_MIN_LEN = 3


def normalize(text: str) -> str:
    """Length-preserving normalisation used on both names and texts."""
    out = text.translate(_TRANSLATE)
    low = out.lower()
    if len(low) == len(out):
        return low
    return "".join(c.lower() if len(c.lower()) == 1 else c for c in out)


def name_variants(name: str) -> set[str]:
    """Surface variants of a name: case-name punctuation, '&'/'and', dotted acronyms."""
    base = " ".join(name.split())
    out = {base}
    if " v. " in base:
        out |= {base.replace(" v. ", sep) for sep in (" v ", " vs. ", " vs ")}
    if " & " in base:
        out.add(base.replace(" & ", " and "))
    if "." in base and " " in base:
        out.add(re.sub(r"\.(?=\S)", "", base).replace(".", ""))
    if base.endswith("."):
        out.add(base[:-1])
    return {v for v in out if len(v) >= _MIN_LEN}


def _case_sensitive(name: str) -> bool:
    letters = [c for c in name if c.isalpha()]
    return bool(letters) and len(name) <= 5 and all(c.isupper() for c in letters)


class Linker:
    """Links mentions of the entities of ``kb`` (optionally only some domains/types)."""

    def __init__(
        self,
        kb: KnowledgeBase,
        *,
        domains: Iterable[str] | None = None,
        types: Iterable[str] = LINKED_TYPES,
    ) -> None:
        keep_domains = set(domains) if domains is not None else None
        keep_types = set(types)
        # normalised name -> list of (entity id, type, exact surface or None)
        table: dict[str, list[tuple[str, str, str | None]]] = {}
        for e in kb.entities.values():
            if e.type not in keep_types or (
                keep_domains is not None and e.domain not in keep_domains
            ):
                continue
            for n in e.names():
                for v in name_variants(n):
                    key = normalize(v)
                    exact = v if _case_sensitive(v) else None
                    bucket = table.setdefault(key, [])
                    if all(c[0] != e.id for c in bucket):
                        bucket.append((e.id, e.type, exact))
        self._ranked = {eid: self._rank(kb, eid) for ids in table.values() for eid, _, _ in ids}
        auto = ahocorasick.Automaton()
        for key, cands in table.items():
            cands.sort(key=lambda c: (-self._ranked[c[0]], c[0]))
            auto.add_word(key, (key, tuple(cands)))
        if len(auto):
            auto.make_automaton()
        self._auto = auto
        self.size = len(table)

    @staticmethod
    def _rank(kb: KnowledgeBase, entity_id: str) -> int:
        """Prefer entities the graph knows something about (curated facts)."""
        return sum(
            1
            for f in kb.facts_about(entity_id)
            if f.predicate not in {"drugbankId", "meshId", "brandName"}
        )

    def link(self, text: str) -> list[Mention]:
        """Whole-word, longest, non-overlapping mentions in ``text`` (in text order)."""
        if not len(self._auto) or not text:
            return []
        norm = normalize(text)
        raw: list[tuple[int, int, tuple[tuple[str, str, str | None], ...]]] = []
        for end, (key, cands) in self._auto.iter(norm):
            start = end - len(key) + 1
            stop = end + 1
            if not _bounded(norm, start, stop):
                continue
            ok = tuple(c for c in cands if c[2] is None or text[start:stop] == c[2])
            if ok:
                raw.append((start, stop, ok))
        raw.sort(key=lambda r: (-(r[1] - r[0]), r[0]))
        taken: list[tuple[int, int, tuple[tuple[str, str, str | None], ...]]] = []
        occupied = bytearray(len(text) + 1)
        for start, stop, cands in raw:
            if any(occupied[start:stop]):
                continue
            occupied[start:stop] = b"\x01" * (stop - start)
            taken.append((start, stop, cands))
        taken.sort()
        return [
            Mention(s, e, text[s:e], tuple(c[0] for c in cands), tuple(c[1] for c in cands))
            for s, e, cands in taken
        ]


def _bounded(norm: str, start: int, stop: int) -> bool:
    before = norm[start - 1] if start > 0 else " "
    after = norm[stop] if stop < len(norm) else " "
    if before.isalnum() or before == "_":
        return False
    if (
        after == "'"
        and norm[stop + 1 : stop + 2] == "s"
        and not norm[stop + 2 : stop + 3].isalnum()
    ):
        return True  # possessive
    return not (after.isalnum() or after == "_")
