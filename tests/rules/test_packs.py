"""Rule packs: schema, clear load errors, and every rule's examples (fires / passes)."""

from __future__ import annotations

from pathlib import Path

import pytest

from knowledge_graphs.errors import DataError
from rules.loader import load_pack, load_rules, shipped_pack_files

GOOD_RULE = """
  - id: HOUSE-DOSE-1
    title: House limit for zorblatin
    severity: high
    citation: {text: "House formulary section 3", url: "https://example.org/formulary"}
    applies_to: {subject_types: [Drug], relation: maxDose, object: quantity, dimensions: [mass]}
    cues: ["max(?:imum)?"]
    check: {type: kg_quantity}
    hallucination_type: numeric_error
    examples: {fires: ["x"], passes: ["y"]}
"""


def _pack(tmp_path: Path, body: str) -> Path:
    p = tmp_path / "house.yaml"
    p.write_text("pack: house\ndomain: medical\nversion: 1.0.0\ndescription: d\nrules:" + body)
    return p


def test_shipped_packs_validate():
    rs = load_rules()
    assert {p.domain for p in rs.packs} == {"finance", "medical", "legal"}
    assert rs.version.startswith("rules-")
    for p in rs.packs:
        for r in p.rules:
            assert r.citation.url.startswith("http")
            assert r.examples.fires and r.examples.passes


def test_user_pack_is_added(tmp_path):
    rs = load_rules([_pack(tmp_path, GOOD_RULE)])
    assert rs.rule("HOUSE-DOSE-1") is not None
    assert rs.version != load_rules().version


@pytest.mark.parametrize(
    ("mutation", "field"),
    [
        (("severity: high", "severity: extreme"), "severity"),
        (('url: "https://example.org/formulary"', 'url: "ftp://x"'), "citation.url"),
        (("object: quantity", "object: vibes"), "applies_to.object"),
        (('cues: ["max(?:imum)?"]', 'cues: ["max("]'), "cues"),
        (
            ("hallucination_type: numeric_error", "hallucination_type: nonsense"),
            "hallucination_type",
        ),
    ],
    ids=["severity", "citation-url", "object-kind", "bad-regex", "htype"],
)
def test_malformed_rule_names_file_rule_and_field(tmp_path, mutation, field):
    path = _pack(tmp_path, GOOD_RULE.replace(*mutation))
    with pytest.raises(DataError) as err:
        load_pack(path)
    msg = str(err.value)
    assert str(path) in msg and "rule HOUSE-DOSE-1" in msg and f"'{field}" in msg


def test_invalid_yaml_names_the_line(tmp_path):
    p = tmp_path / "broken.yaml"
    p.write_text("pack: x\nrules:\n  - id: [unclosed\n")
    with pytest.raises(DataError, match=r"broken.yaml:\d+"):
        load_pack(p)


def test_duplicate_rule_ids_across_packs(tmp_path):
    p = _pack(tmp_path, GOOD_RULE.replace("HOUSE-DOSE-1", "MED-DOSE-MAX"))
    with pytest.raises(DataError, match="MED-DOSE-MAX"):
        load_rules([p])


def _examples():
    from rules.loader import load_rules as lr

    rs = lr()
    for pack in rs.packs:
        for rule in pack.rules:
            for kind in ("fires", "passes"):
                for i, text in enumerate(getattr(rule.examples, kind)):
                    yield pytest.param(
                        pack.domain,
                        rule.id,
                        kind,
                        text,
                        rule.examples.as_of,
                        id=f"{rule.id}-{kind}-{i}",
                    )


@pytest.mark.parametrize(("domain", "rule_id", "kind", "text", "as_of"), list(_examples()))
def test_rule_example(auditor_obj, domain, rule_id, kind, text, as_of):
    res = auditor_obj.audit(text, domain=domain, as_of=as_of)
    mine = [c for c in res.claims if c.rule_id == rule_id]
    fired = any(c.verdict == "contradicted" for c in mine)
    if kind == "fires":
        assert fired, [c.to_dict() for c in res.claims]
    else:
        assert not fired, [c.to_dict() for c in mine]


def test_every_shipped_pack_file_is_yaml():
    assert all(p.suffix == ".yaml" for p in shipped_pack_files())


@pytest.mark.parametrize(
    ("mutation", "field"),
    [
        (("check: {type: kg_quantity}", "check: {type: kg_quantity, normalize_to: mg}"),
         "check.normalize_to"),
        (("dimensions: [mass]}", "dimensions: [mass], identifier_schemes: [isin]}"),
         "applies_to.identifier_schemes"),
    ],
    ids=["normalize_to", "identifier_schemes"],
)  # fmt: skip
def test_a_field_no_code_reads_is_refused(tmp_path, mutation, field):
    """The schema holds only what the checks read: a field set in a pack that nothing would
    act on (these two once were, silently) is an error naming it, not a no-op."""
    path = _pack(tmp_path, GOOD_RULE.replace(*mutation))
    with pytest.raises(DataError) as err:
        load_pack(path)
    assert f"'{field}" in str(err.value) and "rule HOUSE-DOSE-1" in str(err.value)
