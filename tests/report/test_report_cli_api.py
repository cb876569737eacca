"""``kgaudit report`` and ``GET /v1/reports``: same parameters, same report, clear errors."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson
import pytest
from fastapi.testclient import TestClient

from services.cli.main import main


@pytest.mark.parametrize(
    "fmt", ["json", "csv", "html", pytest.param("pdf", marks=pytest.mark.slow)]
)
def test_cli_writes_each_format(
    capsys, report_db: str, today: str, tmp_path: Path, fmt: str
) -> None:
    out = tmp_path / f"r.{fmt}"
    code = main(
        [
            "report",
            "--from",
            today,
            "--to",
            today,
            "--db",
            report_db,
            "--out",
            str(out),
            "--worst",
            "3",
        ]
    )
    err = capsys.readouterr().err
    assert code == 0, err
    assert f"wrote {out} ({fmt}" in err
    head = out.read_bytes()[:16]
    assert head.startswith(
        {"json": b"{", "csv": b"section,metric", "html": b"<!DOCTYPE html>", "pdf": b"%PDF-"}[fmt]
    )
    if fmt == "json":
        assert len(orjson.loads(out.read_bytes())["worst_audits"]) == 3


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--from", "2001-01-01", "--to", "2001-01-31"], "no audits were recorded from 2001-01-01"),
        (["--from", "2025-02-01", "--to", "2025-01-01"], "is before --from"),
        (["--from", "yesterday", "--to", "2025-01-01"], "is not a date"),
        (
            ["--from", "2025-01-01", "--to", "2025-01-02", "--out", "r.docx"],
            "cannot tell the format",
        ),
    ],
    ids=["empty-period", "reversed", "bad-date", "unknown-extension"],
)
def test_cli_errors_exit_2(
    capsys, report_db: str, tmp_path: Path, args: list[str], message: str
) -> None:
    if "--out" not in args:
        args = [*args, "--out", str(tmp_path / "r.json")]
    code = main(["report", *args, "--db", report_db])
    err = capsys.readouterr().err
    assert code == 2 and message in err and err.startswith("error: ")


@pytest.fixture
def client(report_db: str) -> Any:
    from auditor.settings import Settings
    from services.api.app import create_app
    from services.api.keys import KeyStore
    from services.api.routes.reports import router
    from trail import Trail

    trail = Trail(report_db)
    app = create_app(Settings(database_url=report_db), trail=trail)
    app.include_router(router)
    _, token = KeyStore(trail).create(tenant="default", role="viewer")  # read-only role
    c = TestClient(app)
    c.headers["Authorization"] = f"Bearer {token}"
    yield c
    trail.close()


def test_api_json_equals_the_cli_report(client, report_dict, today: str) -> None:
    r = client.get("/v1/reports", params={"from": today, "to": today})
    assert r.status_code == 200, r.text
    body = r.json()
    body.pop("generated_at")
    expected = dict(report_dict)
    expected.pop("generated_at")
    assert body.keys() == expected.keys()
    assert body["summary"] == expected["summary"]
    assert body["worst_audits"] == expected["worst_audits"]
    assert body["integrity"]["head_hash"] == expected["integrity"]["head_hash"]


@pytest.mark.parametrize(
    ("fmt", "media", "magic"),
    [
        pytest.param("pdf", "application/pdf", b"%PDF-", marks=pytest.mark.slow),
        ("csv", "text/csv", b"section,"),
        ("html", "text/html", b"<!DOCTYPE html>"),
    ],
)
def test_api_formats(client, today: str, fmt: str, media: str, magic: bytes) -> None:
    r = client.get("/v1/reports", params={"from": today, "to": today, "format": fmt, "worst": 2})
    assert r.status_code == 200 and r.headers["content-type"].startswith(media)
    assert r.content.startswith(magic)
    assert f'filename="kgaudit-report-{today}-{today}.{fmt}"' in r.headers["content-disposition"]


@pytest.mark.parametrize(
    ("params", "status", "code"),
    [
        ({"from": "2001-01-01", "to": "2001-01-31"}, 404, "no_audits"),
        ({"from": "2025-02-01", "to": "2025-01-01"}, 422, "invalid_request"),
        ({"from": "2025/01/01", "to": "2025-01-01"}, 422, "validation_error"),
        ({"from": "2025-01-01", "to": "2025-01-02", "tenant": "other"}, 403, "forbidden"),
        ({"from": "2025-01-01", "to": "2025-01-02", "format": "docx"}, 422, "validation_error"),
    ],
    ids=["no-audits", "reversed", "bad-date", "other-tenant", "bad-format"],
)
def test_api_errors_have_the_one_shape(client, params: dict, status: int, code: str) -> None:
    r = client.get("/v1/reports", params=params)
    assert r.status_code == status, r.text
    assert r.json()["error"]["code"] == code


def test_api_needs_a_key(client, today: str) -> None:
    r = client.get(
        "/v1/reports", params={"from": today, "to": today}, headers={"Authorization": ""}
    )
    assert r.status_code == 401
