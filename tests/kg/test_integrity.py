"""Integrity of the shipped graphs: provenance, validity intervals, ids, ontology coverage,
and the minimum contents the foundation issue requires."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest

from knowledge_graphs.rdf import declared_properties, relations

REQUIRED_DRUGS = [
    "acetaminophen",
    "ibuprofen",
    "naproxen",
    "aspirin",
    "diphenhydramine",
    "loratadine",
    "cetirizine",
    "pseudoephedrine",
    "loperamide",
    "famotidine",
    "omeprazole",
    "metformin",
    "atorvastatin",
    "simvastatin",
    "rosuvastatin",
    "pravastatin",
    "lisinopril",
    "losartan",
    "amlodipine",
    "hydrochlorothiazide",
    "metoprolol",
    "warfarin",
    "clopidogrel",
    "sertraline",
    "citalopram",
    "escitalopram",
    "fluoxetine",
    "gabapentin",
    "tramadol",
    "colchicine",
    "allopurinol",
    "methotrexate",
    "sildenafil",
    "nitroglycerin",
    "clarithromycin",
    "montelukast",
    "zolpidem",
    "levothyroxine",
    "prednisone",
    "amoxicillin",
]

REQUIRED_CASES = [
    "Marbury v. Madison",
    "McCulloch v. Maryland",
    "Plessy v. Ferguson",
    "Lochner v. New York",
    "Korematsu v. United States",
    "Brown v. Board of Education",
    "Mapp v. Ohio",
    "Gideon v. Wainwright",
    "New York Times Co. v. Sullivan",
    "Griswold v. Connecticut",
    "Miranda v. Arizona",
    "Loving v. Virginia",
    "Terry v. Ohio",
    "Katz v. United States",
    "Brandenburg v. Ohio",
    "Roe v. Wade",
    "United States v. Nixon",
    "Buckley v. Valeo",
    "Regents of the University of California v. Bakke",
    "Chevron U.S.A. v. Natural Resources Defense Council",
    "Strickland v. Washington",
    "Batson v. Kentucky",
    "Bowers v. Hardwick",
    "Celotex Corp. v. Catrett",
    "Anderson v. Liberty Lobby",
    "Texas v. Johnson",
    "Planned Parenthood v. Casey",
    "Lujan v. Defenders of Wildlife",
    "Daubert v. Merrell Dow Pharmaceuticals",
    "United States v. Lopez",
    "Bush v. Gore",
    "Lawrence v. Texas",
    "Grutter v. Bollinger",
    "Crawford v. Washington",
    "United States v. Booker",
    "Kelo v. City of New London",
    "Bell Atlantic Corp. v. Twombly",
    "District of Columbia v. Heller",
    "Ashcroft v. Iqbal",
    "Citizens United v. FEC",
    "Shelby County v. Holder",
    "Obergefell v. Hodges",
    "Dobbs v. Jackson Women's Health Organization",
    "Loper Bright Enterprises v. Raimondo",
]


def test_every_fact_has_a_source(kb):
    missing = [f.id for f in kb.facts if not f.source or not f.source.document]
    assert missing == []


def test_curated_facts_have_checkable_urls(kb):
    package_derived = {
        "drugbankId",
        "meshId",
        "brandName",
        "currency",
        "courtExists",
        "editionStart",
        "editionEnd",
    }
    no_url = [f.id for f in kb.facts if f.predicate not in package_derived and not f.source.url]
    assert no_url == []


def test_validity_intervals_are_ordered(kb):
    bad = [f.id for f in kb.facts if f.valid_from and f.valid_to and f.valid_from > f.valid_to]
    assert bad == []


def test_fact_ids_are_unique(kb):
    dupes = [i for i, n in Counter(f.id for f in kb.facts).items() if n > 1]
    assert dupes == []


def test_fact_references_resolve(kb):
    dangling = [f.id for f in kb.facts for r in (f.subject, f.object) if r and r not in kb.entities]
    assert dangling == []


def test_every_relation_and_qualifier_is_declared_in_the_ontology(kb):
    from knowledge_graphs.rdf import camel

    rels = relations()
    assert {f.predicate for f in kb.facts} <= set(rels)
    quals = declared_properties("qualifier")
    used = {camel(k) for f in kb.facts for k in f.qualifiers}
    assert used <= quals, used - quals
    attrs = declared_properties("attribute")
    used_attrs = {camel(k) for e in kb.entities.values() for k in e.attrs}
    assert used_attrs <= attrs, used_attrs - attrs


def test_rule_relations_and_types_exist_in_the_ontology(ruleset):
    from rdflib.namespace import OWL, RDF

    from knowledge_graphs.rdf import KGA, ontology

    rels = relations()
    classes = {str(c).removeprefix(str(KGA)) for c in ontology().subjects(RDF.type, OWL.Class)}
    for pack in ruleset.packs:
        for r in pack.rules:
            rel = r.applies_to.relation
            if rel and r.check.type not in {"brand_generic", "citation_validity"}:
                assert rel in rels, f"{r.id}: relation {rel} not in ontology"
            for role in r.check.date_role:
                assert role in rels, f"{r.id}: date role {role} not in ontology"
            for t in (*r.applies_to.subject_types, *r.applies_to.object_types):
                assert t in classes, f"{r.id}: type {t} not in ontology"


@pytest.mark.parametrize("drug", REQUIRED_DRUGS)
def test_required_drug_has_a_sourced_dose(kb, drug):
    facts = kb.facts_about(f"drug:{drug}", "maxDose")
    assert facts, f"{drug} has no maxDose fact"
    assert all(f.source.url for f in facts)


@pytest.mark.parametrize("name", REQUIRED_CASES)
def test_required_case_is_present_with_citation_and_date(kb, name):
    from auditor.verify.legal.index import LegalIndex, tokens

    ix = LegalIndex.build(kb)
    cid = ix.by_name.get(" ".join(tokens(name)))
    assert cid, f"{name} not found by name"
    assert kb.facts_about(cid, "citation")
    assert kb.facts_about(cid, "decided")


def test_minimum_counts(kb):
    stats = kb.stats()
    med, fin, leg = stats["medical"], stats["finance"], stats["legal"]
    assert med["subjects_per_family"]["maxDose"] >= 150
    assert med["facts_per_family"]["interactsWith"] >= 100
    assert med["facts_per_family"]["indicatedFor"] >= 100
    assert leg["entities_per_type"]["Case"] >= 150
    assert leg["entities_per_type"]["Statute"] >= 20
    assert leg["entities_per_type"]["Reporter"] >= 1000
    assert leg["entities_per_type"]["Court"] >= 2000
    assert fin["facts_per_family"]["policyRate"] >= 40
    assert fin["facts_per_family"]["currency"] >= 200


def test_fomc_series_is_continuous(kb):
    facts = sorted(
        kb.facts_about("rate:fed-funds-target", "policyRate"), key=lambda f: f.valid_from
    )
    for a, b in itertools.pairwise(facts):
        assert a.valid_to == b.valid_from
    assert facts[-1].valid_to is None and facts[-1].qualifiers.get("verified_through")


def test_ecb_corridor_is_ordered(kb):
    series = {
        s: kb.facts_about(f"rate:{s}", "policyRate")
        for s in ("ecb-deposit-facility", "ecb-main-refinancing", "ecb-marginal-lending")
    }
    days = sorted({f.valid_from for fs in series.values() for f in fs})
    for day in days:
        vals = []
        for s in ("ecb-deposit-facility", "ecb-main-refinancing", "ecb-marginal-lending"):
            now = [f for f in series[s] if f.valid_at(day)]
            assert len(now) == 1, (s, day)
            vals.append(now[0].value)
        assert vals[0] < vals[1] < vals[2], (day, vals)


def test_croatia_changeover(kb):
    from datetime import date

    links = kb.facts_about("country:HR", "currency")
    assert {f.object for f in links if f.valid_at(date(2022, 6, 1))} == {"currency:HRK"}
    assert {f.object for f in links if f.valid_at(date(2023, 6, 1))} == {"currency:EUR"}


def test_overruling_is_later_than_overruled(kb):
    for f in kb.facts:
        if f.predicate == "overruledBy":
            a = kb.entities[f.subject].attrs["year"]
            b = kb.entities[f.object].attrs["year"]
            assert b >= a, (f.subject, f.object)
