"""The API over real HTTP: ``kgaudit serve`` in a subprocess with the real auditor, keys made
in the database; results equal in-process ``audit()``; logs hold no secrets."""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

from auditor import audit, get_auditor
from services.api.keys import KeyStore
from trail import Trail
from trail.testing import reset_trail

from ..helpers import wait_ready, wait_until

pytestmark = pytest.mark.slow
REPO = Path(__file__).resolve().parents[2]
SECRET_TEXT = (
    "Adults should not take more than 4,000 mg of acetaminophen a day. "
    "Patient Zed Quorra-5521 took ibuprofen with warfarin."
)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class Server:
    url: str
    tokens: dict[str, str]
    log: Path


def _start(db_url: str, tmp: Path) -> tuple[subprocess.Popen[bytes], Server]:
    env = {
        **os.environ,
        "KGAUDIT_DATABASE_URL": db_url,
        "KGAUDIT_RATE_LIMIT_PER_MINUTE": "100000",
        "KGAUDIT_CHECKPOINT_KEY": "Zq4mW8rT2vX6nB0cL5sH9dF3gJ7kP1yA",
    }
    trail = Trail(db_url)  # (``kgaudit keys create`` itself is tested in test_trail_cli.py)
    trail.migrate()
    keys = KeyStore(trail)
    tokens = {
        "auditor": keys.create(tenant="acme", role="auditor")[1],
        "other": keys.create(tenant="beta", role="viewer")[1],
    }
    trail.close()
    port, log = _free_port(), tmp / "server.log"
    with log.open("w") as out:
        proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "services.cli.main",
                "serve",
                "--port",
                str(port),
                "--log-level",
                "debug",
            ],
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    return proc, Server(f"http://127.0.0.1:{port}", tokens, log)


