"""Medical graph: drugs from drug-named-entity-recognition, conditions from ICD-10-CM,
curated doses, frequencies, interactions and indications from FDA labelling."""

from __future__ import annotations

import bz2
import pickle
import re
from importlib import resources
from typing import Any

from knowledge_graphs.builders.common import GraphBuilder, package_source
from knowledge_graphs.builders.curated import (
    ConditionIn,
    DoseIn,
    DrugClassIn,
    DrugIn,
    FrequencyIn,
    IndicationIn,
    InteractionIn,
    RxOnlyIn,
    ScheduleIn,
    WashoutIn,
    load_entries,
    require_source,
)
from knowledge_graphs.builders.quotes import (
    check_dose_role,
    check_interaction_section,
    require_quote,
)
from knowledge_graphs.errors import DataError

_ALIAS_ZIPF = 3.9  # package variants this frequent in English ("caps", "relief") are not linked
_NAME_ZIPF = 4.5  # canonical names this frequent ("water", "iron") only when facts exist
_MIN_ALIAS_LEN = 4  # shorter package variants ("apap", "hctz" excepted below) link too eagerly
_SHORT_ALIASES_KEPT = {"apap", "hctz", "asa", "ppi"}


# Names in the package that are parsing leftovers, not names: a truncated product name.
_TRUNCATED = frozenset({"guardium acid reflux control and ventra"})
_DANGLING = frozenset({"and", "or", "with", "of", "for", "the", "&"})


def name_artefact(name: str) -> str | None:
    """Why a package drug name is a parsing leftover, or None for a real name.

    >>> name_artefact("otherbrufen")
    "'Other brands' heading glued to the name"
    >>> name_artefact("alcohol,")
    'stray punctuation at an end'
    >>> name_artefact("mayzent&lt;ref name=&quot;fda pr&quot; /&gt;")
    'wiki markup left in the name'
    >>> name_artefact("brufen") is None
    True
    """
    n = name.strip().lower()
    if re.match(r"^other[a-z]", n) and n not in _OTHER_WORDS:
        return "'Other brands' heading glued to the name"
    if re.search(r"&(?:lt|gt|quot|amp|nbsp);|\{\{|\}\}|^[a-z][a-z -]*\s*=", n):
        return "wiki markup left in the name"
    if re.search(r"^[,;]|[,;]$", n):
        return "stray punctuation at an end"
    words = n.split()
    if len(words) > 1 and (words[-1] in _DANGLING or words[0] in _DANGLING - {"the"}):
        return "name cut off at a conjunction"
    if n in _TRUNCATED:
        return "truncated product name"
    return None


_OTHER_WORDS = frozenset({"otherwise"})


def _drug_dictionary() -> dict[str, Any]:
    path = resources.files("drug_named_entity_recognition").joinpath("drug_ner_dictionary.pkl.bz2")
    # The package ships its dictionary as a pickle; it is the package's own data file,
    # loaded once at build time (never at audit time: the cache is JSON).
    with path.open("rb") as raw, bz2.open(raw) as f:
        return pickle.load(f)


_FUNCTION_WORDS = frozenset({"a", "an", "and", "as", "at", "by", "for", "from", "if", "in", "into",
                             "is", "it", "no", "not", "of", "off", "on", "or", "out", "over",
                             "per", "so", "than", "that", "the", "then", "this", "to", "up",
                             "with"})  # fmt: skip


def only_function_words(name: str) -> bool:
    """A variant made of function words and numbers only ("at 10", a code name of
    dihydrotachysterol) reads as ordinary text ("start at 10 mg daily"): it is not linked.

    >>> only_function_words("at 10")
    True
    >>> only_function_words("all clear")
    False
    >>> only_function_words("6 mp")
    False
    """
    words = name.replace(",", " ").split()
    return len(words) > 1 and all(
        w in _FUNCTION_WORDS or w.replace(".", "").isdigit() for w in words
    )


