"""Optional CourtListener lookups, against a local fake server that answers with the documented
citation-lookup v4 schema (never the real service)."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import ClassVar
from urllib.parse import parse_qs

import pytest

from auditor.verify.legal.courtlistener import CourtListener

CASES = {  # (volume, reporter, page) -> clusters the fake server knows
    ("905", "F.3d", "1117"): [{"case_name": "Petersen v. Iran Air", "date_filed": "2018-09-14",
                               "absolute_url": "/opinion/1/petersen-v-iran-air/"}],
}  # fmt: skip


class _Fake(BaseHTTPRequestHandler):
    calls: ClassVar[list[dict[str, str]]] = []

    def do_POST(self) -> None:
        form = {
            k: v[0]
            for k, v in parse_qs(
                self.rfile.read(int(self.headers["Content-Length"])).decode()
            ).items()
        }
        _Fake.calls.append({**form, "auth": self.headers.get("Authorization", "")})
        key = (form.get("volume"), form.get("reporter"), form.get("page"))
        cite = " ".join(str(k) for k in key)
        found = CASES.get(key)  # type: ignore[arg-type]
        body = [{
            "citation": cite, "normalized_citations": [cite], "start_index": 0,
            "end_index": len(cite), "status": 200 if found else 404,
            "error_message": "" if found else "Citation not found.", "clusters": found or [],
        }]  # fmt: skip
        data = json.dumps(body).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def online(tmp_path):
    from trail import Trail

    url = f"sqlite:///{tmp_path / 'trail.db'}"
    Trail(url).migrate()
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Fake)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    _Fake.calls = []
    yield CourtListener("secret-token", f"http://127.0.0.1:{server.server_port}/", url)
    server.shutdown()


CHECKS = [
    ("found-and-named", "See Petersen v. Iran Air, 905 F.3d 1117 (9th Cir. 2018).",
     ("verified", "online")),
    ("found-other-name", "See Varghese v. China Southern Airlines Co., 905 F.3d 1117 (9th Cir. 2018).",
     ("contradicted", "misattributed")),
    ("not-found", "See Varghese v. China Southern Airlines Co., 925 F.3d 1339 (11th Cir. 2019).",
     ("unverified", "not_in_index")),
]  # fmt: skip


@pytest.mark.parametrize(("text", "want"), [c[1:] for c in CHECKS], ids=[c[0] for c in CHECKS])
def test_lookup_verdicts(auditor_obj, online, text, want):
    auditor_obj.online_citations = online
    try:
        res = auditor_obj.audit(text, domain="legal", as_of="2024-01-01")
    finally:
        auditor_obj.online_citations = None
    assert [(c.outcome, c.reason) for c in res.citations] == [want]
    assert _Fake.calls and _Fake.calls[0]["auth"] == "Token secret-token"


def test_answers_are_cached_with_their_retrieval_time(auditor_obj, online):
    from sqlalchemy import select

    from trail.models import CitationLookup

    auditor_obj.online_citations = online
    try:
        for _ in range(2):
            res = auditor_obj.audit(CHECKS[0][1], domain="legal", as_of="2024-01-01")
    finally:
        auditor_obj.online_citations = None
    assert len(_Fake.calls) == 1  # the second audit read the cache
    assert "retrieved" in res.citations[0].case["source"]
    with online.engine.connect() as conn:
        rows = conn.execute(select(CitationLookup.__table__)).all()
    assert [(r.cite, r.status) for r in rows] == [("905 F.3d 1117", 200)]
    assert rows[0].retrieved_at is not None


def test_offline_by_default(auditor_obj):
    assert auditor_obj.online_citations is None