@pytest.fixture(scope="module")
def servers(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[dict[str, Server]]:
    """Both servers start at once and load their graphs while this process loads its own."""
    urls = {"sqlite": f"sqlite:///{tmp_path_factory.mktemp('http') / 'trail.db'}"}
    try:
        urls["postgres"] = request.getfixturevalue("pg_url")
        reset_trail(urls["postgres"])
    except pytest.skip.Exception:
        pass  # the postgres tests skip below, with the reason pg_url gives
    started = {name: _start(url, tmp_path_factory.mktemp(name)) for name, url in urls.items()}
    try:
        get_auditor()  # the in-process audit() the results are compared with
        for proc, server in started.values():
            wait_ready(proc, server.url, server.log)
        yield {name: server for name, (_, server) in started.items()}
    finally:
        for proc, _ in started.values():
            proc.terminate()
        for proc, _ in started.values():
            proc.wait(timeout=30)


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def server(request: pytest.FixtureRequest, servers: dict[str, Server]) -> Server:
    if request.param not in servers:
        request.getfixturevalue("pg_url")  # skips (or fails in CI) with the reason
    return servers[request.param]


def _h(server: Server, who: str = "auditor") -> dict[str, str]:
    return {"Authorization": f"Bearer {server.tokens[who]}"}


def test_audit_over_http_matches_in_process_audit(server: Server) -> None:
    body = {
        "text": SECRET_TEXT,
        "domain": "medical",
        "as_of": "2025-06-30",
        "metadata": {"model": "m"},
        "external_id": "conv-1",
    }
    with httpx.Client(base_url=server.url, timeout=60) as client:
        r = client.post("/v1/audits", json=body, headers=_h(server))
        assert r.status_code == 201, r.text
        rec = r.json()
        expected = audit(SECRET_TEXT, domain="medical", as_of="2025-06-30").to_dict()
        assert rec["result"] == expected  # deterministic, and stored/returned unchanged
        assert rec["result"]["claims"] and {c["verdict"] for c in rec["result"]["claims"]} <= {
            "supported",
            "contradicted",
            "unverifiable",
        }
        assert client.get(f"/v1/audits/{rec['id']}", headers=_h(server)).json() == rec
        replay = client.post("/v1/audits", json=body, headers=_h(server))
        assert replay.status_code == 200 and replay.json()["id"] == rec["id"]
        listed = client.get("/v1/audits?domain=medical", headers=_h(server)).json()
        assert rec["id"] in [it["id"] for it in listed["items"]]
        claims = client.get(f"/v1/audits/{rec['id']}/claims", headers=_h(server)).json()
        assert len(claims["items"]) == len(expected["claims"])
        other = client.get(f"/v1/audits/{rec['id']}", headers=_h(server, "other"))
        assert other.status_code == 404 and other.json()["error"]["code"] == "not_found"
        assert client.post("/v1/audits", json=body, headers=_h(server, "other")).status_code == 403
        verify = client.get("/v1/trail/verify", headers=_h(server)).json()
        assert verify["ok"] and verify["checked"] + verify["from_seq"] >= 1
        stats = client.get("/v1/kg/medical/stats", headers=_h(server))
        assert stats.status_code == 200 and stats.json()["facts"] > 0
        found = client.get("/v1/kg/medical/entities?q=acetaminophen", headers=_h(server))
        assert "drug:acetaminophen" in [e["id"] for e in found.json()["items"]]
        assert "kgaudit_http_requests_total" in client.get("/metrics").text
        assert client.get("/healthz").json() == {"status": "ok"}


def test_server_log_holds_no_text_and_no_keys(server: Server) -> None:
    def access_lines() -> int:
        return len(re.findall(r"(?:GET|POST) /v1/audits \d{3} ", server.log.read_text()))

    before = access_lines()
    with httpx.Client(base_url=server.url, timeout=60) as client:
        client.post("/v1/audits", json={"text": SECRET_TEXT, "domain": "legal"}, headers=_h(server))
        client.get("/v1/audits", headers={"Authorization": f"Bearer {server.tokens['auditor']}x"})
        client.post(
            "/v1/audits",
            content=b'{"text": "' + SECRET_TEXT.encode() + b'"',
            headers={**_h(server), "Content-Type": "application/json"},
        )
    # the server process writes its log itself: wait for the three requests' access lines
    wait_until(lambda: access_lines() >= before + 3, 30, what="three more access-log lines")
    log = server.log.read_text()
    assert "POST /v1/audits 201" in log  # the access log is there...
    assert "Zed Quorra" not in log and "acetaminophen" not in log  # ...without the text
    for token in server.tokens.values():
        assert token not in log and token.split("_", 2)[2][:12] not in log


def test_200_kb_of_digits_is_answered_while_healthz_stays_responsive(server: Server) -> None:
    """Issue 14, finding 1: 16,000 digits froze the server for 33 s, 199,000 for good. The
    bounds are generous (a loaded 2-core machine); measured: ~0.5 s and ~0.05 s."""
    latencies: list[float] = []
    stop = threading.Event()

    def poll() -> None:
        with httpx.Client(base_url=server.url, timeout=120) as c:
            while not stop.is_set():
                t0 = time.monotonic()
                c.get("/healthz")
                latencies.append(time.monotonic() - t0)
                time.sleep(0.05)

    poller = threading.Thread(target=poll, daemon=True)
    poller.start()
    try:
        with httpx.Client(base_url=server.url, timeout=120) as client:
            t0 = time.monotonic()
            r = client.post(
                "/v1/audits", json={"text": "1" * 200_000, "domain": "auto"}, headers=_h(server)
            )
            elapsed = time.monotonic() - t0
    finally:
        stop.set()
        poller.join(130)
    assert r.status_code == 201 or 400 <= r.status_code < 500, r.text
    assert elapsed < 20 and latencies and max(latencies) < 5, (elapsed, max(latencies))


def test_a_100_kb_header_gets_the_json_error_shape(server: Server) -> None:
    r = httpx.get(
        f"{server.url}/v1/audits", headers={**_h(server), "X-Big": "x" * 100_000}, timeout=60
    )
    assert r.status_code == 431 and r.json()["error"]["code"] == "headers_too_large"


def _doc_commands(path: Path) -> list[str]:
    """The ``$ curl ...`` commands of a markdown file (continuation lines joined)."""
    out, current = [], None
    for line in path.read_text(encoding="utf-8").splitlines():
        if current is None and line.startswith("$ curl "):
            current = line[2:]
        elif current is not None:
            current += "\n" + line
        else:
            continue
        if not current.rstrip().endswith("\\") and current.count("'") % 2 == 0:
            out.append(current)
            current = None
    return out


@pytest.mark.parametrize("doc", ["api.md", "batch.md"])
def test_the_docs_curl_examples_work(server: Server, doc: str) -> None:
    """Issue 14, finding 14: the example in docs/api.md answered 422 (no Content-Type)."""
    commands = _doc_commands(REPO / "docs" / doc)
    if doc == "api.md":
        assert len(commands) >= 2
    port = server.url.rsplit(":", 1)[1]
    env = {**os.environ, "KEY": server.tokens["auditor"]}
    for cmd in commands:
        cmd = cmd.replace("localhost:8000", f"127.0.0.1:{port}")
        done = subprocess.run(
            ["bash", "-c", cmd], capture_output=True, text=True, env=env, timeout=120
        )
        assert done.returncode == 0, (cmd, done.stderr)
        body = json.loads(done.stdout)
        assert not (isinstance(body, dict) and "error" in body), (cmd, body)
