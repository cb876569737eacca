"""The CLI as users run it: exit codes, one-sentence errors, JSON outputs."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest


def kgaudit(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "services.cli.main", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=300,
    )


@pytest.mark.slow
def test_kg_stats_json_shows_the_minimum_counts():
    r = kgaudit("kg", "stats", "--format", "json")
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    med = doc["domains"]["medical"]
    assert med["subjects_per_family"]["maxDose"] >= 150
    assert med["facts_per_family"]["interactsWith"] >= 100
    assert med["facts_per_family"]["indicatedFor"] >= 100
    assert doc["domains"]["legal"]["entities_per_type"]["Case"] >= 150
    assert all(d["facts_without_source"] == 0 for d in doc["domains"].values())


@pytest.mark.slow
def test_kg_query_sparql():
    r = kgaudit(
        "kg",
        "query",
        "--domain",
        "legal",
        "--format",
        "json",
        "SELECT ?year WHERE { ?f kga:subject <https://kgaudit.dev/id/case/347%20U.S.%20483> ; "
        "kga:predicate kga:decided ; kga:value ?year }",
    )
    assert r.returncode == 0, r.stderr
    assert [float(row["year"]) for row in json.loads(r.stdout)] == [1954.0]


@pytest.mark.slow
def test_kg_query_bad_sparql_is_exit_2():
    r = kgaudit("kg", "query", "--domain", "legal", "SELECT ?x WHERE {")
    assert (
        r.returncode == 2 and "SPARQL query is invalid" in r.stderr and "Traceback" not in r.stderr
    )


def test_kg_validate_rejects_malformed_turtle(tmp_path):
    bad = tmp_path / "bad.ttl"
    bad.write_text("@prefix kga: <https://kgaudit.dev/ontology#> .\n<a> <b> .\n")
    r = kgaudit("kg", "validate", "--domain", "medical", str(bad))
    assert r.returncode == 2 and f"{bad}:" in r.stderr and "Traceback" not in r.stderr


@pytest.mark.slow
def test_rules_validate_shipped_packs_with_examples():
    r = kgaudit("rules", "validate")
    assert r.returncode == 0, r.stderr
    assert "all rule examples behave as declared" in r.stdout


def test_rules_validate_bad_pack_names_file_rule_field(tmp_path):
    p = tmp_path / "bad.yaml"
    p.write_text(
        "pack: x\ndomain: medical\nversion: 1.0.0\ndescription: d\nrules:\n"
        "  - id: XX-ONE\n    title: a title\n    severity: extreme\n"
    )
    r = kgaudit("rules", "validate", str(p))
    assert r.returncode == 2
    assert str(p) in r.stderr and "rule XX-ONE" in r.stderr and "'severity'" in r.stderr


@pytest.mark.slow
@pytest.mark.parametrize(
    ("args", "stdin", "code"),
    [
        (
            ["audit", "-", "--domain", "medical"],
            "Adults may take 8,000 mg of acetaminophen a day at most.",
            0,
        ),
        (
            ["audit", "-", "--domain", "medical", "--fail-over-fer", "0.1"],
            "Adults may take 8,000 mg of acetaminophen a day at most.",
            1,
        ),
        (["audit", "-", "--domain", "nope"], "x", 2),
        (["audit", "/does/not/exist", "--domain", "medical"], None, 2),
        (["audit", "-", "--domain", "medical", "--as-of", "2024-02-30"], "x", 2),
        (["audit", "-", "--domain", "medical"], "", 0),
    ],
    ids=["ok", "gate", "bad-domain", "missing-file", "bad-date", "empty"],
)
def test_audit_exit_codes(args, stdin, code):
    r = kgaudit(*args, stdin=stdin)
    assert r.returncode == code, r.stderr
    assert "Traceback" not in r.stderr


def test_audit_rejects_non_utf8(tmp_path):
    p = tmp_path / "latin1.txt"
    p.write_bytes("caf\xe9 dose".encode("latin-1"))
    r = kgaudit("audit", str(p), "--domain", "medical")
    assert r.returncode == 2 and "not UTF-8" in r.stderr


@pytest.mark.slow
def test_audit_json_output_is_the_contract():
    r = kgaudit(
        "audit",
        "-",
        "--domain",
        "legal",
        "--format",
        "json",
        "--as-of",
        "2025-01-01",
        stdin="Miranda v. Arizona, 384 U.S. 436 (1965), requires warnings.",
    )
    doc = json.loads(r.stdout)
    assert doc["counts"]["contradicted"] == 1
    assert doc["claims"][0]["hallucination_type"] == "wrong_date"
