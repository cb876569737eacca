"""``kgaudit report``: a compliance report over a period of the audit trail."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from auditor.errors import UsageError
from services.cli.trail import DB_OPTION
from services.report import FORMATS
from services.report.context import checkpoint_key, load_context


@click.command("report")
@click.option(
    "--from",
    "start",
    required=True,
    metavar="DATE",
    help="First day (YYYY-MM-DD, UTC) of audits to include.",
)
@click.option(
    "--to",
    "end",
    required=True,
    metavar="DATE",
    help="Last day (YYYY-MM-DD, UTC) of audits to include (inclusive).",
)
@click.option(
    "--domain",
    type=click.Choice(["finance", "medical", "legal", "auto"]),
    default=None,
    help="Only audits of this domain (default: all).",
)
@click.option("--tenant", default="default", show_default=True, help="Trail tenant.")
@click.option(
    "--by",
    type=click.Choice(["recorded", "answered"]),
    default="recorded",
    show_default=True,
    help="Which day an audit counts on: when it was recorded, or when the text was said "
    "(metadata.answered_at; recorded day if it has none).",
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(FORMATS),
    default=None,
    help="Output format (default: from the --out extension).",
)
@click.option(
    "--out", required=True, metavar="PATH", help="Where to write the report; - for standard output."
)
@DB_OPTION
@click.option(
    "--worst",
    type=click.IntRange(0, 100),
    default=10,
    show_default=True,
    help="How many of the worst audits to show with their evidence.",
)
def report_command(
    start: str,
    end: str,
    domain: str | None,
    tenant: str,
    by: str,
    fmt: str | None,
    out: str,
    db_url: str | None,
    worst: int,
) -> None:
    """Write the compliance report for audits recorded (or, with --by answered, said) from
    --from to --to.

    Executive summary, charts, the worst audits with claim-level evidence, methodology,
    graph and rule-pack versions, and the audit-trail integrity statement.
    """
    from auditor.settings import get_settings
    from services.report import build_report, render
    from trail import Trail
    from trail.records import check_tenant

    check_tenant(tenant)
    if fmt is None:
        fmt = Path(out).suffix.lower().lstrip(".")
        if fmt not in FORMATS:
            raise UsageError(
                f"cannot tell the format from --out {out}; pass --format {'|'.join(FORMATS)}"
            )
    settings = get_settings()
    trail = Trail(db_url or settings.db_url)
    try:
        if not trail.schema_is_current():
            raise UsageError(
                "the audit-trail database has no current schema; run "
                "'kgaudit trail migrate' (or record audits first)"
            )
        kb, rules, warning = load_context(settings)
        if warning:
            click.echo(f"warning: {warning}", err=True)
        report = build_report(
            trail,
            start=start,
            end=end,
            domain=domain,
            tenant=tenant,
            worst=worst,
            kb=kb,
            rules=rules,
            key=checkpoint_key(settings),
            by=by,
            review_risk_threshold=settings.review_risk_threshold,
        )
    finally:
        trail.close()
    data = render(report, fmt)
    if out == "-":
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
        return
    try:
        Path(out).write_bytes(data)
    except OSError as exc:
        raise UsageError(f"cannot write the report to {out}: {exc.strerror}") from exc
    s = report["summary"]
    click.echo(
        f"wrote {out} ({fmt}, {len(data):,} bytes): {s['audits']:,} audits from "
        f"{report['parameters']['from']} to {report['parameters']['to']}, pooled FER "
        f"{'n/a' if s['fer']['pooled'] is None else format(s['fer']['pooled'], '.1%')}",
        err=True,
    )


__all__ = ["checkpoint_key", "load_context", "report_command"]
