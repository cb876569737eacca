"""``kgaudit batch``: audit stored transcripts by the thousand, locally or on Ray, resumably."""

from __future__ import annotations

from pathlib import Path

import click
import orjson

from auditor.errors import GateFailed, UsageError
from services.cli.trail import DB_OPTION


@click.command("batch")
@click.argument("input_path", metavar="[INPUT]", required=False, type=click.Path(path_type=Path))
@click.option(
    "--out",
    required=True,
    type=click.Path(dir_okay=False, path_type=Path),
    help="Results JSONL (appended to; a rerun skips the ids it already holds).",
)
@DB_OPTION
@click.option(
    "--domain",
    type=click.Choice(["finance", "medical", "legal", "auto"]),
    default=None,
    help="Domain for records that name none (default: auto).",
)
@click.option(
    "--workers",
    type=click.IntRange(min=0),
    default=1,
    show_default=True,
    help="Worker processes or Ray actors; each loads the graphs once. 0 audits in this process.",
)
@click.option(
    "--backend",
    type=click.Choice(["local", "ray"]),
    default="local",
    show_default=True,
    help="Run the workers in a local process pool or on Ray.",
)
@click.option(
    "--ray-address",
    default=None,
    metavar="ADDRESS",
    help="An existing Ray cluster (auto, ray://HOST:10001); default: start a local one.",
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["jsonl", "csv"]),
    default=None,
    help="Input format (default: from the file extension).",
)
@click.option(
    "--map",
    "mapping",
    multiple=True,
    metavar="FIELD=COLUMN",
    help="CSV/SQL column for a field: id, text, domain, as_of, citations, context (repeatable).",
)
@click.option("--encoding", default="utf-8", show_default=True, help="Encoding of INPUT.")
@click.option(
    "--from-sql",
    "sql_url",
    metavar="URL",
    default=None,
    help="Read the records from this database instead of INPUT (needs --query).",
)
@click.option("--query", default=None, metavar="SQL", help="SELECT returning the records.")
@click.option(
    "--tenant",
    default="default",
    show_default=True,
    help="Trail tenant the audits are recorded under.",
)
@click.option(
    "--fail-over-fer",
    type=click.FloatRange(0.0, 1.0),
    default=None,
    help="Exit with code 1 when the batch's pooled factual error rate is above this.",
)
@click.option(
    "--flag-at-fpr",
    type=click.FloatRange(0.0, 1.0, min_open=True, max_open=True),
    default=None,
    help="Add calibrated risk/flagged at this false-positive rate.",
)
@click.option(
    "--retry-failed", is_flag=True, help="Audit again the records an earlier run wrote as errors."
)
@click.option(
    "--chunk-size",
    type=click.IntRange(1, 1000),
    default=32,
    show_default=True,
    help="Records sent to a worker at a time (and appended to the trail in one transaction).",
)
@click.option(
    "--progress/--no-progress",
    default=True,
    show_default=True,
    help="Progress bar with rate and ETA on stderr.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
def batch_command(
    input_path: Path | None,
    out: Path,
    db_url: str | None,
    domain: str | None,
    workers: int,
    backend: str,
    ray_address: str | None,
    fmt: str | None,
    mapping: tuple[str, ...],
    encoding: str,
    sql_url: str | None,
    query: str | None,
    tenant: str,
    fail_over_fer: float | None,
    flag_at_fpr: float | None,
    retry_failed: bool,
    chunk_size: int,
    progress: bool,
    as_json: bool,
) -> None:
    """Audit every answer in INPUT (JSONL chats or records, CSV) or an SQL query.

    Each audit is recorded in the tamper-evident trail and written to --out. Interrupted
    runs resume: rerun the same command and every record ends up exactly once in both.

    \b
    Exit codes: 0 ok (some records may have failed: see the summary); 1 the pooled FER is
    above --fail-over-fer; 2 bad input or usage, or every record failed; 3 internal error;
    130 interrupted (Ctrl-C; rerun the same command to resume).
    """
    from auditor.settings import get_settings
    from services.batch.backends import make_backend
    from services.batch.runner import BatchOptions, run_batch
    from services.batch.sources import open_source, parse_mapping
    from services.batch.worker import operating_point
    from trail import Trail
    from trail.records import check_tenant

    check_tenant(tenant)
    if input_path is not None and out.resolve() == input_path.resolve():
        raise UsageError("--out must not be the INPUT file")
    if backend == "ray" and workers == 0:
        raise UsageError("--backend ray needs --workers 1 or more")
    operating_point(flag_at_fpr)
    runner = make_backend(backend, workers, ray_address=ray_address)
    source = open_source(
        input_path,
        fmt=fmt,
        mapping=parse_mapping(mapping),
        encoding=encoding,
        sql_url=sql_url,
        query=query,
    )
    settings = get_settings()
    trail = Trail.from_settings(settings, db_url)  # automatic checkpoints when a key is set
    trail.migrate()
    options = BatchOptions(
        tenant=tenant,
        default_domain=domain or "auto",
        chunk_size=chunk_size,
        retry_failed=retry_failed,
        progress=progress,
        flag_at_fpr=flag_at_fpr,
        audit_timeout_s=settings.audit_timeout_s,
    )
    try:
        summary = run_batch(source, out=out, trail=trail, options=options, backend=runner)
        trail.maybe_checkpoint(wait=True)  # sign what this run appended, if one is due
        trail.wait_for_checkpoint()
    finally:
        trail.close()
    if as_json:
        click.echo(orjson.dumps(summary.to_dict(), option=orjson.OPT_INDENT_2).decode())
    else:
        click.echo(summary.render(gate=fail_over_fer))
    if summary.total and len(summary.failures) == summary.total:
        raise UsageError(
            f"every record of the batch failed ({summary.total:,} of {summary.total:,}); "
            "see the failures above"
        )
    fer = summary.pooled_fer()
    if fail_over_fer is not None and fer is not None and fer > fail_over_fer:
        raise GateFailed(
            f"the batch's factual error rate {fer:.3f} is above the gate {fail_over_fer}"
        )


__all__ = ["batch_command"]
