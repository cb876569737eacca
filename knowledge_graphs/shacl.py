"""SHACL validation of graphs against ``ontology/shapes.ttl`` (pyshacl)."""

from __future__ import annotations

from collections.abc import Iterable

from knowledge_graphs.model import Entity, Fact
from knowledge_graphs.store import KnowledgeBase


def validate_records(
    entities: Iterable[Entity],
    facts: Iterable[Fact],
    *,
    context: KnowledgeBase | None = None,
) -> list[str]:
    """Violations (one line each: focus node, path, message); empty when the records conform.

    ``context`` supplies the entities that facts refer to but that are not among
    ``entities`` (e.g. a user's facts about shipped drugs), so class constraints can be checked.
    """
    import pyshacl
    from rdflib import Graph
    from rdflib.namespace import SH

    from knowledge_graphs.rdf import SHAPES_PATH, ontology, to_graph

    ents = list(entities)
    facts = list(facts)
    if context is not None:
        have = {e.id for e in ents}
        refs = {r for f in facts for r in (f.subject, f.object) if r and r not in have}
        ents += [context.entities[r] for r in sorted(refs) if r in context.entities]
    data = to_graph(ents, facts)
    data += ontology()
    shapes = Graph().parse(SHAPES_PATH, format="turtle")
    conforms, report, _ = pyshacl.validate(
        data, shacl_graph=shapes, inference="none", advanced=False
    )
    if conforms:
        return []
    out = []
    for result in report.subjects(SH.resultSeverity, SH.Violation):
        focus = report.value(result, SH.focusNode)
        path = report.value(result, SH.resultPath)
        msg = report.value(result, SH.resultMessage)
        out.append(f"{focus} {path or ''}: {msg}")
    return sorted(out)
