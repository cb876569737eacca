"""The report as one self-contained HTML page: inline CSS, charts as inline base64 PNGs.

The page is the Jinja2 template ``templates/report.html`` (its style sheet
``templates/report.css`` is included inline), loaded from the package, so it renders from an
installed wheel too. Autoescaping is on for every value; a link is written only for an
http(s) URL (:func:`safe_url`), anything else (a ``javascript:`` URL) is shown as text.
"""

from __future__ import annotations

import base64
from functools import cache
from typing import Any
from urllib.parse import urlsplit

from auditor.report.charts import render_charts
from auditor.report.data import provenance_text
from auditor.report.fmt import (
    REVIEW_HEAD,
    RISK_HEAD,
    by_domain_rows,
    label,
    num,
    open_item_text,
    operating_point_rows,
    pct,
    review_line,
    review_rows,
    risk_line,
    rule_pack_rows,
    scope_line,
    score,
    top_rule_rows,
    versions_rows,
)

TEMPLATE = "report.html"


def safe_url(value: Any) -> str | None:
    """``value`` when it is an absolute http(s) URL without control characters, else None.

    >>> safe_url("https://www.fda.gov/x"), safe_url("javascript:alert(1)"), safe_url("/etc")
    ('https://www.fda.gov/x', None, None)
    """
    if not isinstance(value, str):
        return None
    v = value.strip()
    if any(ord(ch) < 32 or ord(ch) == 127 for ch in v):
        return None
    parts = urlsplit(v)
    return v if parts.scheme in ("http", "https") and parts.netloc else None


def _blank(value: Any) -> Any:
    """How ``{{ x }}`` prints None: as nothing (never the word "None")."""
    return "" if value is None else value


@cache
def environment() -> Any:
    """The Jinja2 environment of the report (autoescape on, strict about unknown names)."""
    from jinja2 import Environment, PackageLoader, StrictUndefined

    env = Environment(
        loader=PackageLoader("auditor.report", "templates"),
        autoescape=True,
        undefined=StrictUndefined,
        finalize=_blank,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters.update(num=num, pct=pct, score=score, label=label, safe_url=safe_url)
    env.globals.update(
        REVIEW_HEAD=REVIEW_HEAD,
        RISK_HEAD=RISK_HEAD,
        by_domain_rows=by_domain_rows,
        open_item_text=open_item_text,
        operating_point_rows=operating_point_rows,
        provenance_text=provenance_text,
        review_line=review_line,
        review_rows=review_rows,
        risk_line=risk_line,
        rule_pack_rows=rule_pack_rows,
        top_rule_rows=top_rule_rows,
        versions_rows=versions_rows,
    )
    return env


def render_html(report: dict[str, Any]) -> bytes:
    charts = [
        (name, caption, base64.b64encode(png).decode("ascii"))
        for name, caption, png in render_charts(report)
    ]
    page = (
        environment()
        .get_template(TEMPLATE)
        .render(report=report, scope=scope_line(report["parameters"]), charts=charts)
    )
    return page.encode("utf-8")


__all__ = ["TEMPLATE", "environment", "render_html", "safe_url"]
