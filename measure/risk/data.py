"""The labelled answers the risk model is fitted and tested on.

The generated benchmark alone is nearly separable for the auditor (a contradicted claim or a
low citation confidence finds almost every hallucination), so a model fitted on it would
only learn "contradicted ⇒ 1". Real answers are harder: the graph misses facts and the text
misspells names. Three views of the benchmark, each from its own seed, are therefore mixed:

* ``clean`` — the benchmark as generated, audited as is;
* ``misspelled`` — every linkable mention misspelled or abbreviated with probability 0.5
  (:mod:`measure.evaluation.fuzzy_linking`), so claims rest on fuzzy links or are lost;
* ``sparse_graph`` — audited against the graph with every fact about a random 30 % of the
  entities removed (identity facts — identifiers, a case's citation and court, a statute's
  subject — kept), so true and false claims alike become unverifiable.

The label is the benchmark's: does the answer contain at least one hallucination.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from auditor.types import AuditResult
from knowledge_graphs.store import KnowledgeBase
from measure.evaluation.benchmark import generate_benchmark
from measure.evaluation.cases import Case

VIEWS = ("clean", "misspelled", "sparse_graph")
SPARSE_FRACTION = 0.3
MISSPELL_RATE = 0.5
# identity facts stay: without a case's citation or a statute's subject the citation checks
# report a name mismatch (a contradiction) instead of "not found"
_KEEP_PREDICATES = frozenset(
    {"drugbankId", "meshId", "citation", "court", "statuteSubject", "sectionHeading"}
)


@dataclass(frozen=True)
class Row:
    case: Case
    view: str
    result: AuditResult

    @property
    def label(self) -> int:
        return int(self.case.hallucinated)


def build_rows(
    auditor: Any,
    *,
    seed: int,
    per_domain: int,
    domains: tuple[str, ...] = ("finance", "medical", "legal"),
    progress: Callable[[str], None] | None = None,
) -> list[Row]:
    """Audited answers of every view, ``per_domain`` per domain and view."""
    rows: list[Row] = []
    for k, view in enumerate(VIEWS):
        if progress:
            progress(view)
        cases = generate_benchmark(
            auditor.kb, seed=seed * 1000 + k, per_domain=per_domain, domains=domains
        )
        who = auditor
        if view == "misspelled":
            cases = [_misspelled(c, auditor, random.Random(f"{seed}-{c.id}")) for c in cases]
        elif view == "sparse_graph":
            who = sparse_auditor(auditor, random.Random(f"sparse-{seed}"))
        for c in cases:
            rows.append(Row(c, view, who.audit(c.text, domain=c.domain, as_of=c.as_of)))
    return rows


def sparse_auditor(auditor: Any, rng: random.Random) -> Any:
    """An auditor over the same entities with every fact about 30 % of them removed."""
    from auditor.pipeline import Auditor

    kb: KnowledgeBase = auditor.kb
    subjects = sorted({f.subject for f in kb.facts if f.predicate not in _KEEP_PREDICATES})
    gone = set(rng.sample(subjects, int(SPARSE_FRACTION * len(subjects))))
    facts = [
        f for f in kb.facts if f.predicate in _KEEP_PREDICATES or not ({f.subject, f.object} & gone)
    ]
    sparse = KnowledgeBase(kb.entities.values(), facts, kb.versions, kb.extra_versions)
    out = Auditor(sparse, auditor.rules, cache_dir=auditor.cache_dir, risk=False)
    out._linker = auditor.linker()  # same entities: share the exact linker
    return out


def _misspelled(case: Case, auditor: Any, rng: random.Random) -> Case:
    """``case`` with its linkable mentions misspelled or abbreviated at random."""
    from measure.evaluation.fuzzy_linking import abbreviate, misspell

    text = case.text
    for m in reversed(auditor.linker().link(text, domains=[case.domain])):
        if rng.random() >= MISSPELL_RATE or sum(ch.isalpha() for ch in m.text) < 5:
            continue
        if len(m.text) <= 5 and m.text.isupper():
            continue
        new = abbreviate(m.text, rng) if rng.random() < 0.2 else None
        if new is None:
            words = list(re.finditer(r"[A-Za-z]{5,}", m.text))
            if not words:
                continue
            w = rng.choice(words)
            new = m.text[: w.start()] + misspell(w.group(0), rng) + m.text[w.end() :]
        text = text[: m.start] + new + text[m.end :]
    return Case(case.id, case.domain, case.as_of, text, case.claims)  # the labels stay
