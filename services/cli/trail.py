"""``kgaudit trail``: migrate, verify the hash chain, sign checkpoints, re-audit and diff;
the Merkle-tree commands (keys, signed heads, proofs) are in :mod:`services.cli.trail_tree`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from auditor.errors import DataError, GateFailed, UsageError
from services.cli.trail_common import _trail
from services.cli.trail_tree import COMMANDS as TREE_COMMANDS

# the trail database option of every command that reads or writes the trail
DB_OPTION = click.option(
    "--db",
    "db_url",
    metavar="URL",
    default=None,
    help="SQLAlchemy URL of the audit trail (default: the settings' database).",
)
_JSON = click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")


def _key() -> bytes:
    from auditor.settings import get_settings

    secret = get_settings().checkpoint_key
    if secret is None:
        raise UsageError(
            "no checkpoint key: set KGAUDIT_CHECKPOINT_KEY (make one with 'kgaudit trail keygen')"
        )
    return secret.get_secret_value().encode("utf-8")


def _echo_json(value: Any) -> None:
    click.echo(json.dumps(value, indent=2, sort_keys=True, ensure_ascii=False))


@click.group("trail")
def trail_group() -> None:
    """Inspect and protect the tamper-evident audit trail."""


@trail_group.command("migrate")
@DB_OPTION
def migrate_command(db_url: str | None) -> None:
    """Create or upgrade the trail's schema (alembic upgrade head)."""
    trail = _trail(db_url)
    trail.migrate()
    click.echo(f"trail schema is at the latest revision ({trail!r})")


