"""The chat endpoint over real HTTP: ``kgaudit serve`` (uvicorn) in a subprocess, the official
``openai`` client pointed at it, completion and server-sent events."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from collections.abc import Iterator

import httpx
import openai
import pytest

from ..helpers import wait_ready, wait_until

pytestmark = pytest.mark.slow


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    from services.api.keys import KeyStore
    from trail import Trail

    tmp = tmp_path_factory.mktemp("chat-http")
    url = f"sqlite:///{tmp / 'trail.db'}"
    trail = Trail(url)
    trail.migrate()
    token = KeyStore(trail).create(tenant="acme", role="auditor")[1]
    trail.close()
    port, log = _free_port(), tmp / "server.log"
    env = {
        **os.environ,
        "KGAUDIT_DATABASE_URL": url,
        "KGAUDIT_REQUEST_TIMEOUT_S": "120",
        "KGAUDIT_RATE_LIMIT_PER_MINUTE": "100000",
        "OMP_NUM_THREADS": "1",
    }
    with log.open("w") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "services.cli.main", "serve", "--port", str(port)],
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    base = f"http://127.0.0.1:{port}"
    try:
        wait_ready(proc, base, log)

        def engine_loaded() -> bool:  # a question-less request: 503 while loading, then 422
            r = httpx.post(
                f"{base}/v1/chat/completions",
                json={"model": "default", "messages": [{"role": "user", "content": " "}]},
                headers={"Authorization": f"Bearer {token}"},
                timeout=60,
            )
            if r.status_code == 503 and r.json()["error"]["code"] == "warming_up":
                return False
            assert r.status_code == 422, r.text
            return True

        wait_until(engine_loaded, 240, interval=0.5, what="the embedded engine to load")
        yield base, token
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def test_openai_client_over_http(server: tuple[str, str]) -> None:
    base, token = server
    client = openai.OpenAI(base_url=f"{base}/v1", api_key=token, timeout=180, max_retries=0)
    msgs = [{"role": "user", "content": "Which currency is used in Croatia?"}]
    resp = client.chat.completions.create(model="default", messages=msgs, max_tokens=24)
    audit = resp.model_extra["kgaudit"]
    assert resp.choices[0].message.content and audit["audit_id"]
    assert audit["constraint"]["enabled"] and "country:HR" in audit["constraint"]["seeds"]
    pieces = client.chat.completions.create(
        model="default", messages=msgs, max_tokens=24, stream=True
    )
    text = "".join(c.choices[0].delta.content or "" for c in pieces if c.choices)
    assert text == resp.choices[0].message.content
    listed = httpx.get(f"{base}/v1/audits", headers={"Authorization": f"Bearer {token}"})
    assert audit["audit_id"] in [a["id"] for a in listed.json()["items"]]
