"""``kgaudit trail`` commands of the Merkle tree: keys, signed heads, proofs, offline checks."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from auditor.errors import GateFailed, UsageError

_OUT = click.option(
    "--out",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write the JSON to this file instead of standard output.",
)


_DB = click.option(
    "--db",
    "db_url",
    metavar="URL",
    default=None,
    help="SQLAlchemy URL of the audit trail (default: the settings' database).",
)


def _write(value: Any, out: Path | None) -> None:
    text = json.dumps(value, indent=2, sort_keys=True) + "\n"
    if out is None:
        click.echo(text, nl=False)
    else:
        out.write_text(text, encoding="utf-8")


def _read_json(path: Path, what: str) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise UsageError(f"{path}: cannot read the {what}: {exc}") from exc


def _read_heads(path: Path) -> list[Any]:
    """The tree heads of a JSON file (one head) or a JSON-lines file (the tree-head log)."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"{path}: cannot read the tree head: {exc}") from exc
    try:
        return [json.loads(text)]
    except ValueError:
        pass
    try:
        return [json.loads(line) for line in text.splitlines() if line.strip()]
    except ValueError as exc:
        raise UsageError(f"{path}: neither a JSON tree head nor JSON lines: {exc}") from exc


@click.command("tree-keygen")
@click.option(
    "--out",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Private key file (default: the settings' tree_key_file, <home>/tree_key.pem).",
)
def tree_keygen_command(out: Path | None) -> None:
    """Make the Ed25519 key that signs tree heads (mode 0600); print its public key (PEM)."""
    from auditor.settings import get_settings
    from trail.tree_heads import generate_key_file, public_pem

    path = out or get_settings().tree_key_path
    public = generate_key_file(path)
    click.echo(f"private key written to {path}", err=True)
    click.echo(public_pem(public), nl=False)


@click.command("public-key")
@_OUT
def public_key_command(out: Path | None) -> None:
    """Print the public key of the tree signing key (PEM), for offline verifiers."""
    from auditor.settings import get_settings
    from trail.tree_heads import TreeSigner, public_pem

    signer = TreeSigner.from_settings(get_settings())
    if signer is None:
        raise UsageError("no tree signing key: run 'kgaudit trail tree-keygen' first")
    pem = public_pem(signer.public)
    if out is None:
        click.echo(pem, nl=False)
    else:
        out.write_text(pem, encoding="ascii")


@click.command("sign-head")
@_DB
@_OUT
def sign_head_command(db_url: str | None, out: Path | None) -> None:
    """Sign the tree's root now (stored, logged, sent to the witness) and print the head."""
    from services.cli.trail_common import _trail

    _write(_trail(db_url).sign_tree_head(), out)


@click.command("prove")
@click.argument("audit_id", required=False)
@click.option("--from", "first", type=click.IntRange(0), help="Consistency proof from this size.")
@click.option(
    "--to", "second", type=click.IntRange(0), help="... to this size (default: newest head)."
)
@click.option("--tenant", default=None, help="Only an audit of this tenant (default: any).")
@_DB
@_OUT
def prove_command(
    audit_id: str | None,
    first: int | None,
    second: int | None,
    tenant: str | None,
    db_url: str | None,
    out: Path | None,
) -> None:
    """Write the inclusion proof of AUDIT_ID under the newest signed tree head, or with
    --from N [--to M] a consistency proof between two tree sizes (docs/trail.md)."""
    from services.cli.trail_common import _trail
    from trail.proofs import prove_audit, prove_consistency

    if (audit_id is None) == (first is None):
        raise UsageError("give an AUDIT_ID, or --from N for a consistency proof (not both)")
    trail = _trail(db_url)
    if audit_id is not None:
        doc = prove_audit(trail, audit_id, tenant=tenant)
        if doc is None:
            raise UsageError(f"no audit {audit_id!r} in the trail")
    else:
        doc = prove_consistency(trail, int(first or 0), second)
    _write(doc, out)
    if out is not None:
        click.echo(f"proof written to {out}", err=True)


@click.command("check-proof")
@click.argument("proof_file", type=click.Path(dir_okay=False, path_type=Path))
@click.option(
    "--public-key",
    "public_key",
    required=True,
    help="The tree signing key's public key: a PEM file, or 64 hex digits.",
)
@click.option(
    "--head",
    "head_files",
    multiple=True,
    type=click.Path(dir_okay=False, path_type=Path),
    help="A signed tree head you kept (JSON, or a JSON-lines export); repeatable.",
)
def check_proof_command(proof_file: Path, public_key: str, head_files: tuple[Path, ...]) -> None:
    """Verify a proof file offline with only the public key: exit 0 valid, 1 failed,
    2 unreadable input."""
    from trail.proofs import check_document
    from trail.tree_heads import load_public_key

    key_path = Path(public_key)
    try:
        key_text = key_path.read_text(encoding="ascii") if key_path.is_file() else public_key
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"{key_path}: cannot read the public key: {exc}") from exc
    public = load_public_key(key_text)
    kept = [h for f in head_files for h in _read_heads(f)]
    problems = check_document(_read_json(proof_file, "proof"), public, kept)
    if problems:
        for p in problems:
            click.echo(f"FAILED: {p}")
        raise GateFailed(f"{proof_file}: the proof does not verify: {problems[0]}")
    click.echo(f"ok: {proof_file} verifies")


COMMANDS = (
    tree_keygen_command,
    public_key_command,
    sign_head_command,
    prove_command,
    check_proof_command,
)

__all__ = ["COMMANDS"]