def _common_word(name: str, threshold: float) -> bool:
    """A name that is an everyday English word (wordfreq Zipf frequency at or above threshold)."""
    from wordfreq import zipf_frequency

    return " " not in name and zipf_frequency(name, "en") >= threshold


class DrugResolver:
    """Maps a curated drug name to the id of its entity."""

    def __init__(self, canonical: dict[str, Any], variants: dict[str, list[str]]) -> None:
        self.canonical = canonical
        self.variants = variants
        self.extra: set[str] = set()

    def resolve(self, name: str, where: str) -> str:
        key = name.strip().lower()
        if key in self.canonical or key in self.extra:
            return f"drug:{key}"
        cands = self.variants.get(key, [])
        if len(cands) == 1:
            return f"drug:{cands[0]}"
        raise DataError(
            f"unknown drug {name!r} (not a canonical name in drug-named-entity-"
            "recognition; declare it in medical/drugs.yaml)",
            location=where,
        )


def _clean_canonical(
    canonical: dict[str, Any], variants: dict[str, list[str]]
) -> tuple[dict[str, Any], dict[str, list[str]]]:
    """Fold canonical names that are leftovers ("epoetin alfa,") into their clean twin."""
    fold = {
        k: k.strip(" ,;") for k in canonical if name_artefact(k) and k.strip(" ,;") in canonical
    }
    if not fold:
        return canonical, variants
    kept = {k: v for k, v in canonical.items() if k not in fold}
    remapped = {v: list(dict.fromkeys(fold.get(c, c) for c in cs)) for v, cs in variants.items()}
    return kept, remapped


def build_medical() -> GraphBuilder:
    g = GraphBuilder("medical")
    data = _drug_dictionary()
    canonical, variants = _clean_canonical(
        data["drug_canonical_to_data"], data["drug_variant_to_canonical"]
    )
    variant_data: dict[str, Any] = data.get("drug_variant_to_variant_data", {})
    src = package_source(
        "drug-named-entity-recognition", "Drug Named Entity Recognition dictionary"
    )

    aliases: dict[str, list[str]] = {c: [] for c in canonical}
    brands: dict[str, list[str]] = {c: [] for c in canonical}
    for variant, canon_list in variants.items():
        if name_artefact(variant):
            continue
        for c in canon_list:
            if c in aliases:
                aliases[c].append(variant)
                if variant_data.get(variant, {}).get("is_brand"):
                    brands[c].append(variant)
    for key, d in canonical.items():
        # The package's mesh_id is a drug-CLASS descriptor (aspirin and acetaminophen both
        # D058633 "Antipyretics"), not the drug's own: it is not imported.
        attrs = {k: d[k] for k in ("drugbank_id", "medline_plus_id") if d.get(k)}
        kept = [
            a
            for a in aliases[key]
            if (len(a) >= _MIN_ALIAS_LEN or a in _SHORT_ALIASES_KEPT)
            and not _common_word(a, _ALIAS_ZIPF)
            and not only_function_words(a)
        ]
        if _common_word(key, _NAME_ZIPF):
            attrs["common_word"] = True  # "water", "oxygen": linked only when the graph knows facts
        if brands[key]:
            attrs["brands"] = sorted(set(brands[key]))
        g.entity(f"drug:{key}", "Drug", d.get("name") or key, [key, *kept], attrs, src)
        did = f"drug:{key}"
        if d.get("drugbank_id"):
            g.fact(did, "drugbankId", src, literal=d["drugbank_id"])
        for b in sorted(set(brands[key])):
            g.fact(did, "brandName", src, literal=b)

    resolver = DrugResolver(canonical, variants)
    _add_extra_drugs(g, resolver)
    _add_conditions(g)
    _add_doses(g, resolver)
    _add_frequencies(g, resolver)
    classes = _add_interactions(g, resolver)
    _add_washouts(g, resolver, classes)
    _add_legal_status(g, resolver)
    _add_indications(g, resolver)
    g.check_references()
    return g


