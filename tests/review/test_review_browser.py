"""The workbench in a real browser: Playwright for Python driving the system's Chromium.

A reviewer signs in, works through the whole queue with the keyboard only (confirm,
overturn with a reason, note; next item / next audit), and every decision ends up in the
trail, which verifies; rewriting one review row then makes verify fail. Skipped when
Playwright or Chromium is missing (``apt-get install -y chromium``; Playwright's own
browser download is not used). ``KGAUDIT_SCREENSHOTS=1`` also writes docs/review.png and
docs/review-queue.png.
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

from auditor.trail.models import Audit, Review

if TYPE_CHECKING:
    from tests.review.conftest import Workbench

CHROMIUM = os.environ.get("KGAUDIT_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
DOCS = Path(__file__).resolve().parents[2] / "docs"

playwright_api = pytest.importorskip("playwright.sync_api", reason="pip install playwright")
if not Path(CHROMIUM).exists():
    pytest.skip("chromium is not installed (apt-get install -y chromium)", allow_module_level=True)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def served(tmp_path: Path, workbench_factory: Any) -> Iterator[tuple[str, Workbench]]:
    import uvicorn

    wb = workbench_factory(f"sqlite:///{tmp_path / 'trail.db'}", tmp_path, migrate=True)
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


@pytest.fixture
def page(served: tuple[str, Workbench]) -> Iterator[Any]:
    with playwright_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        pg = context.new_page()
        dialogs: list[str] = []
        pg.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
        pg.dialogs = dialogs  # the test checks that no hostile answer opened a dialog
        pg.set_default_timeout(15_000)
        yield pg
        context.close()
        browser.close()


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
    assert len(rows) == sum(decided.values())
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
