"""Hostile answer text, case names and URLs in the report render as text, never as markup."""

from __future__ import annotations

import copy
from html.parser import HTMLParser
from typing import Any

import pytest

from services.report import render

SCRIPT = "<script>alert('xss')</script> Roe v. Wade was decided in 1971."
ONERROR = '<img src=x onerror="alert(1)"> Smith v. Jones'
JS_LINK = '<a href="javascript:alert(1)">click</a> 410 U.S. 113'
JS_URL = "javascript:alert(document.cookie)"


class _Page(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def _hostile(report: dict[str, Any]) -> dict[str, Any]:
    r = copy.deepcopy(report)
    w = r["worst_audits"][0]
    w["context"] = JS_LINK
    w["external_id"] = ONERROR
    c = w["claims"][0]
    c["text"], c["reason"] = SCRIPT, ONERROR
    c["evidence"][0].update(statement=SCRIPT, document=ONERROR, url=JS_URL, section=JS_LINK)
    r["top_failing_rules"][0]["title"] = SCRIPT
    r["versions"]["graphs"]["domains"][0]["top_sources"][0].update(document=ONERROR, url=JS_URL)
    return r


@pytest.fixture(scope="module")
def page(report_dict: dict[str, Any]) -> _Page:
    p = _Page()
    p.feed(render(_hostile(report_dict), "html").decode("utf-8"))
    return p


def test_no_hostile_markup_survives(page: _Page) -> None:
    names = [t for t, _ in page.tags]
    assert "script" not in names and "svg" not in names
    assert names.count("img") == 6  # the charts, and no other image
    for tag, attrs in page.tags:
        assert not [a for a in attrs if a.startswith("on")], (tag, attrs)
        for a in ("href", "src"):
            value = (attrs.get(a) or "").strip().lower()
            assert not value.startswith("javascript:"), (tag, attrs)


def test_hostile_strings_are_shown_as_text(page: _Page) -> None:
    text = "".join(page.text)
    for hostile in (SCRIPT, ONERROR, JS_LINK):
        assert hostile in text, hostile


def test_a_javascript_url_is_not_a_link(report_dict: dict[str, Any]) -> None:
    html = render(_hostile(report_dict), "html").decode("utf-8")
    assert 'href="javascript' not in html.lower()
    assert "https://" in html  # the real sources are still links