@trail_group.command("verify")
@DB_OPTION
@click.option(
    "--checkpoint",
    "checkpoint_files",
    multiple=True,
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="An exported checkpoint JSON file to check the chain against (repeatable).",
)
@click.option(
    "--full",
    is_flag=True,
    help="Recompute every record from the first (with a key, "
    "the default starts after the newest valid signed checkpoint).",
)
@_JSON
def verify_command(
    db_url: str | None, checkpoint_files: tuple[Path, ...], full: bool, as_json: bool
) -> None:
    """Check the chain; exit 1 naming the first broken record.

    With KGAUDIT_CHECKPOINT_KEY set, the stored and logged checkpoints are checked too, and
    only the records after the newest valid one are recomputed unless --full is given.
    """
    from auditor.settings import get_settings

    trail = _trail(db_url)
    key = _key() if checkpoint_files or get_settings().checkpoint_key else None
    report = _verify_with_progress(trail, key, full or key is None)
    problems = list(report.problems)
    for f in checkpoint_files:
        try:
            cp = json.loads(f.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise DataError(f"cannot read the checkpoint: {exc}", location=str(f)) from exc
        from trail.checkpoints import check_checkpoint

        reason = (
            check_checkpoint(trail, cp, key or b"") if isinstance(cp, dict) else "not an object"
        )
        if reason is not None:
            problems.append(
                {
                    "seq": cp.get("seq") if isinstance(cp, dict) else None,
                    "audit_id": None,
                    "code": "checkpoint_mismatch",
                    "reason": f"{f}: {reason}",
                }
            )
    out = {
        **report.to_dict(),
        "ok": not problems,
        "problems": problems,
        "first_broken": report.first_broken or (problems[0] if problems else None),
    }
    if as_json:
        _echo_json(out)
    elif not problems:
        click.echo(f"ok: {report.checked} records verified; head {report.head_hash}")
    else:
        for p in problems[:20]:
            audit = f" (audit {p['audit_id']})" if p.get("audit_id") else ""
            click.echo(f"BROKEN seq {p['seq']}{audit}: {p['reason']}")
        if len(problems) > 20:
            click.echo(f"... and {len(problems) - 20} more")
    if problems:
        first = out["first_broken"]
        raise GateFailed(f"the audit trail is broken at seq {first['seq']}: {first['reason']}")


def _verify_with_progress(trail: Any, key: bytes | None, full: bool) -> Any:
    """``trail.verify`` with a progress bar on stderr (shown for long full checks only)."""
    import sys

    from tqdm import tqdm

    total = trail.count()
    with tqdm(
        total=total,
        unit="rec",
        file=sys.stderr,
        desc="verifying",
        disable=total < 5000 or not full,
        mininterval=1.0,
    ) as bar:
        return trail.verify(key=key, full=full, progress=lambda n: bar.update(n - bar.n))


@trail_group.command("keygen")
def keygen_command() -> None:
    """Print a new random checkpoint key (set it as KGAUDIT_CHECKPOINT_KEY; keep it secret)."""
    from trail.checkpoints import generate_key

    click.echo(generate_key())


@trail_group.command("export")
@DB_OPTION
@click.option(
    "--out",
    required=True,
    type=click.Path(dir_okay=False, path_type=Path),
    help="JSONL file: one line per event with its audit and claims, as hashed.",
)
def export_command(db_url: str | None, out: Path) -> None:
    """Export the chain for third-party verification (see docs/trail.md)."""
    from trail.export import export_trail

    n = export_trail(_trail(db_url), out)
    click.echo(f"exported {n} records to {out}")


@trail_group.command("checkpoint")
@DB_OPTION
@click.option(
    "--out",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Also write the checkpoint JSON to this file (keep it outside the database).",
)
def checkpoint_command(db_url: str | None, out: Path | None) -> None:
    """Sign the current chain head with KGAUDIT_CHECKPOINT_KEY and print the checkpoint."""
    cp = _trail(db_url).checkpoint(_key())
    if out is not None:
        out.write_text(json.dumps(cp, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    _echo_json(cp)


@trail_group.command("checkpoints")
@DB_OPTION
def checkpoints_command(db_url: str | None) -> None:
    """List the stored checkpoints as JSON."""
    _echo_json(_trail(db_url).checkpoints())


def _print_diff(d: dict[str, Any]) -> None:
    for k, v in d["versions"].items():
        if v["old"] != v["new"]:
            click.echo(f"{k}: {v['old']} -> {v['new']}")
    for k, v in d["scores"].items():
        if v["old"] != v["new"]:
            click.echo(f"{k}: {v['old']} -> {v['new']}")
    for c in d["changed"]:
        click.echo(
            f"changed [{c['start']}:{c['end']}] {c['predicate']}: "
            f"{c['old_verdict']} -> {c['verdict']}"
        )
    for c in d["added"]:
        click.echo(f"added   [{c['start']}:{c['end']}] {c['predicate']}: {c['verdict']}")
    for c in d["removed"]:
        click.echo(f"removed [{c['start']}:{c['end']}] {c['predicate']}: {c['verdict']}")
    click.echo(
        f"{d['unchanged']} claims unchanged" + ("; results identical" if d["identical"] else "")
    )


@trail_group.command("reaudit")
@click.argument("audit_id")
@click.option("--tenant", default="default", show_default=True)
@click.option(
    "--record",
    is_flag=True,
    help="Append the new result to the trail (the original record is never changed).",
)
@DB_OPTION
@_JSON
def reaudit_command(
    audit_id: str, tenant: str, record: bool, db_url: str | None, as_json: bool
) -> None:
    """Re-run a stored audit against the current graphs and rules; list the differences."""
    d = _trail(db_url).reaudit(audit_id, tenant=tenant, record=record, requester="cli")
    if as_json:
        _echo_json({k: v for k, v in d.items() if k != "result"})
        return
    _print_diff(d)
    if d["recorded"]:
        click.echo(f"recorded as audit {d['recorded']['id']} (seq {d['recorded']['seq']})")


@trail_group.command("diff")
@click.argument("old_id")
@click.argument("new_id")
@click.option("--tenant", default="default", show_default=True)
@DB_OPTION
@_JSON
def diff_command(old_id: str, new_id: str, tenant: str, db_url: str | None, as_json: bool) -> None:
    """List claim-level differences between two stored audits."""
    d = _trail(db_url).diff(old_id, new_id, tenant=tenant)
    if as_json:
        _echo_json(d)
    else:
        _print_diff(d)


for _command in TREE_COMMANDS:
    trail_group.add_command(_command)

__all__ = ["trail_group"]
