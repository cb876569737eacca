"""A networkx projection of the knowledge base, and k-hop neighbourhoods of entity sets.

Each edge keeps the ids of the facts it came from, so anything derived from a neighbourhood
(e.g. the tokens the engine may emit) can cite its source triples. Value facts (doses, rates,
dates) are not edges; they stay attached to their subject and are returned with it.

>>> from knowledge_graphs.model import Entity, Fact, Source
>>> from knowledge_graphs.store import KnowledgeBase
>>> s = Source("doc")
>>> kb = KnowledgeBase(
...     [Entity("drug:a", "medical", "Drug", "A"), Entity("drug:b", "medical", "Drug", "B"),
...      Entity("drug:c", "medical", "Drug", "C")],
...     [Fact("f1", "medical", "drug:a", "interactsWith", s, object="drug:b"),
...      Fact("f2", "medical", "drug:b", "interactsWith", s, object="drug:c")], {"medical": "x"})
>>> sorted(neighbourhood(kb, ["drug:a"], hops=1).entities)
['drug:a', 'drug:b']
>>> sorted(neighbourhood(kb, ["drug:a"], hops=2).entities)
['drug:a', 'drug:b', 'drug:c']
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from knowledge_graphs.store import KnowledgeBase

if TYPE_CHECKING:
    import networkx as nx

# Relations that connect entities but say nothing a generated answer would cite.
_STRUCTURAL = frozenset({"court"})


def to_networkx(kb: KnowledgeBase, *, relations: Iterable[str] | None = None) -> nx.MultiDiGraph:
    """A MultiDiGraph: one node per entity, one edge per entity-valued fact.

    Edge attributes: ``predicate`` and ``fact`` (the fact id); node attributes: ``label``,
    ``type``, ``domain``.
    """
    import networkx as nx

    keep = set(relations) if relations is not None else None
    g = nx.MultiDiGraph()
    for e in kb.entities.values():
        g.add_node(e.id, label=e.label, type=e.type, domain=e.domain)
    for f in kb.facts:
        if f.object is None or (keep is not None and f.predicate not in keep):
            continue
        g.add_edge(f.subject, f.object, key=f.id, predicate=f.predicate, fact=f.id)
    return g


@dataclass
class Neighbourhood:
    """Entities within ``hops`` of the seeds, the facts that connect them, and their value facts."""

    seeds: list[str]
    entities: dict[str, int] = field(default_factory=dict)  # entity id -> distance from seeds
    edge_facts: list[str] = field(default_factory=list)
    value_facts: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "seeds": self.seeds,
            "entities": self.entities,
            "edge_facts": self.edge_facts,
            "value_facts": self.value_facts,
        }


def neighbourhood(
    kb: KnowledgeBase,
    seeds: Iterable[str],
    *,
    hops: int = 1,
    relations: Iterable[str] | None = None,
) -> Neighbourhood:
    """Breadth-first k-hop neighbourhood over entity-valued facts (both directions).

    ``relations`` restricts which relations are followed (e.g. the relations named by a rule
    pack); value facts of every reached entity are included whatever their relation.
    """
    if hops < 0:
        raise ValueError("hops must be zero or more")
    keep = set(relations) if relations is not None else None
    seed_list = [s for s in dict.fromkeys(seeds) if s in kb.entities]
    nb = Neighbourhood(seed_list, {s: 0 for s in seed_list})
    frontier = list(seed_list)
    seen_facts: set[str] = set()
    for depth in range(1, hops + 1):
        nxt: list[str] = []
        for ent in frontier:
            for f in (*kb.facts_about(ent), *kb.facts_pointing_to(ent)):
                if f.object is None or f.predicate in _STRUCTURAL:
                    continue
                if keep is not None and f.predicate not in keep:
                    continue
                if f.id not in seen_facts:
                    seen_facts.add(f.id)
                    nb.edge_facts.append(f.id)
                other = f.object if f.subject == ent else f.subject
                if other not in nb.entities:
                    nb.entities[other] = depth
                    nxt.append(other)
        frontier = nxt
    for ent in nb.entities:
        for f in kb.facts_about(ent):
            if f.object is None and (keep is None or f.predicate in keep):
                nb.value_facts.append(f.id)
    return nb
