"""Financial identifiers (ISIN, LEI, IBAN, BIC, CUSIP) found in text and checked with
python-stdnum / schwifty. Format and checksum only: a valid checksum does not prove the
identifier was issued or who holds it (NOTES.md).

A token is taken as an identifier when its scheme is named in the same sentence ("ISIN",
"LEI", "IBAN", "BIC"/"SWIFT", "CUSIP") or, for ISIN/IBAN/LEI, when its checksum is valid
(a random capitalised word is not reported as a broken identifier).

>>> [(i.scheme, i.valid) for i in find_identifiers("Apple's ISIN is US0378331005.")]
[('isin', True)]
>>> [(i.scheme, i.valid) for i in find_identifiers("ISIN US0378331006")]
[('isin', False)]
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_PATTERNS: dict[str, re.Pattern[str]] = {
    "iban": re.compile(r"\b[A-Z]{2}\d{2}(?:[ ]?[A-Z0-9]{4}){2,7}(?:[ ]?[A-Z0-9]{1,3})?\b"),
    "lei": re.compile(r"\b[0-9A-Z]{18}\d{2}\b"),
    "isin": re.compile(r"\b[A-Z]{2}[A-Z0-9]{9}\d\b"),
    "cusip": re.compile(r"\b[0-9]{3}[0-9A-Z]{5}\d\b"),
    "bic": re.compile(r"\b[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}(?:[A-Z0-9]{3})?\b"),
}
_KEYWORDS = {
    "iban": re.compile(r"\bIBAN\b", re.I),
    "lei": re.compile(r"\bLEI\b|legal entity identifier", re.I),
    "isin": re.compile(r"\bISIN\b", re.I),
    "cusip": re.compile(r"\bCUSIP\b", re.I),
    "bic": re.compile(r"\b(?:BIC|SWIFT)\b", re.I),
}
_STANDARD = {
    "isin": "ISO 6166",
    "lei": "ISO 17442",
    "iban": "ISO 13616",
    "bic": "ISO 9362",
    "cusip": "CUSIP (ANSI X9.6)",
}


@dataclass(frozen=True, slots=True)
class Identifier:
    start: int
    end: int
    text: str
    scheme: str
    valid: bool
    detail: str


def validate(scheme: str, value: str) -> tuple[bool, str]:
    """``(valid, reason)`` for one identifier of a scheme."""
    compact = value.replace(" ", "")
    try:
        if scheme == "bic":
            from schwifty import BIC

            BIC(compact)
            return True, f"valid {_STANDARD[scheme]} format and country code"
        if scheme == "iban":
            from schwifty import IBAN

            IBAN(compact)
            return True, f"valid {_STANDARD[scheme]} check digits"
        from stdnum import cusip, isin, lei

        module = {"isin": isin, "lei": lei, "cusip": cusip}[scheme]
        module.validate(compact)
        return True, f"valid {_STANDARD[scheme]} check digit"
    except Exception as exc:  # stdnum/schwifty raise their own ValidationError subclasses
        reason = getattr(exc, "message", None) or str(exc) or type(exc).__name__
        return False, f"fails {_STANDARD[scheme]} validation: {reason}"


def find_identifiers(text: str, offset: int = 0) -> list[Identifier]:
    out: list[Identifier] = []
    taken = bytearray(len(text) + 1)
    for scheme, pat in _PATTERNS.items():
        named = bool(_KEYWORDS[scheme].search(text))
        if scheme in {"bic", "cusip"} and not named:
            continue
        for m in pat.finditer(text):
            if any(taken[m.start() : m.end()]):
                continue
            token = m.group(0)
            if not any(c.isdigit() for c in token) and scheme != "bic":
                continue
            ok, detail = validate(scheme, token)
            if not ok and not named:
                continue
            taken[m.start() : m.end()] = b"\x01" * (m.end() - m.start())
            out.append(Identifier(offset + m.start(), offset + m.end(), token, scheme, ok, detail))
    out.sort(key=lambda i: i.start)
    return out


def norm_identifier(s: str) -> str:
    """An official identifier reduced for comparison ("No. 12/34" -> "12/34").

    >>> norm_identifier("Reg. No. 575/2013")
    'reg575/2013'
    """
    s = s.lower().replace("no.", "").replace("no ", " ")
    return re.sub(r"[^a-z0-9/]+", "", s)


_PUBLIC_LAW = re.compile(
    r"\bPub(?:lic)?\.?\s*L(?:aw)?\.?\s*(?:No\.?\s*)?(\d{2,3})\s*[-–]\s*(\d{1,3})\b", re.I
)


def public_laws(s: str) -> frozenset[str]:
    """The public-law numbers an identifier names ("Pub. L. 116-283, division F" -> 116-283).

    >>> sorted(public_laws("12 U.S.C. 1851 (section 619 of Pub. L. 111-203)"))
    ['111-203']
    """
    return frozenset(f"{a}-{b}" for a, b in _PUBLIC_LAW.findall(s))


def same_identifier(stated: str, stored: str) -> bool:
    """``stated`` is ``stored``, or names the public law ``stored`` is part of: an act cited
    by its public law alone ("Pub. L. 116-283") where the graph records the part ("Pub. L.
    116-283, division F, title LXIV")."""
    if norm_identifier(stated) == norm_identifier(stored):
        return True
    bare = _PUBLIC_LAW.fullmatch(stated.strip())  # only the law, no division or title
    return bare is not None and f"{bare[1]}-{bare[2]}" in public_laws(stored)
