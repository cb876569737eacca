"""Schemas and loader for the curated YAML files (format in ``curated/FORMAT.md``).

Every file is validated by a pydantic model; unknown keys, missing keys and bad values are
reported as one :class:`~knowledge_graphs.errors.DataError` naming the file, the entry and
the field, e.g. ``medical/doses.yaml: entry 12 (ibuprofen): field 'unit': ...``.
"""

from __future__ import annotations

import re
from datetime import date
from pathlib import Path
from typing import Any, Literal, TypeVar

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from knowledge_graphs.errors import DataError
from knowledge_graphs.model import Source

CURATED_DIR = Path(__file__).resolve().parent.parent / "curated"


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class SourceIn(Strict):
    document: str = Field(min_length=3)
    section: str | None = None
    url: str | None = Field(default=None, pattern=r"^https?://")

    def to_source(self) -> Source:
        return Source(self.document, self.section, self.url)


class Sourced(Strict):
    source: SourceIn | None = None


class Quoted(Sourced):
    """A fact that carries its source's own sentence (``quote``, from ``source.section``).

    ``unquoted: true`` marks a fact whose sentence could not be read; its verdicts say so.
    """

    quote: str | None = Field(default=None, min_length=10, max_length=300)
    unquoted: bool = False

    @model_validator(mode="after")
    def _check_quote(self) -> Quoted:
        if self.quote is not None and self.unquoted:
            raise ValueError("'quote' and 'unquoted: true' exclude each other")
        return self

    def quote_qualifiers(self) -> dict[str, str | None]:
        """The fact qualifiers that carry the quote (or the unquoted marker)."""
        return {"quote": self.quote, "unquoted": "true" if self.unquoted else None}


# --- medical -------------------------------------------------------------------------------


class DoseIn(Quoted):
    drug: str
    max: float | None = Field(default=None, gt=0)
    min: float | None = Field(default=None, ge=0)
    unit: Literal[
        "mg",
        "mcg",
        "g",
        "IU",
        "tablet",
        "mL",
        "unit",
        "puff",
        "piece",
        "lozenge",
        "patch",
        "mEq",
        "drop",
        "mg/kg",
    ]
    per: str = "day"
    route: str = "oral"
    status: Literal["otc", "rx"] = "rx"
    population: str = "adult"
    indication: str | None = None
    product: str | None = None
    kind: Literal["label_maximum", "usual_range", "individualized"] = "label_maximum"
    note: str | None = None
    # a cap the label sets only with these co-medications ("do not exceed 20 mg with
    # amlodipine"): never a maximum for the drug alone
    with_drugs: list[str] = Field(default_factory=list)
    # the maximum is this product strength's own: other strengths of the same drug are sold
    # with other labelled maxima, so a claim naming no strength is never contradicted by it
    strength_specific: bool = False

    @model_validator(mode="after")
    def _check(self) -> DoseIn:
        if self.kind != "individualized" and self.max is None:
            raise ValueError(f"'max' is required when kind is {self.kind}")
        if self.min is not None and self.max is not None and self.min > self.max:
            raise ValueError("'min' is greater than 'max'")
        return self


class FrequencyIn(Quoted):
    drug: str
    frequency: str
    indication: str | None = None
    error: str | None = None


class DrugClassIn(Sourced):
    id: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$")
    label: str
    aliases: list[str] = Field(default_factory=list)
    members: list[str] = Field(min_length=1)


class InteractionIn(Quoted):
    a: str
    b: str
    severity: Literal["contraindicated", "major", "caution"]
    effect: str | None = None
    # The population or circumstance the label limits the statement to ("patients with
    # diabetes", "renal or hepatic impairment", "oral midazolam"); None = unconditional.
    condition: str | None = Field(default=None, min_length=3)


class WashoutIn(Quoted):
    """The label's minimum interval between stopping ``stop`` and starting ``start``."""

    stop: str  # drug name or "class:<id>"
    start: str
    min: float = Field(gt=0)
    unit: Literal["hour", "day", "week"]


class ScheduleIn(Quoted):
    """A drug's federal controlled-substance schedule over an interval (``until`` exclusive)."""

    drug: str
    schedule: Literal["I", "II", "III", "IV", "V", "not controlled"]
    from_: date | None = Field(default=None, alias="from")
    until: date | None = None


class RxOnlyIn(Sourced):
    """Drugs every US product of which is prescription-only."""

    drugs: list[str] = Field(min_length=1)


class IndicationIn(Quoted):
    drug: str
    condition: str
    label_text: str | None = None


class ConditionIn(Strict):
    code: str
    aliases: list[str] = Field(default_factory=list)


class DrugIn(Sourced):
    drug: str
    aliases: list[str] = Field(default_factory=list)
    brands: list[str] = Field(default_factory=list)
    withdrawn: date | None = None


# --- finance -------------------------------------------------------------------------------


class RateChangeIn(Sourced):
    effective: date
    low: float
    high: float
    decided: date | None = None
    note: str | None = None

    @model_validator(mode="after")
    def _check(self) -> RateChangeIn:
        if self.low > self.high:
            raise ValueError("'low' is greater than 'high'")
        return self


