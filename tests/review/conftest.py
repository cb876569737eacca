"""Reviewer workbench tests: an app over a trail seeded with hand-built audits of the three
domains (claims with evidence and sources, citations), two tenants, every role.

``db_url`` (SQLite and PostgreSQL) comes from the root ``tests/conftest.py``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from auditor.settings import Settings
from services.api import create_app
from services.api.keys import KeyStore
from trail import Trail

ROLES = {
    "acme-reviewer": ("acme", "reviewer"),
    "acme-viewer": ("acme", "viewer"),
    "acme-admin": ("acme", "admin"),
    "beta-reviewer": ("beta", "reviewer"),
}
HOSTILE = [
    "<script>alert('xss')</script> Ibuprofen's maximum dose is 1 mg.",
    '<img src=x onerror="alert(1)"> Aspirin treats headaches.',
    '<a href="javascript:alert(1)">click</a> The dose is 5 g.',
    "Paracetamol \u202egnp.exe\u202c is safe \u2066hidden\u2069.",
    '"><svg onload=alert(1)> {{ 7*7 }} {% raw %} ${7*7}',
]


def claim(
    text: str, span: str, verdict: str, rule: str, *, url: str | None = None
) -> dict[str, Any]:
    start = text.index(span)
    evidence = (
        [
            {
                "role": "supports" if verdict == "supported" else "contradicts",
                "fact": "f1",
                "statement": f"graph fact about {span[:20]}",
                "source": {"document": "A source document", "section": None, "url": url},
            }
        ]
        if verdict != "unverifiable"
        else []
    )
    return {
        "text": span,
        "start": start,
        "end": start + len(span),
        "subject": "ent:x",
        "predicate": "p",
        "object": "o",
        "verdict": verdict,
        "reason": f"the graph says otherwise about {span[:10]}"
        if verdict == "contradicted"
        else "",
        "evidence": evidence,
        "rule_id": rule,
        "severity": "critical",
        "hallucination_type": "numeric_mismatch" if verdict == "contradicted" else None,
    }


def result(
    domain: str,
    text: str,
    claims: list[dict[str, Any]],
    *,
    citations: list[dict[str, Any]] | None = None,
    risk: float = 0.8,
) -> dict[str, Any]:
    counts = {
        k: sum(1 for c in claims if c["verdict"] == k)
        for k in ("supported", "contradicted", "unverifiable")
    }
    checked = counts["supported"] + counts["contradicted"]
    return {
        "domain": domain,
        "domains": [domain],
        "as_of": "2026-06-01",
        "claims": claims,
        "citations": citations or [],
        "fer": counts["contradicted"] / checked if checked else None,
        "citation_confidence": 0.6 if citations else None,
        "joint_score": None,
        "coverage": checked / len(claims) if claims else None,
        "counts": counts,
        "hallucination_types": {},
        "kg_version": "kg-test",
        "rules_version": "rules-test",
        "auditor_version": "kgaudit-auditor/test",
        "risk": risk,
    }


def citation(text: str, span: str, outcome: str) -> dict[str, Any]:
    start = text.index(span)
    return {
        "text": span,
        "start": start,
        "end": start + len(span),
        "kind": "case",
        "outcome": outcome,
        "reason": "not_in_index" if outcome != "verified" else "in_graph",
        "score": 0.6,
        "detail": "well-formed citation that no source here holds",
        "caller_supplied": False,
    }


def seed_audits() -> list[tuple[str, str, dict[str, Any]]]:
    """(tenant, text, result) of the seeded audits: 3 domains, 24 open items for acme."""
    out = []
    for i in range(4):
        t = f"Ibuprofen's maximum daily dose is {i + 5} g. Metformin treats type 2 diabetes."
        out.append(
            (
                "acme",
                t,
                result(
                    "medical",
                    t,
                    [
                        claim(
                            t,
                            f"Ibuprofen's maximum daily dose is {i + 5} g",
                            "contradicted",
                            "MED-DOSE",
                            url="https://www.fda.gov/label",
                        ),
                        claim(
                            t,
                            "Metformin treats type 2 diabetes",
                            "supported",
                            "MED-IND",
                            url="https://dailymed.nlm.nih.gov/x",
                        ),
                    ],
                    risk=0.9 - i * 0.05,
                ),
            )
        )
    for i in range(3):
        t = f"See Smith v. Jones, {900 + i} F.3d 1234 (11th Cir. 2020). Roe v. Wade was decided in 1975."
        cite = f"Smith v. Jones, {900 + i} F.3d 1234 (11th Cir. 2020)"
        out.append(
            (
                "acme",
                t,
                result(
                    "legal",
                    t,
                    [
                        claim(t, cite, "unverifiable", "LEG-CITE"),
                        claim(
                            t,
                            "Roe v. Wade was decided in 1975",
                            "contradicted",
                            "LEG-YEAR",
                            url="https://supreme.justia.com/cases/federal/us/410/113/",
                        ),
                    ],
                    citations=[citation(t, cite, "unverified")],
                    risk=0.7,
                ),
            )
        )
    for i in range(4):
        t = f"The euro replaced the Croatian kuna in {2020 + i}. Apple's ISIN is US0378331005."
        out.append(
            (
                "acme",
                t,
                result(
                    "finance",
                    t,
                    [
                        claim(
                            t,
                            f"The euro replaced the Croatian kuna in {2020 + i}",
                            "contradicted" if i != 3 else "supported",
                            "FIN-CUR",
                            url="https://www.ecb.europa.eu/euro",
                        ),
                        claim(t, "Apple's ISIN is US0378331005", "unverifiable", "FIN-ISIN"),
                    ],
                    risk=0.6 - i * 0.1,
                ),
            )
        )
    for t in HOSTILE:
        span = t[: min(len(t), 30)]
        res = result(
            "medical",
            t,
            [claim(t, span, "contradicted", "MED-XSS", url="javascript:alert(document.cookie)")],
            risk=0.95,
        )
        out.append(("acme", t, res))
    t = "Beta's secret audit: warfarin dose is 100 mg."
    out.append(
        (
            "beta",
            t,
            result("medical", t, [claim(t, "warfarin dose is 100 mg", "contradicted", "MED-DOSE")]),
        )
    )
    return out


@dataclass
class Workbench:
    client: TestClient
    trail: Trail
    settings: Settings
    tokens: dict[str, str] = field(default_factory=dict)
    ids: dict[str, list[str]] = field(default_factory=dict)  # tenant -> audit ids

    def login(self, who: str, client: TestClient | None = None) -> TestClient:
        c = client or self.client
        page = c.get("/review/login")
        token = re.search(r'name="csrf" value="([^"]+)"', page.text).group(1)  # type: ignore[union-attr]
        r = c.post(
            "/review/login",
            data={"csrf": token, "api_key": self.tokens[who]},
            follow_redirects=False,
        )
        assert r.status_code == 303, r.text
        return c

    def csrf(self, path: str = "/review") -> str:
        page = self.client.get(path)
        return re.search(r'name="csrf" value="([^"]+)"', page.text).group(1)  # type: ignore[union-attr]

    def auth(self, who: str) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.tokens[who]}"}


def make_workbench(db_url: str, home: Path, *, migrate: bool = False) -> Workbench:
    settings = Settings(home=home, database_url=db_url, rate_limit_per_minute=100_000)
    trail = Trail(db_url)
    if migrate:
        trail.migrate()
    app = create_app(settings, trail=trail)
    wb = Workbench(TestClient(app, raise_server_exceptions=False), trail, settings)
    keys = KeyStore(trail)
    for who, (tenant, role) in ROLES.items():
        wb.tokens[who] = keys.create(tenant=tenant, role=role, name=who)[1]
    for tenant, text, res in seed_audits():
        rec = trail.record(res, text=text, tenant=tenant)
        wb.ids.setdefault(tenant, []).append(rec.id)
    return wb


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """``hostile``: (index, text) of each answer of the XSS corpus."""
    if "hostile" in metafunc.fixturenames:
        metafunc.parametrize(
            "hostile", list(enumerate(HOSTILE)), ids=[f"hostile-{i}" for i in range(len(HOSTILE))]
        )


@pytest.fixture
def workbench_factory() -> Callable[..., Workbench]:
    return make_workbench


@pytest.fixture
def workbench(db_url: str, tmp_path: Path) -> Iterator[Workbench]:
    wb = make_workbench(db_url, tmp_path)
    yield wb
    wb.client.close()
    wb.trail.close()


@pytest.fixture
def make_client(workbench: Workbench) -> Callable[[], TestClient]:
    return lambda: TestClient(workbench.client.app, raise_server_exceptions=False)


def every_verdict_audit() -> tuple[str, dict[str, Any]]:
    """(text, result) of one legal audit holding claims of every verdict (supported,
    contradicted, unverifiable) and citations of both outcomes, for the accessibility check."""
    t = (
        "Marbury v. Madison, 5 U.S. 137 (1803) established judicial review. "
        "Roe v. Wade was decided in 1975. See Smith v. Jones, 901 F.3d 1234 (11th Cir. 2020)."
    )
    claims = [
        claim(
            t,
            "Marbury v. Madison, 5 U.S. 137 (1803) established judicial review",
            "supported",
            "LEG-HOLD",
            url="https://supreme.justia.com/cases/federal/us/5/137/",
        ),
        claim(
            t,
            "Roe v. Wade was decided in 1975",
            "contradicted",
            "LEG-YEAR",
            url="https://supreme.justia.com/cases/federal/us/410/113/",
        ),
        claim(t, "Smith v. Jones, 901 F.3d 1234 (11th Cir. 2020)", "unverifiable", "LEG-CITE"),
    ]
    cites = [
        citation(t, "Marbury v. Madison, 5 U.S. 137 (1803)", "verified"),
        citation(t, "Smith v. Jones, 901 F.3d 1234 (11th Cir. 2020)", "unverified"),
    ]
    return t, result("legal", t, claims, citations=cites, risk=0.99)


@pytest.fixture
def every_verdict() -> tuple[str, dict[str, Any]]:
    return every_verdict_audit()
