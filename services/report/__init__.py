"""Compliance reports over the audit trail: JSON, CSV, self-contained HTML, PDF.

>>> from services.report import build_report, render
>>> report = build_report(trail, start="2025-01-01", end="2025-03-31")    # doctest: +SKIP
>>> open("q1.pdf", "wb").write(render(report, "pdf"))                     # doctest: +SKIP

``kgaudit report`` (:mod:`services.cli.report`) and ``GET /v1/reports``
(:mod:`services.api.routes.reports`) are thin layers over these two functions. See ``docs/report.md``.
"""

from __future__ import annotations

from typing import Any

from auditor.errors import UsageError
from services.report.data import build_report

FORMATS = ("html", "pdf", "json", "csv")
MEDIA_TYPES = {
    "html": "text/html; charset=utf-8",
    "pdf": "application/pdf",
    "json": "application/json",
    "csv": "text/csv; charset=utf-8",
}


def render(report: dict[str, Any], fmt: str) -> bytes:
    """The report in ``fmt`` (one of :data:`FORMATS`)."""
    if fmt == "json":
        import orjson

        return orjson.dumps(report, option=orjson.OPT_INDENT_2) + b"\n"
    if fmt == "csv":
        from services.report.tabular import render_csv

        return render_csv(report)
    if fmt == "html":
        from services.report.html import render_html

        return render_html(report)
    if fmt == "pdf":
        from services.report.pdf import render_pdf

        return render_pdf(report)
    raise UsageError(f"unknown report format {fmt!r}; expected one of {', '.join(FORMATS)}")


__all__ = ["FORMATS", "MEDIA_TYPES", "build_report", "render"]
