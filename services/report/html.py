"""The report as one self-contained HTML page: inline CSS, charts as inline base64 PNGs.

The page lays out the section model of :mod:`services.report.sections` with the Jinja2
template ``templates/report.html`` (its style sheet ``templates/report.css`` is included
inline), loaded from the package, so it renders from an installed wheel too. Autoescaping is
on for every value, and a link is written only where the model kept an http(s) URL.
"""

from __future__ import annotations

import base64
from functools import cache
from typing import Any

from services.report.sections import header, sections

TEMPLATE = "report.html"


def _blank(value: Any) -> Any:
    """How ``{{ x }}`` prints None: as nothing (never the word "None")."""
    return "" if value is None else value


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


@cache
def environment() -> Any:
    """The Jinja2 environment of the report (autoescape on, strict about unknown names)."""
    from jinja2 import Environment, PackageLoader, StrictUndefined

    env = Environment(
        loader=PackageLoader("services.report", "templates"),
        autoescape=True,
        undefined=StrictUndefined,
        finalize=_blank,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["b64"] = _b64
    return env


def render_html(report: dict[str, Any]) -> bytes:
    title, subtitle = header(report)
    p = report["parameters"]
    page = (
        environment()
        .get_template(TEMPLATE)
        .render(
            title=title,
            subtitle=subtitle,
            period=f"{p['from']}–{p['to']}",
            sections=sections(report),
        )
    )
    return page.encode("utf-8")


__all__ = ["TEMPLATE", "environment", "render_html"]