def _add_extra_drugs(g: GraphBuilder, r: DrugResolver) -> None:
    for i, item in enumerate(load_entries("medical/drugs.yaml", DrugIn)):
        where = f"medical/drugs.yaml: entry {i + 1} ({item.drug})"
        src = require_source(item, where)
        key = item.drug.strip().lower()
        if key not in r.canonical:
            r.extra.add(key)
        did = f"drug:{key}"
        g.entity(did, "Drug", item.drug, [key, *item.aliases, *item.brands], None, src)
        for b in item.brands:
            g.fact(did, "brandName", src, literal=b.lower())
        if item.withdrawn:
            g.fact(did, "withdrawn", src, date=item.withdrawn, valid_from=item.withdrawn)


def _add_conditions(g: GraphBuilder) -> None:
    import simple_icd_10_cm as cm

    src = package_source(
        "simple-icd-10-cm",
        "ICD-10-CM (CDC/CMS), via simple-icd-10-cm",
        "https://www.cdc.gov/nchs/icd/icd-10-cm/",
    )
    for code in cm.get_all_codes(True):
        if cm.is_category(code) or (cm.is_subcategory(code) and len(code) <= 5):
            desc = cm.get_description(code)
            g.entity(f"condition:{code}", "Condition", desc, [], {"icd10cm": code}, src)
    for i, item in enumerate(load_entries("medical/conditions.yaml", ConditionIn)):
        _condition(
            g, item.code, f"medical/conditions.yaml: entry {i + 1} ({item.code})", item.aliases
        )


def _condition(g: GraphBuilder, code: str, where: str, aliases: list[str] | None = None) -> str:
    import simple_icd_10_cm as cm

    if not cm.is_valid_item(code):
        raise DataError(f"{code!r} is not a valid ICD-10-CM code", location=where)
    cid = f"condition:{cm.add_dot(code) if '.' not in code and len(code) > 3 else code}"
    src = package_source(
        "simple-icd-10-cm",
        "ICD-10-CM (CDC/CMS), via simple-icd-10-cm",
        "https://www.cdc.gov/nchs/icd/icd-10-cm/",
    )
    g.entity(cid, "Condition", cm.get_description(code), aliases or [], {"icd10cm": code}, src)
    return cid


def _add_doses(g: GraphBuilder, r: DrugResolver) -> None:
    for i, d in enumerate(load_entries("medical/doses.yaml", DoseIn)):
        where = f"medical/doses.yaml: entry {i + 1} ({d.drug})"
        did = r.resolve(d.drug, where)
        require_quote(d, "maxDose", where)
        check_dose_role(d, where)
        q = {
            "per": d.per,
            "route": d.route,
            "status": d.status,
            "population": d.population,
            "indication": d.indication,
            "product": d.product,
            "kind": d.kind,
            "note": d.note,
            "co_medication": ", ".join(d.with_drugs) or None,
            "strength_specific": "true" if d.strength_specific else None,
            **d.quote_qualifiers(),
        }
        if d.kind == "usual_range":
            g.fact(
                did,
                "maxDose",
                require_source(d, where),
                value=d.min if d.min is not None else d.max,
                value_max=d.max,
                unit=d.unit,
                qualifiers=q,
            )
        else:
            g.fact(did, "maxDose", require_source(d, where), value=d.max, unit=d.unit, qualifiers=q)


def _add_frequencies(g: GraphBuilder, r: DrugResolver) -> None:
    for i, f in enumerate(load_entries("medical/frequency.yaml", FrequencyIn)):
        where = f"medical/frequency.yaml: entry {i + 1} ({f.drug})"
        g.fact(
            r.resolve(f.drug, where),
            "dosingFrequency",
            require_source(f, where),
            literal=f.frequency,
            qualifiers={"indication": f.indication, "error": f.error, **f.quote_qualifiers()},
        )


