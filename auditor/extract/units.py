"""Project units on a pint registry of our own.

pint's default ``bp`` is the typographic "big point", and pint knows no currencies and no
International Units, so kgaudit uses a small registry defined here: masses, volumes, dosage
forms (counted), IU (its own dimension: IU do not convert to mass without the drug), percent
and basis points (both dimensionless: 25 bp == 0.25 %), one dimension per ISO 4217 currency
(USD never converts to EUR), and time for dosing periods.

>>> canonical(4, "g")
(4000.0, 'mg', 'mass')
>>> canonical(25, "bps")
(0.25, 'percent', 'percent')
>>> canonical(10_000, "EUR")[1:]
('EUR', 'currency')
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import pint

_DEFINITIONS = """
gram = [mass] = g = grams = gramme
milligram = 1e-3 * gram = mg = milligrams = mgs
microgram = 1e-6 * gram = mcg = µg = ug = micrograms
kilogram = 1e3 * gram = kg = kilograms
liter = [volume] = L = l = litre = liters = litres
milliliter = 1e-3 * liter = mL = ml = millilitre = milliliters = millilitres
dosage_unit = [dose_form] = tablet = tablets = tab = tabs = caplet = caplets = capsule = capsules = pill = pills = softgel = softgels = lozenge = lozenges = piece = pieces = patch = patches = puff = puffs = spray = sprays = suppository = suppositories
international_unit = [iu] = IU = iu = international_units
unit_of_activity = [activity_unit] = units
percent = 0.01 = pct = per_cent
basis_point = 1e-4 = bp = bps = basis_points
percentage_point = 0.01 = pp = percentage_points
hour = [time] = h = hours = hr = hrs
minute = hour / 60 = min = minutes = mins
day = 24 * hour = days
week = 7 * day = weeks
month = 30.4375 * day = months
year = 365.25 * day = years
"""

# canonical unit per dimension (what facts in the graph are expressed in)
_CANONICAL = {
    "[mass]": ("mg", "mass"),
    "[volume]": ("mL", "volume"),
    "[dose_form]": ("tablet", "count"),
    "[iu]": ("IU", "iu"),
    "[activity_unit]": ("unit", "activity"),
    "": ("percent", "percent"),
}


@lru_cache(maxsize=1)
def registry() -> pint.UnitRegistry[Any]:
    ureg: pint.UnitRegistry[Any] = pint.UnitRegistry(
        None, autoconvert_offset_to_baseunit=True, on_redefinition="ignore"
    )
    for line in _DEFINITIONS.strip().splitlines():
        ureg.define(line)
    return ureg


@lru_cache(maxsize=512)
def _currency(code: str) -> None:
    registry().define(f"{code} = [currency_{code}]")


def canonical(value: float, unit: str) -> tuple[float, str, str]:
    """``(value in the canonical unit, canonical unit code, dimension name)``.

    Currencies are given by ISO code (``USD``); other units by any pint alias above.
    Raises ``ValueError`` for an unknown unit.
    """
    if len(unit) == 3 and unit.isupper() and unit not in {"IU"}:
        _currency(unit)
        return float(value), unit, "currency"
    ureg = registry()
    try:
        q = ureg.Quantity(value, unit)
    except (pint.UndefinedUnitError, AttributeError, TypeError) as exc:
        raise ValueError(f"unknown unit {unit!r}") from exc
    dim = str(q.dimensionality) if q.dimensionality else ""
    if dim not in _CANONICAL:
        raise ValueError(f"unit {unit!r} has no canonical form")
    code, name = _CANONICAL[dim]
    target = "percent" if code == "percent" else code
    converted = q.to(target).magnitude if target != "unit" else q.to("units").magnitude
    return float(converted), code, name


def period_hours(period: str) -> float | None:
    """Length of a dosing period (``day``, ``week``, ``24 hours``, ``15 min``) in hours."""
    words = period.strip().lower().split()
    if not words:
        return None
    try:
        n = float(words[0]) if len(words) > 1 else 1.0
        unit = words[-1]
        return float(registry().Quantity(n, unit).to("hour").magnitude)
    except (ValueError, pint.UndefinedUnitError, pint.DimensionalityError):
        return None
