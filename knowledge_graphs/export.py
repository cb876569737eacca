"""Write graphs as Turtle or N-Triples that other RDF tools (rdflib, Oxigraph) read back.

Instance IRIs (``https://kgaudit.dev/id/...``) are written in full, never as ``kgr:`` prefixed
names: keys such as ``F.C.C.`` or ``Hen. & M.`` would need backslash escapes in a prefixed
name (``kgr:reporter\\/F.C.C\\.``), which are valid Turtle but rejected by rdflib's parser.
Only the ontology prefix ``kga:`` is used; its local names are plain identifiers.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Literal

from knowledge_graphs.model import Entity, Fact

FORMATS = ("turtle", "nt")


def export_graph(
    entities: Iterable[Entity],
    facts: Iterable[Fact],
    path: Path,
    fmt: Literal["turtle", "nt"] = "turtle",
) -> int:
    """Write the records to ``path``; returns the number of triples written."""
    import pyoxigraph as ox

    from knowledge_graphs.rdf import KGA, to_store

    if fmt not in FORMATS:
        raise ValueError(f"unknown export format {fmt!r}; expected one of {', '.join(FORMATS)}")
    store = to_store(entities, facts, with_ontology=False)
    store.dump(
        str(path),
        format=ox.RdfFormat.TURTLE if fmt == "turtle" else ox.RdfFormat.N_TRIPLES,
        from_graph=ox.DefaultGraph(),
        prefixes={"kga": str(KGA)},
    )
    return len(store)