def _add_interactions(g: GraphBuilder, r: DrugResolver) -> dict[str, list[str]]:
    classes: dict[str, list[str]] = {}
    for i, c in enumerate(load_entries("medical/classes.yaml", DrugClassIn)):
        where = f"medical/classes.yaml: entry {i + 1} ({c.id})"
        src = require_source(c, where)
        cid = f"drugclass:{c.id}"
        g.entity(cid, "DrugClass", c.label, c.aliases, None, src)
        classes[c.id] = []
        for m in c.members:
            did = r.resolve(m, where)
            classes[c.id].append(did)
            g.fact(did, "memberOf", src, object=cid)
    for i, it in enumerate(load_entries("medical/interactions.yaml", InteractionIn)):
        where = f"medical/interactions.yaml: entry {i + 1} ({it.a} + {it.b})"
        src = require_source(it, where)
        require_quote(it, "interaction", where)
        check_interaction_section(it, where)
        side_a = _expand(it.a, classes, r, where)
        side_b = _expand(it.b, classes, r, where)
        for a, via_a in side_a:
            for b, via_b in side_b:
                if a == b:
                    continue
                lo, hi = sorted((a, b))
                via = ",".join(v for v in (via_a, via_b) if v)
                g.fact(
                    lo,
                    "interactsWith",
                    src,
                    object=hi,
                    qualifiers={
                        "severity": it.severity,
                        "effect": it.effect,
                        "via_class": via,
                        "condition": it.condition,
                        **it.quote_qualifiers(),
                    },
                )
    return classes


def _add_washouts(g: GraphBuilder, r: DrugResolver, classes: dict[str, list[str]]) -> None:
    """``washoutBefore``: stopped drug → started drug, the label's minimum interval."""
    for i, w in enumerate(load_entries("medical/washouts.yaml", WashoutIn)):
        where = f"medical/washouts.yaml: entry {i + 1} ({w.stop} → {w.start})"
        src = require_source(w, where)
        require_quote(w, "washout", where)
        for a, via_a in _expand(w.stop, classes, r, where):
            for b, via_b in _expand(w.start, classes, r, where):
                if a == b:
                    continue
                g.fact(
                    a,
                    "washoutBefore",
                    src,
                    object=b,
                    value=w.min,
                    unit=w.unit,
                    qualifiers={
                        "via_class": ",".join(v for v in (via_a, via_b) if v),
                        **w.quote_qualifiers(),
                    },
                )


def _add_legal_status(g: GraphBuilder, r: DrugResolver) -> None:
    """``controlledSchedule`` (DEA schedule over time) and ``prescriptionStatus`` (Rx only)."""
    path = "medical/legal_status.yaml"
    for i, s in enumerate(load_entries(path, ScheduleIn, key="schedules")):
        where = f"{path}: schedules entry {i + 1} ({s.drug})"
        if s.from_ and s.until and s.from_ >= s.until:
            raise DataError("'from' is not before 'until'", location=where)
        g.fact(
            r.resolve(s.drug, where),
            "controlledSchedule",
            require_source(s, where),
            literal=s.schedule,
            valid_from=s.from_,
            valid_to=s.until,
            qualifiers=s.quote_qualifiers(),
        )
    for i, x in enumerate(load_entries(path, RxOnlyIn, key="rx_only")):
        where = f"{path}: rx_only entry {i + 1}"
        src = require_source(x, where)
        for d in x.drugs:
            g.fact(r.resolve(d, where), "prescriptionStatus", src, literal="rx-only")


def _expand(
    name: str, classes: dict[str, list[str]], r: DrugResolver, where: str
) -> list[tuple[str, str]]:
    if name.startswith("class:"):
        key = name.removeprefix("class:")
        if key not in classes:
            raise DataError(f"unknown drug class {key!r}", location=where)
        return [(d, key) for d in classes[key]]
    return [(r.resolve(name, where), "")]


def _add_indications(g: GraphBuilder, r: DrugResolver) -> None:
    for i, it in enumerate(load_entries("medical/indications.yaml", IndicationIn)):
        where = f"medical/indications.yaml: entry {i + 1} ({it.drug})"
        cid = _condition(g, it.condition, where)
        g.fact(
            r.resolve(it.drug, where),
            "indicatedFor",
            require_source(it, where),
            object=cid,
            qualifiers={"label_text": it.label_text, **it.quote_qualifiers()},
        )