class RateSeriesIn(Sourced):
    id: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$")
    label: str
    aliases: list[str] = Field(default_factory=list)
    bank: str
    unit: Literal["percent"] = "percent"
    verified_through: date
    changes: list[RateChangeIn] = Field(min_length=1)

    @model_validator(mode="after")
    def _check(self) -> RateSeriesIn:
        days = [c.effective for c in self.changes]
        if days != sorted(days) or len(set(days)) != len(days):
            raise ValueError("'changes' must be in strictly increasing order of 'effective'")
        if self.verified_through < days[-1]:
            raise ValueError("'verified_through' is before the last change")
        return self


class BankIn(Sourced):
    id: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$")
    label: str
    aliases: list[str] = Field(default_factory=list)
    country: str | None = None
    rates: list[str] = Field(default_factory=list)  # empty: the graph holds no series of its rates


class ThresholdIn(Sourced):
    id: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$")
    label: str
    aliases: list[str] = Field(default_factory=list)
    jurisdiction: str
    amount: float = Field(gt=0)
    amount_max: float | None = None
    currency: str = Field(pattern=r"^[A-Z]{3}$")
    comparator: Literal[">", ">=", "range"]
    subject: str
    legal_citation: str
    valid_from: date | None = None
    valid_to: date | None = None
    note: str | None = None


class RatioIn(Sourced):
    id: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$")
    label: str
    aliases: list[str] = Field(default_factory=list)
    value: float = Field(ge=0)
    value_max: float | None = None
    unit: Literal["percent"] = "percent"
    basis: str
    jurisdiction: str = "BCBS"  # BCBS (the Basel Framework) or US (12 CFR 217), EU, ...
    valid_from: date | None = None
    note: str | None = None


class RegulationIn(Sourced):
    id: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$")
    label: str
    aliases: list[str] = Field(default_factory=list)
    identifier: str
    jurisdiction: str
    adopted: date | None = None
    entry_into_force: date | None = None
    application: date | None = None
    repealed: date | None = None
    note: str | None = None


class FatfSnapshotIn(Sourced):
    list: Literal["call-for-action", "increased-monitoring"]
    date: date
    complete: bool
    members: list[str] = Field(min_length=1)


# --- legal ---------------------------------------------------------------------------------


class OverruleIn(Strict):
    case: str
    kind: Literal["explicit", "effective"]
    note: str | None = None
    # "part" when only some of the earlier case's holdings fell; unset, a note that opens
    # "overruled in part" / "abrogated in part" / "in part" says so
    extent: Literal["whole", "part"] | None = None

    @property
    def overruled_extent(self) -> str:
        if self.extent is not None:
            return self.extent
        lead = (self.note or "").strip().lower()
        return "part" if re.match(r"(?:(?:overruled|abrogated)\s+)?in\s+part\b", lead) else "whole"


class CaseIn(Sourced):
    name: str
    aliases: list[str] = Field(default_factory=list)
    short: str | None = None
    volume: int = Field(gt=0)
    reporter: str = "U.S."
    page: int = Field(gt=0)
    decided: date | None = None
    year: int | None = Field(default=None, ge=1789, le=2100)
    parallel: list[str] = Field(default_factory=list)
    overruled_by: OverruleIn | None = None
    note: str | None = None

    @model_validator(mode="after")
    def _check(self) -> CaseIn:
        if self.decided is None and self.year is None:
            raise ValueError("one of 'decided' or 'year' is required")
        if self.decided is not None and self.year is not None and self.decided.year != self.year:
            raise ValueError("'year' disagrees with 'decided'")
        return self

    @property
    def decision_year(self) -> int:
        return self.decided.year if self.decided else int(self.year or 0)


class StatuteIn(Sourced):
    title: int
    code: Literal["U.S.C.", "C.F.R."]
    section: str
    name: str
    subject: str
    aliases: list[str] = Field(default_factory=list)


M = TypeVar("M", bound=Strict)


def load_entries(relpath: str, model: type[M], key: str = "entries") -> list[M]:
    """Load ``curated/<relpath>`` and validate each item of its ``key`` list as ``model``.

    A missing file yields an empty list (a family can be absent); a malformed file raises
    :class:`DataError` naming the file, the entry and the field.
    """
    path = CURATED_DIR / relpath
    if not path.exists():
        return []
    try:
        doc = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"{relpath}:{mark.line + 1}" if mark else relpath
        raise DataError(f"invalid YAML ({getattr(exc, 'problem', exc)})", location=where) from exc
    if not isinstance(doc, dict) or not isinstance(doc.get(key, []), list):
        raise DataError(f"expected a mapping with a '{key}' list", location=relpath)
    defaults: dict[str, Any] = doc.get("defaults") or {}
    out: list[M] = []
    for i, raw in enumerate(doc.get(key) or []):
        if not isinstance(raw, dict):
            raise DataError("entry is not a mapping", location=f"{relpath}: entry {i + 1}")
        item = {**defaults, **raw}
        try:
            out.append(model.model_validate(item))
        except ValidationError as exc:
            err = exc.errors()[0]
            field = ".".join(str(p) for p in err["loc"]) or "(entry)"
            label = _entry_label(raw)
            raise DataError(
                f"field '{field}': {err['msg']}",
                location=f"{relpath}: entry {i + 1}{label}",
            ) from exc
    return out


def _entry_label(raw: dict[str, Any]) -> str:
    for k in ("id", "name", "drug", "code", "a", "list"):
        if isinstance(raw.get(k), str | int):
            return f" ({raw[k]})"
    return ""


def require_source(item: Sourced, where: str) -> Source:
    """The entry's source; every curated fact must have one."""
    if item.source is None:
        raise DataError("field 'source': every curated entry needs a source", location=where)
    return item.source.to_source()
