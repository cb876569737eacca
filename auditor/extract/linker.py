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

import os
import re
import uuid
from collections.abc import Iterable
from pathlib import Path

import ahocorasick
import orjson

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


_INNER_HYPHEN = re.compile(r"(?<=[^\W_])-(?=[^\W_])")


def link_key(text: str) -> str:
    """:func:`normalize`, and a hyphen inside a word group read as a space, so a several-word
    name matches its hyphenated spelling and back ("ACE-inhibitor" / "ACE inhibitor",
    "beta blockers" / "beta-blockers"); same length as ``text``. A hyphen already ends a word,
    so no one-word name gains a match."""
    return _INNER_HYPHEN.sub(" ", normalize(text))


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
    return {v for v in out if len(v) >= _MIN_LEN or (len(v) == 2 and v.isalpha() and v.isupper())}


def _case_sensitive(name: str) -> bool:
    """Short all-capital codes ("ALL", "USD", "OA") must match exactly."""
    return len(name) <= 5 and name.isupper()


LINKER_FORMAT = 3


class Linker:
    """Links mentions of the entities of ``kb``; one automaton serves every domain.

    ``link(text, domains=...)`` keeps only candidates of those domains, so the per-domain
    audits and ``auto`` share one structure. Building it takes ~1–2 s for the shipped graphs;
    :meth:`cached` stores it next to the graph cache (an integer automaton plus a JSON table,
    no pickles) and reloads it in about half that time.
    """

    def __init__(self, kb: KnowledgeBase | None, *, types: Iterable[str] = LINKED_TYPES) -> None:
        self._table: list[tuple[int, tuple[tuple[str, str, str, str | None], ...]]] = []
        self._auto = ahocorasick.Automaton(ahocorasick.STORE_INTS)
        if kb is None:
            return
        keep_types = frozenset(types)
        informative = _entities_with_curated_facts(kb)
        # normalised name -> {entity id: (type, domain, exact surface or None)}
        table: dict[str, dict[str, tuple[str, str, str | None]]] = {}
        for e in kb.entities.values():
            if e.type not in keep_types:
                continue
            if e.attrs.get("common_word") and e.id not in informative:
                continue  # "water", "iron": everyday words, linked only when the graph has facts
            exact_names = set(e.attrs.get("exact_aliases") or ())
            for n in e.names():
                if e.type == "Drug" and ", " in n and n != e.label:
                    continue  # inverted index forms ("hydrochloride, metformin") never occur in prose
                for v in name_variants(n) if _needs_variants(n) else _plain(n):
                    bucket = table.setdefault(link_key(v), {})
                    if e.id not in bucket:
                        exact = v if (_case_sensitive(v) or n in exact_names) else None
                        bucket[e.id] = (e.type, e.domain, exact)
        for key, cands in table.items():
            ranked = (
                sorted(cands.items(), key=lambda kv: (kv[0] not in informative, kv[0]))
                if len(cands) > 1
                else cands.items()
            )
            self._auto.add_word(key, len(self._table))
            self._table.append((len(key), tuple((eid, *meta) for eid, meta in ranked)))
        if len(self._auto):
            self._auto.make_automaton()

    @property
    def size(self) -> int:
        return len(self._table)

    @classmethod
    def cached(cls, kb: KnowledgeBase, cache_dir: Path | None) -> Linker:
        """The linker for ``kb``, loaded from ``cache_dir`` when built before for this kg_version."""
        if cache_dir is None:
            return cls(kb)
        stem = cache_dir / f"linker-{kb.kg_version}-v{LINKER_FORMAT}"
        auto_path, table_path = stem.with_suffix(".automaton"), stem.with_suffix(".json")
        if auto_path.exists() and table_path.exists():
            try:
                linker = cls(None)
                linker._auto = ahocorasick.load(str(auto_path), _never)
                linker._table = [
                    (n, tuple(tuple(c) for c in cands))
                    for n, cands in orjson.loads(table_path.read_bytes())
                ]
                return linker
            except (OSError, ValueError, orjson.JSONDecodeError):
                pass  # a damaged cache is rebuilt
        linker = cls(kb)
        try:
            cache_dir.mkdir(parents=True, exist_ok=True)
            tmp = stem.with_suffix(f".{os.getpid()}.{uuid.uuid4().hex[:8]}.tmp")  # own name
            linker._auto.save(str(tmp))
            tmp.replace(auto_path)
            table_path.write_bytes(orjson.dumps(linker._table))
        except OSError:
            pass  # a read-only cache directory only costs start-up time
        return linker

    def link(self, text: str, *, domains: Iterable[str] | None = None) -> list[Mention]:
        """Whole-word, longest, non-overlapping mentions in ``text`` (in text order)."""
        if not len(self._auto) or not text:
            return []
        keep = frozenset(domains) if domains is not None else None
        norm = link_key(text)
        raw: list[tuple[int, int, tuple[tuple[str, str], ...]]] = []
        table = self._table
        for end, idx in self._auto.iter(norm):
            length, cands = table[idx]
            start = end - length + 1
            stop = end + 1
            matched = stop
            if not _bounded(norm, start, stop):
                # a plural of a several-word name or of a capital code: "currency transaction
                # reports", "CTRs" (one-word names are left alone: "jerseys" is not Jersey)
                plural = norm[stop : stop + 1] == "s" and norm[stop - 1].isalpha()
                several = " " in norm[start:stop] or all(c[3] for c in cands)
                if not (plural and several and _bounded(norm, start, stop + 1)):
                    continue
                stop += 1
            ok = tuple(
                (eid, typ)
                for eid, typ, dom, exact in cands
                if (keep is None or dom in keep) and (exact is None or text[start:matched] == exact)
            )
            if ok:
                raw.append((start, stop, ok))
        raw.sort(key=lambda r: (-(r[1] - r[0]), r[0]))
        taken: list[tuple[int, int, tuple[tuple[str, str], ...]]] = []
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


def _never(_: object) -> object:  # integer automata store no objects to deserialise
    raise ValueError("unexpected object value in an integer automaton")


def _needs_variants(name: str) -> bool:
    return "." in name or "&" in name or "  " in name


def _plain(name: str) -> tuple[str, ...]:
    n = name.strip()
    ok = len(n) >= _MIN_LEN or (len(n) == 2 and n.isalpha() and n.isupper())
    return (n,) if ok else ()


def _entities_with_curated_facts(kb: KnowledgeBase) -> frozenset[str]:
    """Entities the graph knows something about beyond identifiers (preferred when ambiguous)."""
    skip = {"drugbankId", "meshId", "brandName"}
    curated = [f for f in kb.facts if f.predicate not in skip]
    return frozenset({f.subject for f in curated} | {f.object for f in curated if f.object})


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
