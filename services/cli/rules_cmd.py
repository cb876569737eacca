"""``kgaudit rules validate|list``: check rule packs (shipped or your own) before using them."""

from __future__ import annotations

from pathlib import Path

import click


@click.group("rules")
def rules_group() -> None:
    """Validate and list rule packs."""


@rules_group.command("validate")
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@click.option(
    "--examples/--no-examples",
    default=True,
    show_default=True,
    help="Also run each rule's fires / passes examples through the auditor.",
)
def validate_command(paths: tuple[Path, ...], examples: bool) -> None:
    """Validate rule packs (files or folders; default: the shipped packs).

    Errors name the file, the rule id and the field. With --examples, every rule's examples
    are audited and a rule whose "fires" example does not fire (or whose "passes" example
    does) is reported.
    """
    from auditor.errors import DataError
    from rules.loader import load_rules

    rs = load_rules(list(paths), include_shipped=not paths)
    n = sum(len(p.rules) for p in rs.packs)
    click.echo(f"{len(rs.packs)} pack(s), {n} rule(s) valid; rules_version {rs.version}")
    if not examples:
        return
    from auditor.rule_examples import run_examples

    failures = run_examples(rs)
    for f in failures:
        click.echo(f"  {f}", err=True)
    if failures:
        raise DataError(
            f"{len(failures)} rule example(s) did not behave as declared",
            location=", ".join(rs.files),
        )
    click.echo("all rule examples behave as declared")


@rules_group.command("list")
@click.option("--domain", type=click.Choice(["finance", "medical", "legal"]))
def list_command(domain: str | None) -> None:
    """List the loaded rules with severity, hallucination type and citation."""
    from auditor.settings import get_settings
    from rules.loader import load_rules

    rs = load_rules(get_settings().rule_packs)
    for p in rs.packs:
        if domain and p.domain != domain:
            continue
        for r in p.rules:
            click.echo(f"{r.id:<16} {r.severity:<8} {r.hallucination_type:<20} {r.title}")
            click.echo(f"{'':<16} cites: {r.citation.text}")
