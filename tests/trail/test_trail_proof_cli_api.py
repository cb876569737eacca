"""Proofs through ``kgaudit trail prove / check-proof`` (exit codes) and the REST API."""

from __future__ import annotations

import base64
import json
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, NoEncryption, PrivateFormat
from fastapi.testclient import TestClient

from auditor.settings import Settings, get_settings
from services.api import create_app
from services.api.keys import KeyStore
from services.cli.main import main
from trail import Trail
from trail.proofs import check_document
from trail.testing import fake_audit, fake_result
from trail.tree_heads import load_public_key


@pytest.fixture
def cli_env(db_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("KGAUDIT_HOME", str(tmp_path))
    monkeypatch.setenv("KGAUDIT_DATABASE_URL", db_url)
    monkeypatch.delenv("KGAUDIT_TREE_KEY", raising=False)
    get_settings.cache_clear()
    yield tmp_path
    get_settings.cache_clear()


def test_prove_and_check_proof_exit_codes(
    cli_env: Path, db_url: str, capsys: pytest.CaptureFixture
) -> None:
    assert main(["trail", "tree-keygen"]) == 0
    assert "BEGIN PUBLIC KEY" in capsys.readouterr().out
    assert (cli_env / "tree_key.pem").stat().st_mode & 0o777 == 0o600
    assert main(["trail", "tree-keygen"]) == 2  # never overwrites a key
    pub = cli_env / "pub.pem"
    assert main(["trail", "public-key", "--out", str(pub)]) == 0
    trail = Trail(db_url)
    ids = [trail.record(fake_result(), text=f"t{i}", tenant="acme").id for i in range(5)]
    proof, cons = cli_env / "proof.json", cli_env / "cons.json"
    assert main(["trail", "prove", ids[3], "--out", str(proof)]) == 0
    assert main(["trail", "check-proof", str(proof), "--public-key", str(pub)]) == 0
    assert "verifies" in capsys.readouterr().out
    trail.record(fake_result(), text="later", tenant="acme")
    assert main(["trail", "sign-head"]) == 0
    assert main(["trail", "prove", "--from", "5", "--out", str(cons)]) == 0
    heads = cli_env / "tree_heads.jsonl"  # the exported heads: the log outside the database
    assert len(heads.read_text().splitlines()) == 2
    check = ["trail", "check-proof", str(cons), "--public-key", str(pub)]
    assert main([*check, "--head", str(heads)]) == 0
    doc = json.loads(proof.read_text())
    doc["event"]["tenant_id"] = "beta"
    forged = cli_env / "forged.json"
    forged.write_text(json.dumps(doc))
    assert main(["trail", "check-proof", str(forged), "--public-key", str(pub)]) == 1
    other = Ed25519PrivateKey.generate().public_key().public_bytes_raw().hex()
    assert main(["trail", "check-proof", str(proof), "--public-key", other]) == 1
    (cli_env / "junk.json").write_text("{not json")
    assert main(["trail", "check-proof", str(cli_env / "junk.json"), "--public-key", str(pub)]) == 2
    assert main(["trail", "check-proof", str(proof), "--public-key", "nonsense"]) == 2
    assert (
        main(["trail", "check-proof", str(cli_env / "absent.json"), "--public-key", str(pub)]) == 2
    )
    assert main(["trail", "prove"]) == 2
    assert main(["trail", "prove", "not-an-id"]) == 2
    trail.close()


def test_proof_routes_and_tenant_isolation(db_url: str, tmp_path: Path) -> None:
    seed = Ed25519PrivateKey.generate()
    raw = seed.private_bytes(Encoding.Raw, PrivateFormat.Raw, NoEncryption())
    settings = Settings(
        home=tmp_path,
        database_url=db_url,
        tree_key=base64.urlsafe_b64encode(raw).decode(),
        rate_limit_per_minute=100_000,
    )
    trail = Trail.from_settings(settings)
    client = TestClient(create_app(settings, trail=trail, audit_fn=fake_audit))
    keys = KeyStore(trail)
    acme = {"Authorization": f"Bearer {keys.create(tenant='acme', role='auditor')[1]}"}
    beta = {"Authorization": f"Bearer {keys.create(tenant='beta', role='auditor')[1]}"}
    ids = []
    for i in range(4):
        r = client.post("/v1/audits", json={"text": f"text {i}", "domain": "medical"}, headers=acme)
        assert r.status_code == 201
        ids.append(r.json()["id"])
    pem = client.get("/v1/trail/public-key", headers=acme).json()["public_key_pem"]
    public = load_public_key(pem)
    r = client.get(f"/v1/audits/{ids[1]}/proof", headers=acme)
    assert r.status_code == 200 and check_document(r.json(), public) == []
    assert r.json()["tree_head"]["tree_size"] == 4
    assert client.get(f"/v1/audits/{ids[1]}/proof", headers=beta).status_code == 404
    assert client.get(f"/v1/audits/{ids[1]}/proof").status_code == 401
    client.post("/v1/audits", json={"text": "more", "domain": "medical"}, headers=beta)
    client.get(f"/v1/audits/{ids[0]}/proof", headers=acme)  # size 4 still covers it
    r = client.get("/v1/trail/consistency", params={"from": 2, "to": 4}, headers=acme)
    assert r.status_code == 200 and r.json()["proof"]
    assert check_document(r.json(), public) == [
        "no signed tree head of size 2 vouches for the first root"
    ]
    assert (
        client.get("/v1/trail/consistency", params={"from": 3, "to": 2}, headers=acme).status_code
        == 422
    )
    assert client.get("/v1/trail/consistency", params={"from": -1}, headers=acme).status_code == 422
    heads = client.get("/v1/trail/tree-heads", headers=acme).json()
    assert [h["tree_size"] for h in heads] == [4]
    client.close()
    trail.close()
