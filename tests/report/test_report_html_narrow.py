"""The HTML report fits a 400 px wide screen: no sideways scrolling of the page.

Opened in headless Chromium (Playwright driving the system's ``/usr/bin/chromium`` or
Playwright's own browser); skipped where neither is installed.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from services.report import render

WIDTH = 400


def _browser(p: Any) -> Any:
    exe = shutil.which("chromium") or shutil.which("chromium-browser")
    try:
        return p.chromium.launch(executable_path=exe, args=["--no-sandbox"])
    except Exception as exc:  # no browser binary for this Playwright: nothing to test with
        pytest.skip(f"no Chromium to open the report with: {type(exc).__name__}")


@pytest.fixture(scope="module")
def page_metrics(report_dict: dict[str, Any], tmp_path_factory: pytest.TempPathFactory) -> dict:
    sync = pytest.importorskip("playwright.sync_api")
    path = tmp_path_factory.mktemp("html") / "report.html"
    path.write_bytes(render(report_dict, "html"))
    with sync.sync_playwright() as p:
        browser = _browser(p)
        try:
            page = browser.new_page(viewport={"width": WIDTH, "height": 800})
            page.goto(Path(path).as_uri())
            return page.evaluate(
                """() => {
                  const wide = [...document.querySelectorAll('body *')]
                    .filter(e => e.getBoundingClientRect().right > window.innerWidth + 0.5)
                    .map(e => e.tagName + (e.className ? '.' + e.className : ''));
                  return {scroll: document.scrollingElement.scrollWidth,
                          inner: window.innerWidth, wide: wide.slice(0, 10),
                          tables: document.querySelectorAll('table').length};
                }"""
            )
        finally:
            browser.close()


def test_report_fits_400_px(page_metrics: dict) -> None:
    assert page_metrics["tables"] > 3  # the report was rendered with its tables
    assert page_metrics["scroll"] <= WIDTH, page_metrics


def test_report_has_a_viewport_meta(report_dict: dict[str, Any]) -> None:
    html = render(report_dict, "html").decode("utf-8")
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in html
