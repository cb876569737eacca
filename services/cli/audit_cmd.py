"""``kgaudit audit FILE|-``: audit one answer and print the verdicts (text for people, JSON for tools)."""

from __future__ import annotations

import sys
from pathlib import Path

import click
import orjson

from auditor.errors import GateFailed, UsageError
from auditor.input_file import check_input_file


@click.command("audit")
@click.argument("source", type=str)
@click.option(
    "--domain",
    type=click.Choice(["finance", "medical", "legal", "auto"]),
    required=True,
    help="Graph and rule pack to audit against; auto picks them from the entities found.",
)
@click.option("--as-of", "as_of", help="Judge claims as of this date (YYYY-MM-DD); default today.")
@click.option(
    "--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True
)
@click.option(
    "--citation", "citations", multiple=True, help="An extra citation to check (repeatable)."
)
@click.option(
    "--fail-over-fer",
    type=float,
    default=None,
    help="Exit with code 1 when the factual error rate is above this value (0..1).",
)
@click.option(
    "--flag-at-fpr",
    type=float,
    default=None,
    help="Flag the answer at the risk threshold for this false-positive rate (e.g. 0.05).",
)
def audit_command(
    source: str,
    domain: str,
    as_of: str | None,
    fmt: str,
    citations: tuple[str, ...],
    fail_over_fer: float | None,
    flag_at_fpr: float | None,
) -> None:
    """Audit the answer in SOURCE (a file, or - for standard input)."""
    text = _read(source)
    if fail_over_fer is not None and not 0.0 <= fail_over_fer <= 1.0:
        raise UsageError("--fail-over-fer must be between 0 and 1")
    from auditor import get_auditor

    auditor = get_auditor()
    result = auditor.audit(text, domain=domain, as_of=as_of, citations=list(citations) or None)
    if flag_at_fpr is not None:
        from auditor.risk import apply_operating_point

        apply_operating_point(result, flag_at_fpr)
    if fmt == "json":
        click.echo(orjson.dumps(result.to_dict(), option=orjson.OPT_INDENT_2).decode())
    else:
        from auditor.render import render_text

        click.echo(render_text(result))
    if fail_over_fer is not None and result.fer is not None and result.fer > fail_over_fer:
        raise GateFailed(f"factual error rate {result.fer:.3f} is above the gate {fail_over_fer}")


def _read(source: str) -> str:
    if source == "-":
        data = sys.stdin.buffer.read()
        where = "standard input"
    else:
        path = Path(source)
        check_input_file(path, hint="give a file, or - for standard input")
        data = path.read_bytes()
        where = source
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise UsageError(f"{where} is not UTF-8 text") from None
