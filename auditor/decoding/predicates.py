"""Which predicate a question asks about, among those its subject has facts for.

Each relation has a *cue text*: its ontology label and comment (``knowledge_graphs/ontology``)
and the wording the default model was trained with (``knowledge_graphs/verbalise/templates.py``: its
statements and its question about a placeholder fact; ``knowledge_graphs/verbalise/paraphrases.py``: the
other wordings of that question). A question's content words (the
subject's names removed) are stemmed crudely and matched against the cue texts, each word
weighted by its inverse document frequency over the relations. The relations of the subject
with the highest positive score win; with no match every relation of the subject is kept
(the answer slot then accepts a value of any of them).

>>> stem("combining"), stem("combine"), stem("applies"), stem("apply"), stem("decided")
('combi', 'combi', 'appli', 'appli', 'decid')
>>> cues = PredicateCues({"decided": "decided decision date", "citation": "citation reported"})
>>> cues.rank("In what year was Roe v. Wade decided?", ["citation", "decided"])
['decided']
>>> cues.rank("Tell me about Roe v. Wade.", ["citation", "decided"])
['citation', 'decided']
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping, Sequence
from datetime import date
from functools import lru_cache

_WORD = re.compile(r"[a-z]+")
_SUFFIXES = ("ations", "ation", "ings", "ing", "edly", "ed", "en", "es", "ly", "s", "e")
_STOP = """a an the of for to in on at by with from and or is are was were be been being do does
    did can could may might must should would will shall what which who whom whose when where
    why how it its this that these those there their his her he she they we you i me my our
    your as than then so such not no any some one all about into over under up out if"""
STOPWORDS = frozenset(_STOP.split())


def stem(word: str) -> str:
    """A crude stem: lower case, one common suffix off, a final y as i, at most 5 letters."""
    w = word.lower()
    for suf in _SUFFIXES:
        if len(w) - len(suf) >= (4 if suf == "ly" else 3) and w.endswith(suf):
            w = w[: -len(suf)]
            break
    if w.endswith("y") and len(w) > 3:
        w = w[:-1] + "i"
    return w[:5]


def content_stems(text: str, drop: Iterable[str] = ()) -> set[str]:
    """Stems of the words of ``text`` that are not stop words nor words of ``drop``."""
    dropped = {w for d in drop for w in _WORD.findall(d.lower())}
    return {stem(w) for w in _WORD.findall(text.lower()) if w not in STOPWORDS | dropped}


# Phrases that decide between relations whose cue words share a stem: "prescribed for" asks
# for an indication, not for the prescription status ("presc" is the stem of both).
PHRASES: dict[str, tuple[str, ...]] = {
    "indicatedFor": ("prescribed for", "prescribed to treat", "used for", "used to treat"),
    "prescriptionStatus": ("over the counter", "without a prescription", "need a prescription"),
    "withdrawn": ("off the market", "withdrawn from the market", "pulled from the market"),
}


class PredicateCues:
    """Cue stems per relation, IDF-weighted; :meth:`rank` picks the relations a text asks.
    A cue *phrase* found in the text outranks any stem score."""

    def __init__(
        self,
        texts: Mapping[str, str],
        ignore: Iterable[str] = (),
        phrases: Mapping[str, Iterable[str]] | None = None,
    ) -> None:
        self.phrases = {
            p: [re.compile(r"\b" + re.escape(x) + r"\b", re.I) for x in xs]
            for p, xs in (phrases or {}).items()
        }
        self.stems = {p: content_stems(t, ignore) for p, t in texts.items()}
        n = len(self.stems) or 1
        df: dict[str, int] = {}
        for ss in self.stems.values():
            for s in ss:
                df[s] = df.get(s, 0) + 1
        self.idf = {s: math.log(1 + n / d) for s, d in df.items()}

    def scores(
        self, text: str, candidates: Sequence[str], drop: Iterable[str] = ()
    ) -> dict[str, float]:
        words = content_stems(text, drop)
        bonus = {p: 100.0 for p, rx in self.phrases.items() if any(r.search(text) for r in rx)}
        return {
            p: bonus.get(p, 0.0) + sum(self.idf[s] for s in words & self.stems.get(p, set()))
            for p in candidates
        }

    def rank(self, text: str, candidates: Sequence[str], drop: Iterable[str] = ()) -> list[str]:
        """The best-scoring candidates (ties kept), or every candidate when none matches."""
        scores = self.scores(text, candidates, drop)
        best = max(scores.values(), default=0.0)
        if best <= 0:
            return sorted(candidates)
        return sorted(p for p, s in scores.items() if s == best)


@lru_cache(maxsize=1)
def default_cues() -> PredicateCues:
    """Cues from the ontology's relation labels and comments and the verbaliser's templates."""
    from dataclasses import replace

    from rdflib.namespace import RDF, RDFS

    from knowledge_graphs.model import Fact, Source
    from knowledge_graphs.rdf import KGA, ontology
    from knowledge_graphs.verbalise import PARAPHRASES, TEMPLATES, Names

    g = ontology()
    texts: dict[str, str] = {}
    for rel in g.subjects(RDF.type, KGA.Relation):
        name = str(rel).removeprefix(str(KGA))
        texts[name] = f"{g.value(rel, RDFS.label) or ''} {g.value(rel, RDFS.comment) or ''}"
    placeholder = Fact(
        "x",
        "x",
        "x:Subject",
        "x",
        Source("x"),
        object="x:Object",
        value=1.0,
        unit="mg",
        literal="Literal",
        date=date(2000, 1, 1),
        valid_from=date(2000, 1, 1),
    )
    names = Names({})
    for pred, template in TEMPLATES.items():
        items = template(replace(placeholder, predicate=pred), names)
        words = " ".join(f"{p} {c}" for p, c, _ in items).replace("Q: ", " ").replace("A: ", " ")
        texts[pred] = f"{texts.get(pred, '')} {words} {' '.join(PARAPHRASES.get(pred, ()))}"
    placeholders = ("subject", "object", "literal", "s", "o", "b", "pop", "per")
    return PredicateCues(texts, ignore=placeholders, phrases=PHRASES)
