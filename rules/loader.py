"""Load and validate rule packs; errors name the file, the rule id and the field.

>>> rs = load_rules()                       # the shipped packs          # doctest: +SKIP
>>> [r.id for r in rs.for_domain("medical")][:1]                       # doctest: +SKIP
['MED-DOSE-MAX']
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from knowledge_graphs.errors import DataError, SourceUnavailable
from rules.schema import Rule, RulePack

PACKS_DIR = Path(__file__).resolve().parent / "packs"


@dataclass(frozen=True)
class RuleSet:
    """All loaded packs, with a content hash as ``version``."""

    packs: tuple[RulePack, ...]
    version: str
    files: tuple[str, ...]

    def for_domain(self, domain: str) -> list[Rule]:
        return [r for p in self.packs if p.domain == domain for r in p.rules]

    def rule(self, rule_id: str) -> Rule | None:
        for p in self.packs:
            for r in p.rules:
                if r.id == rule_id:
                    return r
        return None


def shipped_pack_files() -> list[Path]:
    return sorted(PACKS_DIR.glob("*.yaml"))


def load_pack(path: Path) -> RulePack:
    """Parse and validate one pack file."""
    if not path.exists():
        raise SourceUnavailable(f"rule pack {path} does not exist")
    try:
        doc = yaml.safe_load(path.read_text(encoding="utf-8"))
    except UnicodeDecodeError as exc:
        raise DataError("the file is not UTF-8 text", location=str(path)) from exc
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"{path}:{mark.line + 1}" if mark else str(path)
        raise DataError(
            f"invalid YAML ({getattr(exc, 'problem', None) or exc})", location=where
        ) from exc
    if not isinstance(doc, dict):
        raise DataError(
            "a rule pack must be a mapping with 'pack', 'domain', 'version', "
            "'description' and 'rules'",
            location=str(path),
        )
    try:
        return RulePack.model_validate(doc)
    except ValidationError as exc:
        raise DataError(_describe(exc, doc), location=str(path)) from exc


def _describe(exc: ValidationError, doc: dict[str, Any]) -> str:
    err = exc.errors()[0]
    loc = list(err["loc"])
    rules = doc.get("rules") if isinstance(doc.get("rules"), list) else []
    if len(loc) >= 2 and loc[0] == "rules" and isinstance(loc[1], int):
        raw = rules[loc[1]] if loc[1] < len(rules) else {}
        rid = raw.get("id") if isinstance(raw, dict) else None
        field = ".".join(str(p) for p in loc[2:]) or "(rule)"
        who = f"rule {rid}" if rid else f"rule #{loc[1] + 1}"
        return f"{who}: field '{field}': {err['msg']}"
    field = ".".join(str(p) for p in loc) or "(pack)"
    return f"field '{field}': {err['msg']}"


def _expand(paths: Iterable[str | Path]) -> list[Path]:
    out: list[Path] = []
    for p in map(Path, paths):
        if p.is_dir():
            out += sorted([*p.glob("*.yaml"), *p.glob("*.yml")])
        else:
            out.append(p)
    return out


def load_rules(extra: Sequence[str | Path] = (), *, include_shipped: bool = True) -> RuleSet:
    """The shipped packs plus user packs (files or folders of ``*.yaml``)."""
    files = (shipped_pack_files() if include_shipped else []) + _expand(extra)
    packs = [load_pack(f) for f in files]
    seen: dict[str, Path] = {}
    for f, p in zip(files, packs, strict=True):
        for r in p.rules:
            if r.id in seen:
                raise DataError(
                    f"rule {r.id}: field 'id': already defined in {seen[r.id]}", location=str(f)
                )
            seen[r.id] = f
    h = hashlib.sha256()
    for f in files:
        h.update(f.name.encode())
        h.update(f.read_bytes())
    version = "rules-" + h.hexdigest()[:16]
    return RuleSet(tuple(packs), version, tuple(str(f) for f in files))
