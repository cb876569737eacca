"""Drug names and ids imported from drug-named-entity-recognition: no parsing leftovers,
no drug-class MeSH ids passed off as a drug's own descriptor."""

from __future__ import annotations

import pytest

from knowledge_graphs.builders.medical import name_artefact


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("otherbrufen", "heading"),
        ("otheraronix", "heading"),
        ("otherrizuderm", "heading"),
        ("alcohol,", "punctuation"),
        (", vusion", "punctuation"),
        ("guardium acid reflux control and ventra", "truncated"),
        ("and veldex", "conjunction"),
        ("mayzent&lt;ref name=&quot;fda pr&quot; /&gt;", "markup"),
        ("publisher = drugs.com}}&lt;/ref&gt;", "markup"),
    ],
    ids=lambda x: x[:24],
)
def test_parsing_leftovers_are_recognised(name, why):
    assert why in (name_artefact(name) or "")


@pytest.mark.parametrize(
    "name",
    ["brufen", "advil", "acetic acid, phenyl-", "otherwise", "amoxicillin and clavulanate"],
)
def test_real_names_are_kept(name):
    assert name_artefact(name) is None


def test_no_shipped_drug_name_is_a_leftover(kb):
    bad = [
        (e.id, n)
        for e in kb.entities.values()
        if e.domain == "medical" and e.type == "Drug"
        for n in (*e.aliases, *e.attrs.get("brands", []))
        if name_artefact(n)
    ]
    bad += [
        (f.subject, f.literal)
        for f in kb.facts
        if f.predicate == "brandName" and name_artefact(f.literal or "")
    ]
    assert bad == []


def test_no_drug_class_mesh_ids(kb):
    """The package's mesh_id is a class descriptor (aspirin and acetaminophen -> D058633)."""
    mesh = [f for f in kb.facts if f.predicate == "meshId"]
    by_id: dict[str, set[str]] = {}
    for f in mesh:
        by_id.setdefault(f.literal or "", set()).add(f.subject)
    assert not [m for m, drugs in by_id.items() if len(drugs) > 1]
    assert all("mesh_id" not in e.attrs for e in kb.entities.values())
