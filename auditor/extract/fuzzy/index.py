"""Character n-gram TF-IDF index over every label and alias, with nearest-neighbour search.

The index is fitted with scikit-learn's ``TfidfVectorizer(analyzer="char_wb",
ngram_range=NGRAMS)`` over the canonical form of every name of a linked entity type (short
all-capital codes such as ``USD`` or ``ALL`` are left to the exact linker). Queries are
vectorised with the same analyzer reimplemented in
:func:`auditor.extract.fuzzy.text.char_wb_ngrams` (a test checks they agree), so audits never
import scikit-learn — its import alone costs seconds. An n-gram the index has never seen
still counts in the query's norm, with the largest idf, so a string made mostly of unknown
n-grams cannot look similar to a name.

Rows are (name, domain) pairs grouped by domain, so one domain's names are a contiguous
block. Nearest neighbours are found exactly by cosine similarity over a short list: the
``SHORTLIST`` names sharing the most weight of *rarer trigrams* (document frequency ≤
``RARE_DF``) with the query, found with one sparse matrix product per batch of queries —
bigrams and common trigrams ("in", "ine") would otherwise touch most of the index per query.

The fitted index is cached next to the graph cache as ``fuzzy-<kg_version>-v<N>.npz``
(numeric arrays only, loaded with ``allow_pickle=False``) plus JSON tables; no pickles. The
words of known names and everyday English (wordfreq), which decide where fuzzy matching is
tried at all, are a separate small file, so audits of texts with nothing to look at never
load the index.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import orjson
from scipy import sparse

from auditor.extract.fuzzy.text import canonical, char_wb_ngrams, words_of
from auditor.extract.linker import LINKED_TYPES, _case_sensitive, _entities_with_curated_facts
from knowledge_graphs.store import KnowledgeBase

INDEX_FORMAT = 8
NGRAMS = (2, 3)  # character n-gram lengths
COMMON_WORDS = 40_000  # most frequent English words (wordfreq): never a reason to look
MIN_KEY = 5  # characters of a name before it is worth fuzzy matching
RARE_DF = 2000  # trigrams in more names than this only re-score, never retrieve
SHORTLIST = 60  # candidates whose exact cosine is computed, per query

Entry = tuple[str, str]  # entity id, type
# entity ids, type names, type of each entity, and the rows' entities in CSR layout
Entities = tuple[list[str], list[str], np.ndarray, np.ndarray, np.ndarray]


class FuzzyIndex:
    """(name, domain) rows → entities, and nearest-name search within one domain."""

    def __init__(
        self,
        keys: list[str],
        entities: Entities,
        blocks: dict[str, tuple[int, int]],
        features: list[str],
        idf: np.ndarray,
        matrix: sparse.csr_matrix,
        rare_t: dict[str, sparse.csr_matrix],
    ) -> None:
        self.keys = keys
        self.ent_ids, self.type_names, self.ent_type, self.row_ptr, self.row_ents = entities
        self.blocks = blocks  # domain → [lo, hi) rows
        self.features = features
        self.vocab = {g: i for i, g in enumerate(features)}
        self.idf = idf.astype(np.float32)
        self.max_idf = float(self.idf.max()) if len(self.idf) else 1.0
        self.matrix = matrix
        self.rare_t = rare_t  # domain → [F, rows of the domain], rarer n-grams only

    def entries(self, row: int) -> tuple[Entry, ...]:
        """The entities a row's name denotes (best first) with their types."""
        a, b = int(self.row_ptr[row]), int(self.row_ptr[row + 1])
        return tuple(
            (self.ent_ids[e], self.type_names[self.ent_type[e]]) for e in self.row_ents[a:b]
        )

    def size(self, row: int) -> int:
        """Words in a row's name."""
        return self.keys[row].count(" ") + 1

    # -- building and caching --------------------------------------------------------------

    @classmethod
    def build(cls, kb: KnowledgeBase) -> FuzzyIndex:
        from sklearn.feature_extraction.text import TfidfVectorizer

        informative = _entities_with_curated_facts(kb)
        table: dict[tuple[str, str], dict[str, str]] = {}  # (domain, key) → {entity: type}
        for ent in kb.entities.values():
            if ent.type not in LINKED_TYPES:
                continue
            for n in ent.names():
                n = n.strip()
                if len(n) < MIN_KEY or _case_sensitive(n):
                    continue
                if ent.type == "Drug" and ", " in n and n != ent.label:
                    continue  # inverted index forms never occur in prose
                key = canonical(n)
                if len(key) >= MIN_KEY:
                    table.setdefault((ent.domain, key), {})[ent.id] = ent.type
        rows = sorted(table)
        keys = [k for _, k in rows]
        entries = [
            sorted(table[r].items(), key=lambda kv: (kv[0] not in informative, kv[0])) for r in rows
        ]
        ent_ids = sorted({e for ents in entries for e, _ in ents})
        type_names = sorted({t for ents in entries for _, t in ents})
        e_ix, t_ix = {e: i for i, e in enumerate(ent_ids)}, {t: i for i, t in enumerate(type_names)}
        ent_type = np.zeros(len(ent_ids), dtype=np.int16)
        for ents in entries:
            for e, t in ents:
                ent_type[e_ix[e]] = t_ix[t]
        row_ptr = np.cumsum([0] + [len(ents) for ents in entries]).astype(np.int64)
        row_ents = np.array([e_ix[e] for ents in entries for e, _ in ents], dtype=np.int32)
        blocks: dict[str, tuple[int, int]] = {}
        for i, (d, _) in enumerate(rows):
            lo, _hi = blocks.get(d, (i, i))
            blocks[d] = (lo, i + 1)
        vec = TfidfVectorizer(analyzer="char_wb", ngram_range=NGRAMS, dtype=np.float32)
        matrix = vec.fit_transform(keys).tocsr()
        features = [""] * len(vec.vocabulary_)
        for g, i in vec.vocabulary_.items():
            features[i] = g
        df = np.bincount(matrix.indices, minlength=len(features))
        trigram = np.array([len(g) == 3 for g in features])
        rare = ((df <= RARE_DF) & trigram).astype(np.float32)
        rare_t = {}
        for d, (lo, hi) in blocks.items():
            t = matrix[lo:hi].multiply(rare[None, :]).tocsr().T.tocsr()
            t.eliminate_zeros()
            rare_t[d] = t
        arrays = (ent_ids, type_names, ent_type, row_ptr, row_ents)
        return cls(keys, arrays, blocks, features, vec.idf_, matrix, rare_t)

    @staticmethod
    def paths(kb: KnowledgeBase, cache_dir: Path) -> tuple[Path, Path, Path]:
        """The cache files: arrays, tables, known words."""
        lo, hi = NGRAMS
        stem = f"fuzzy-{kb.kg_version}-v{INDEX_FORMAT}-{lo}{hi}"
        return (
            cache_dir / f"{stem}.npz",
            cache_dir / f"{stem}.json",
            cache_dir / f"{stem}.words.json",
        )

    @classmethod
    def cached(cls, kb: KnowledgeBase, cache_dir: Path | None) -> FuzzyIndex:
        """The index for ``kb``, loaded from ``cache_dir`` when built before for this kg_version."""
        if cache_dir is None:
            return cls.build(kb)
        arrays, table, words = cls.paths(kb, cache_dir)
        if arrays.exists() and table.exists():
            try:
                return cls.load(arrays, table)
            except (OSError, ValueError, KeyError, orjson.JSONDecodeError):
                pass  # a damaged cache is rebuilt
        index = cls.build(kb)
        try:
            cache_dir.mkdir(parents=True, exist_ok=True)
            index.save(arrays, table)
            words.write_bytes(orjson.dumps(sorted(index.known_words())))
        except OSError:
            pass  # a read-only cache directory only costs time
        return index

    @classmethod
    def cached_words(cls, kb: KnowledgeBase, cache_dir: Path | None) -> frozenset[str] | None:
        """The known words from the cache, or None when not cached yet."""
        if cache_dir is None:
            return None
        path = cls.paths(kb, cache_dir)[2]
        try:
            return frozenset(orjson.loads(path.read_bytes()))
        except (OSError, orjson.JSONDecodeError):
            return None

    def known_words(self) -> frozenset[str]:
        """Words of known names and everyday English words (never a reason to look)."""
        return frozenset(words_of(self.keys) | _common_words())

    def save(self, arrays: Path, table: Path) -> None:
        for x in (self.matrix, *self.rare_t.values()):
            x.sum_duplicates()  # canonical: sorted indices, no duplicates
        m = self.matrix
        out = {"data": m.data, "indices": m.indices, "indptr": m.indptr, "idf": self.idf}
        out |= {"shape": np.array(m.shape), "ent_type": self.ent_type}
        out |= {"row_ptr": self.row_ptr, "row_ents": self.row_ents}
        for d, t in self.rare_t.items():
            out |= {f"{d}.data": t.data, f"{d}.indices": t.indices, f"{d}.indptr": t.indptr}
            out[f"{d}.shape"] = np.array(t.shape)
        tmp = arrays.with_suffix(f".{os.getpid()}.{uuid.uuid4().hex[:8]}.tmp.npz")  # own name
        np.savez(tmp, **out)
        doc = {"format": INDEX_FORMAT, "keys": self.keys, "blocks": self.blocks}
        doc |= {"features": self.features, "ent_ids": self.ent_ids, "types": self.type_names}
        table.write_bytes(orjson.dumps(doc))
        tmp.replace(arrays)

    @classmethod
    def load(cls, arrays: Path, table: Path) -> FuzzyIndex:
        doc = orjson.loads(table.read_bytes())
        if doc.get("format") != INDEX_FORMAT:
            raise ValueError("fuzzy index cache of another format")
        blocks = {d: (int(lo), int(hi)) for d, (lo, hi) in doc["blocks"].items()}
        with np.load(arrays, allow_pickle=False) as z:

            def csr(p: str) -> sparse.csr_matrix:
                shape = tuple(int(x) for x in z[f"{p}shape"])
                m = sparse.csr_matrix(
                    (z[f"{p}data"], z[f"{p}indices"], z[f"{p}indptr"]), shape=shape
                )
                m.has_canonical_format = True  # saved canonical (see save): skip the O(nnz) check
                return m

            matrix = csr("")
            rare_t = {d: csr(f"{d}.") for d in blocks}
            idf = z["idf"]
            ents = (doc["ent_ids"], doc["types"], z["ent_type"], z["row_ptr"], z["row_ents"])
        if len(ents[3]) != matrix.shape[0] + 1 or len(doc["features"]) != matrix.shape[1]:
            raise ValueError("fuzzy index cache is inconsistent")
        return cls(doc["keys"], ents, blocks, doc["features"], idf, matrix, rare_t)

    # -- search ----------------------------------------------------------------------------

    def vectorize(self, texts: Sequence[str]) -> sparse.csr_matrix:
        """L2-normalised tf-idf rows of ``texts`` (unknown n-grams count in the norm only)."""
        indptr, indices, data = [0], [], []
        for t in texts:
            counts: dict[int, int] = {}
            unknown = 0
            for g in char_wb_ngrams(t, *NGRAMS):
                j = self.vocab.get(g)
                if j is None:
                    unknown += 1
                else:
                    counts[j] = counts.get(j, 0) + 1
            cols = np.fromiter(counts, dtype=np.int32, count=len(counts))
            w = np.fromiter(counts.values(), dtype=np.float32, count=len(counts))
            w *= self.idf[cols]
            norm = float(np.sqrt(np.dot(w, w) + unknown * self.max_idf**2)) or 1.0
            indices.append(cols)
            data.append(w / norm)
            indptr.append(indptr[-1] + len(cols))
        return sparse.csr_matrix(
            (
                np.concatenate(data) if data else np.zeros(0, np.float32),
                np.concatenate(indices) if indices else np.zeros(0, np.int32),
                np.array(indptr),
            ),
            shape=(len(texts), len(self.features)),
        )

    def search(self, texts: Sequence[str], domain: str) -> list[list[tuple[int, float]]]:
        """For each text, its nearest names of ``domain``: (row, cosine), best first."""
        out: list[list[tuple[int, float]]] = [[] for _ in texts]
        if not texts or domain not in self.blocks:
            return out
        lo = self.blocks[domain][0]
        q = self.vectorize(texts)
        shared = (q @ self.rare_t[domain]).tocsr()  # [Q, rows_d] cosine over rarer n-grams
        rows: list[np.ndarray] = []
        cols: list[np.ndarray] = []
        for i in range(len(texts)):
            a, b = shared.indptr[i], shared.indptr[i + 1]
            cand = shared.indices[a:b]
            if b - a > SHORTLIST:
                cand = cand[np.argpartition(-shared.data[a:b], SHORTLIST)[:SHORTLIST]]
            rows.append(np.full(len(cand), i, dtype=np.int64))
            cols.append(cand.astype(np.int64) + lo)
        r, c = np.concatenate(rows), np.concatenate(cols)
        if len(r) == 0:
            return out
        sims = np.asarray(q[r].multiply(self.matrix[c]).sum(axis=1)).ravel()
        for i, j, s in zip(r.tolist(), c.tolist(), sims.tolist(), strict=True):
            out[i].append((j, s))
        for lst in out:
            lst.sort(key=lambda kv: (-kv[1], kv[0]))
        return out


def _common_words() -> set[str]:
    """Everyday English words of four letters or more."""
    try:
        from wordfreq import top_n_list
    except ImportError:  # pragma: no cover - wordfreq is a dependency
        return set()
    return {w for w in top_n_list("en", COMMON_WORDS) if len(w) >= 4 and w.isalpha()}
