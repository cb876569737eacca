"""The workbench in a real browser: Playwright for Python driving the system's Chromium.

A reviewer signs in, works through the whole queue with the keyboard only (confirm,
overturn with a reason, note; next item / next audit), and every decision ends up in the
trail, which verifies; rewriting one review row then makes verify fail. Each test runs on
SQLite and on PostgreSQL (``db_url``; the PostgreSQL run skips when the server is absent,
fails instead under ``KGAUDIT_REQUIRE_PG=1``).

axe-core (``tests/review/assets``, vendored from npm, see PROVENANCE.md) checks the sign-in
page, the queue, an audit with claims of every verdict and the page after a decision: no
violation of impact serious or critical.

Skipped when Playwright or Chromium is missing (``apt-get install -y chromium``;
Playwright's own browser download is not used). ``KGAUDIT_SCREENSHOTS=1`` also writes
docs/review.png and docs/review-queue.png.
"""

from __future__ import annotations

import os
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from sqlalchemy import select, update

from trail.models import Audit, Review

if TYPE_CHECKING:
    from tests.review.conftest import Workbench

CHROMIUM = os.environ.get("KGAUDIT_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
DOCS = Path(__file__).resolve().parents[2] / "docs"
AXE = Path(__file__).resolve().parent / "assets" / "axe.min.js"
BLOCKING = ("serious", "critical")  # axe impacts that fail the test

pytestmark = pytest.mark.slow  # a server and a browser per test: 2-7 s each
playwright_api = pytest.importorskip("playwright.sync_api", reason="pip install playwright")
if not Path(CHROMIUM).exists():
    pytest.skip("chromium is not installed (apt-get install -y chromium)", allow_module_level=True)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def served(db_url: str, tmp_path: Path, workbench_factory: Any) -> Iterator[tuple[str, Workbench]]:
    """The workbench over a seeded trail (SQLite, then PostgreSQL), served by uvicorn."""
    import uvicorn

    wb = workbench_factory(db_url, tmp_path)
    port = _free_port()
    server = uvicorn.Server(
        uvicorn.Config(wb.client.app, host="127.0.0.1", port=port, log_level="warning")
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline:  # pragma: no cover
            raise RuntimeError("the test server did not start")
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}", wb
    server.should_exit = True
    thread.join(timeout=10)
    wb.trail.close()


def _open_page(bypass_csp: bool) -> Iterator[Any]:
    with playwright_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        context = browser.new_context(
            viewport={"width": 1280, "height": 900}, bypass_csp=bypass_csp
        )
        pg = context.new_page()
        dialogs: list[str] = []
        pg.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
        pg.dialogs = dialogs  # the test checks that no hostile answer opened a dialog
        pg.set_default_timeout(15_000)
        yield pg
        context.close()
        browser.close()


@pytest.fixture
def page(served: tuple[str, Workbench]) -> Iterator[Any]:
    """A Chromium page under the workbench's own Content-Security-Policy."""
    yield from _open_page(bypass_csp=False)


@pytest.fixture
def axe_page(served: tuple[str, Workbench]) -> Iterator[Any]:
    """A Chromium page that may inject axe-core: the workbench's CSP (``script-src 'self'``)
    refuses the inline script ``add_script_tag`` adds, so this context bypasses CSP."""
    yield from _open_page(bypass_csp=True)


def axe_violations(pg: Any) -> list[dict[str, Any]]:
    """axe-core's violations on the page as it stands (every rule axe runs by default)."""
    pg.add_script_tag(path=str(AXE))
    found: list[dict[str, Any]] = pg.evaluate(
        "async () => (await axe.run(document, {resultTypes: ['violations']})).violations"
    )
    return found


def describe(where: str, violations: list[dict[str, Any]]) -> str:
    """The violations one per paragraph: impact, rule, help, and each offending node."""
    lines = [f"axe-core on {where}: {len(violations)} violation(s)"]
    for v in violations:
        lines.append(f"- [{v.get('impact')}] {v['id']}: {v['help']} ({v.get('helpUrl', '')})")
        for node in v.get("nodes", [])[:8]:
            lines.append(f"    at {' '.join(map(str, node.get('target', [])))}")
            lines.append(f"       {node.get('html', '')[:200]}")
            summary = (node.get("failureSummary") or "").replace("\n", " / ")
            if summary:
                lines.append(f"       {summary[:400]}")
        if len(v.get("nodes", [])) > 8:
            lines.append(f"    ... and {len(v['nodes']) - 8} more node(s)")
    return "\n".join(lines)


def assert_accessible(pg: Any, where: str) -> list[dict[str, Any]]:
    """Fail on any serious or critical axe violation; return every violation found."""
    violations = axe_violations(pg)
    if any(v.get("impact") in BLOCKING for v in violations):
        pytest.fail(describe(where, violations), pytrace=False)
    return violations


def test_reviewer_works_through_the_queue_by_keyboard(
    served: tuple[str, Workbench], page: Any
) -> None:
    base, wb = served
    pg = page
    pg.goto(f"{base}/review")
    assert pg.url.endswith("/review/login")
    pg.fill("#api_key", wb.tokens["acme-reviewer"])
    pg.keyboard.press("Enter")
    pg.wait_for_url(f"{base}/review")
    cookie = next(c for c in pg.context.cookies() if c["name"] == "kgaudit_review")
    assert cookie["httpOnly"] and cookie["sameSite"] == "Strict"
    assert pg.evaluate("document.cookie") == ""
    queued = int(pg.inner_text("#queue-total"))
    assert queued == 15
    if os.environ.get("KGAUDIT_SCREENSHOTS"):
        pg.screenshot(path=str(DOCS / "review-queue.png"), full_page=False)
    pg.keyboard.press("j")
    pg.keyboard.press("Enter")
    pg.wait_for_url("**/review/audits/**")

    decided = {"confirm": 0, "overturn": 0, "note": 0}
    shot = False
    for n in range(60):  # 23 open items; a note does not close one
        if "done=1" in pg.url:
            break
        focused = pg.evaluate("document.activeElement.dataset.item || ''")
        assert focused, f"no open item focused on {pg.url}"
        if (
            not shot
            and pg.locator("mark.v-contradicted").count()
            and pg.locator("article.item").count() >= 3
        ):
            if os.environ.get("KGAUDIT_SCREENSHOTS"):
                pg.screenshot(path=str(DOCS / "review.png"), full_page=False)
            shot = True
        if n % 7 == 3:
            action, key, reason = "note", "n", f"note {n}: checked against the label"
        elif n % 5 == 1:
            action, key, reason = "overturn", "x", f"overturned {n}: the source says otherwise"
        else:
            action, key, reason = "confirm", "c", ""
        with pg.expect_navigation():
            pg.keyboard.press(key)
            if reason:
                pg.keyboard.type(reason)
                pg.keyboard.press("Enter")
        decided[action] += 1
        pg.wait_for_load_state("domcontentloaded")
    assert "done=1" in pg.url
    assert "Nothing to review" in pg.content()
    assert pg.dialogs == []  # no hostile answer ran a script
    assert decided["confirm"] + decided["overturn"] == 23 and decided["note"] >= 3
    assert decided["overturn"] >= 3

    with wb.trail.session() as s:
        rows = s.execute(
            select(Review, Audit.domain).join(Audit, Audit.id == Review.audit_id)
        ).all()
    assert len(rows) == sum(decided.values()) >= 20
    assert {d for _, d in rows} == {"medical", "legal", "finance"}
    assert all(r.reviewer.startswith("key:") for r, _ in rows)
    assert all(r.reason for r, _ in rows if r.decision in ("overturn", "note"))
    report = wb.trail.verify()
    assert report.ok and report.checked == len(wb.ids["acme"]) + 1 + len(rows)

    # what the API says matches, and a rewritten decision is detected
    one = rows[0][0]
    doc = wb.client.get(f"/v1/audits/{one.audit_id}", headers=wb.auth("acme-viewer")).json()
    assert doc["review"]["counts"]["open"] == 0
    with wb.trail.session(write=True) as s:
        s.execute(update(Review).where(Review.seq == one.seq).values(reason="rewritten later"))
    broken = wb.trail.verify()
    assert not broken.ok and broken.first_broken["code"] == "review_altered"
    assert broken.first_broken["seq"] == one.seq


def test_viewer_sees_no_decision_forms(served: tuple[str, Workbench], page: Any) -> None:
    base, wb = served
    pg = page
    pg.goto(f"{base}/review/login")
    pg.fill("#api_key", wb.tokens["acme-viewer"])
    pg.keyboard.press("Enter")
    pg.wait_for_url(f"{base}/review")
    pg.goto(f"{base}/review/audits/{wb.ids['acme'][0]}")
    assert pg.locator("form.confirm").count() == 0
    assert pg.locator("article.item").count() == 2
    assert "read only" in pg.inner_text("header")


def test_pages_have_no_serious_accessibility_violation(
    served: tuple[str, Workbench], axe_page: Any, every_verdict: tuple[str, dict[str, Any]]
) -> None:
    base, wb = served
    pg = axe_page
    text, res = every_verdict
    audit_id = wb.trail.record(res, text=text, tenant="acme").id
    checked: dict[str, list[dict[str, Any]]] = {}

    pg.goto(f"{base}/review/login")
    checked["sign-in page"] = assert_accessible(pg, "the sign-in page")
    pg.fill("#api_key", "not a key")
    pg.keyboard.press("Enter")
    pg.wait_for_selector("p.error")
    checked["sign-in page with an error"] = assert_accessible(pg, "the refused sign-in")

    pg.fill("#api_key", wb.tokens["acme-reviewer"])
    pg.keyboard.press("Enter")
    pg.wait_for_url(f"{base}/review")
    assert pg.locator("tr.row").count() >= 10
    checked["queue"] = assert_accessible(pg, "the queue")

    pg.goto(f"{base}/review/audits/{audit_id}")
    for verdict in ("supported", "contradicted", "unverifiable"):
        assert pg.locator(f"mark.v-{verdict}").count() == 1, verdict
        assert pg.locator(f"article.item .badge.v-{verdict}").count() == 1, verdict
    for outcome in ("verified", "unverified"):
        assert pg.locator(f"article.item .badge.v-{outcome}").count() == 1, outcome
    assert pg.locator("form.confirm").count() == 5
    checked["audit of every verdict"] = assert_accessible(pg, "an audit of every verdict")

    # after actions: a confirmation (the "saved" status, the history table) and an overturn
    with pg.expect_navigation():
        pg.keyboard.press("c")
    pg.wait_for_selector("p.saved")
    assert pg.locator("table.history tbody tr").count() == 1
    checked["audit after a confirm"] = assert_accessible(pg, "the audit after a confirm")
    with pg.expect_navigation():
        pg.keyboard.press("x")
        pg.keyboard.type("the source says 1973")
        pg.keyboard.press("Enter")
    pg.wait_for_selector("p.saved")
    assert pg.locator(".s-overturned").count() == 1
    checked["audit after an overturn"] = assert_accessible(pg, "the audit after an overturn")

    pg.goto(f"{base}/review/audits/{wb.ids['acme'][-2]}")  # a hostile answer (RTL override)
    assert pg.locator(".answer .ctl").count() >= 1
    checked["hostile audit"] = assert_accessible(pg, "an audit of a hostile answer")
    pg.goto(f"{base}/review/audits/{wb.ids['beta'][0]}")  # another tenant's: the error page
    checked["error page"] = assert_accessible(pg, "the error page")
    pg.goto(f"{base}/review?verdict=verified")
    checked["empty queue"] = assert_accessible(pg, "an empty queue")
    for where, found in checked.items():  # the minor and moderate ones, for the log
        if found:
            print(describe(where, found))

    # the check can fail: an unlabelled field and faint text are reported as such
    pg.evaluate(
        """() => document.querySelector("main").insertAdjacentHTML("beforeend",
        '<input type=text name=unlabelled><p style="color:#ddd;background:#fff">faint</p>')"""
    )
    caught = {v["id"]: v["impact"] for v in axe_violations(pg)}
    assert caught.get("label") == "critical" and caught.get("color-contrast") == "serious", caught


def _tab_to(pg: Any, selector: str, limit: int = 80) -> None:
    """Press Tab until the element matching ``selector`` has the focus."""
    for _ in range(limit):
        pg.keyboard.press("Tab")
        if pg.evaluate("(s) => document.activeElement.matches(s)", selector):
            return
    raise AssertionError(f"{selector} is not reachable with Tab")


def test_filter_and_bulk_confirm_by_keyboard(served: tuple[str, Workbench], page: Any) -> None:
    """Without the shortcuts: Tab to the filter, type, Enter; Tab to an audit's checkbox,
    Space; Tab to the bulk confirm, Enter; then Tab to sign out, Enter."""
    base, wb = served
    pg = page
    pg.goto(f"{base}/review/login")
    pg.fill("#api_key", wb.tokens["acme-reviewer"])
    pg.keyboard.press("Enter")
    pg.wait_for_url(f"{base}/review")
    _tab_to(pg, "input[name=domain]")
    pg.keyboard.type("legal")
    with pg.expect_navigation():
        pg.keyboard.press("Enter")
    assert pg.inner_text("#queue-total") == "3"
    _tab_to(pg, "input[name=audit]")
    pg.keyboard.press("Space")
    chosen = pg.evaluate("document.activeElement.value")
    _tab_to(pg, "#bulk-confirm")
    with pg.expect_navigation():
        pg.keyboard.press("Enter")
    # the legal audit's open items: contradicted and unverifiable claims, unverified citation
    assert "confirmed=3" in pg.url
    assert pg.inner_text("p.saved[role=status]") == "3 item(s) confirmed and recorded in the trail."
    assert pg.inner_text("#queue-total") == "2"
    with wb.trail.session() as s:
        rows = s.execute(select(Review)).scalars().all()
    assert sorted((str(r.audit_id), r.decision) for r in rows) == [(chosen, "confirm")] * 3
    assert wb.trail.verify().ok
    # ] and [ walk the queue's audits in its order, both ways
    pg.goto(f"{base}/review")
    order = pg.eval_on_selector_all("a.open-audit", "els => els.map(e => e.pathname)")
    pg.goto(f"{base}{order[0]}")
    for want in (order[1], order[0], order[-1]):
        with pg.expect_navigation():
            pg.keyboard.press("]" if want == order[1] else "[")
        pg.wait_for_url(f"**{want}**")
    _tab_to(pg, "header form.inline button")
    with pg.expect_navigation():
        pg.keyboard.press("Enter")
    assert pg.url.endswith("/review/login")
