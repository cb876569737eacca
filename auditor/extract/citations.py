"""Legal citations through eyecite, with our own parenthetical and case-name fallback.

eyecite's tokenizer finds case citations (volume, reporter, page) with the reporters-db
knowledge of 2,000+ reporter spellings. Its metadata step is slow and can take the year and
party names from the wrong parenthetical when several citations share a sentence (NOTES.md),
so the year and court are read by us from the parenthetical that follows each citation (court
strings resolved through our own index of courts-db citation strings) and the case name from
the text right before it. U.S.C. and C.F.R. sections and EU / U.S. act identifiers use our own
patterns.

>>> [(c.volume, c.reporter, c.page, c.year, c.case_name) for c in
...  find_citations("See Brown v. Board of Education, 347 U.S. 483 (1954).")]
[(347, 'U.S.', 483, 1954, 'Brown v. Board of Education')]
>>> [(c.kind, c.title, c.section) for c in find_citations("under 18 U.S.C. § 1956")]
[('statute', '18', '1956')]
"""

from __future__ import annotations

import re
from dataclasses import replace
from functools import lru_cache
from typing import Any

from auditor.types import CitationRef

_PREFILTER = re.compile(r"(?<!\d)\d++\s+[A-Z][A-Za-z0-9.\s'()]{0,30}?\d+")
_USC = re.compile(
    r"\b(?P<title>\d{1,2})\s*U\.?\s?S\.?\s?C\.?(?:\s*A\.)?\s*(?:§§?|[Ss]ec(?:tion|\.)?)?\s*"
    r"(?P<section>\d+[a-zA-Z]*(?:-\d+[a-zA-Z]*)?(?:\([a-zA-Z0-9]+\))*)"
)
_CFR = re.compile(
    r"\b(?P<title>\d{1,2})\s*C\.?\s?F\.?\s?R\.?\s*(?:§§?|[Pp]art|[Ss]ec(?:tion|\.)?)?\s*"
    r"(?P<section>\d+(?:\.[0-9][\w-]*)?)"
)
# One pinpoint after a citation's first page: a page or a slip opinion's blank ("___"), a
# range joined by any dash (hyphen, en / em dash, U+2212 minus) and footnotes ("n. 4",
# "nn. 3-5", "& n. 2"). The year in the parenthetical after any run of them is the citation's.
_DASH = r"\s*[-‐‑‒–—−]\s*"
_PIN_NUM = r"(?:\d+|_{2,})"
_FOOTNOTE = rf"(?:n{{1,2}}\.\s*\d+(?:{_DASH}\d+)?(?:\s*(?:,|and|&)\s*\d+)*)"
_PIN = (
    rf"(?:(?:(?:at|and|&)\s+)?(?:{_FOOTNOTE}|{_PIN_NUM}(?:{_DASH}{_PIN_NUM})?"
    rf"(?:,?\s*(?:&\s*|and\s+)?{_FOOTNOTE})?))"
)
_PAREN = re.compile(rf"^(?:\s*,\s*{_PIN})*\s*\((?P<inner>[^()]{{0,80}}?)\)")
_YEAR_IN = re.compile(
    r"(?P<court>.*?)\s*+(?:(?:Jan|Feb|Mar|Apr|May|June?|July?|Aug|Sept?|Oct|Nov|Dec)\.?\s+\d{1,2},\s+)?(?P<year>1[789]\d\d|20\d\d)\s*+$"
)
_NAME_WORD = (
    r"(?:[A-Z0-9][\w.'’&/\-]*,?|&|of|the|and|for|in|on|to|de|la|ex\s+rel\.|et\s+(?:al|ux|vir)\.?,?)"
)
_NAME_BEFORE = re.compile(
    rf"(?P<name>(?:In\s+re\s+|Ex\s+parte\s+)?[A-Z][\w.'’&\-]*,?(?:\s+{_NAME_WORD})*?"
    rf"\s+v\.?\s+[A-Z0-9][\w.'’&\-]*,?(?:\s+{_NAME_WORD})*?)\s*,\s*$"
)
_EDITION_YEAR = re.compile(r"\s*\((?:[^()]{0,20}\s)?(?:1[89]|20)\d\d\)")
_EU_ACT = re.compile(
    r"\b(?P<kind>Regulation|Directive|Decision|Implementing\s+Regulation|Delegated\s+Regulation)\s*"
    r"\((?P<org>EU|EC|EEC|Euratom)\)\s*(?:No\.?\s*)?(?P<num>\d{1,4}/\d{1,4}(?:/(?:EU|EC|EEC))?)",
    re.I,
)
_EU_ACT_SHORT = re.compile(r"\b(?P<kind>Directive)\s+(?P<num>\d{2,4}/\d{1,4}/(?:EU|EC|EEC))\b")
_PUB_L = re.compile(r"\bPub(?:lic)?\.?\s*L(?:aw)?\.?\s*(?:No\.?\s*)?(?P<num>\d{2,3}[-–]\d{1,3})\b")


_COMMON_REPORTERS = (
    "U.S.", "U. S.", "S. Ct.", "S.Ct.", "L. Ed.", "L. Ed. 2d", "L.Ed.2d", "F.", "F.2d", "F.3d",
    "F.4th", "F. Supp.", "F. Supp. 2d", "F. Supp. 3d", "F. App'x", "Fed. Appx.", "B.R.", "A.",
    "A.2d", "A.3d", "N.E.", "N.E.2d", "N.E.3d", "N.W.2d", "S.E.2d", "S.W.2d", "S.W.3d",
    "So. 2d", "So. 3d", "P.2d", "P.3d", "Cal. 4th", "Cal. Rptr. 3d", "N.Y.2d", "N.Y.3d",
    "N.Y.S.2d", "Ill. 2d", "Mass.", "Wheat.", "Cranch", "Pet.", "How.", "Wall.", "Dall.",
)  # fmt: skip


def warm_reporters() -> None:
    """Compile eyecite's patterns for the common reporters now: it compiles each reporter's
    pattern on first sight, which otherwise lands inside a user's audit."""
    _tokenizer().tokenize(" ".join(f"1 {r} 1 (2000)." for r in _COMMON_REPORTERS))


@lru_cache(maxsize=1)
def _tokenizer() -> Any:  # an eyecite tokenizer
    from eyecite.tokenizers import default_tokenizer

    return default_tokenizer


@lru_cache(maxsize=1)
def court_index() -> dict[str, str]:
    """Citation string of a court ("11th Cir.", "S.D.N.Y.") → courts-db id (find_court misses these)."""
    import courts_db

    out: dict[str, str] = {}
    for c in courts_db.courts:
        cite = (c.get("citation_string") or "").strip()
        if cite:
            out.setdefault(_court_key(cite), c["id"])
    return out


_SPACE_DOT = re.compile(r"[\s.]+")


def _court_key(s: str) -> str:
    return _SPACE_DOT.sub("", s).lower()


_EMPHASIS = re.compile(r"\*+|(?<![_\w])_(?!_)|(?<!_)_(?![_\w])")


def find_citations(text: str, offset: int = 0) -> list[CitationRef]:
    """Case, statute and regulation citations in one sentence (spans shifted by ``offset``).
    Markdown emphasis ("*Celotex Corp. v. Catrett*, 477 U.S. 242") is read as spaces, so a
    case name in italics is read like any other (same length: the spans stay true)."""
    original, text = text, _EMPHASIS.sub(lambda m: " " * len(m.group(0)), text)
    out: list[CitationRef] = []
    if _PREFILTER.search(text):
        out += _case_citations(text, offset)
    out += _back_references(text, offset)
    out += _slip_citations(text, offset)
    out += _statute_citations(text, offset)
    out += _regulation_citations(text, offset)
    out.sort(key=lambda c: c.start)
    if original != text:  # report the citation as written
        out = [replace(c, text=original[c.start - offset : c.end - offset]) for c in out]
    return out


def _case_citations(text: str, offset: int) -> list[CitationRef]:
    """Case citations found by eyecite's tokenizer (reporters-db knowledge); the year, court
    and case name are read by us from the text around each citation. A citation that follows
    another one after only a comma (and pinpoints) is its parallel ("550 U.S. 544, 127 S. Ct.
    1955 (2007)"): it takes the first one's name, and the chain shares the last one's year."""
    from eyecite.models import CitationToken

    try:
        _, tokens = _tokenizer().tokenize(text)
    except Exception:  # eyecite is third-party: a crash there must not stop the audit
        return []
    out: list[CitationRef] = []
    prev_end: int | None = None  # end of the previous citation when it had no parenthetical
    for _, tok in tokens:
        if not isinstance(tok, CitationToken):
            continue
        g = tok.groups
        vol, page = _int(g.get("volume")), _int(g.get("page"))
        editions = tok.exact_editions or tok.variation_editions
        if vol is None or page is None or not editions:
            continue
        reporter = editions[0].short_name
        start, end = tok.start, tok.end
        court_text, year, paren_end = _parenthetical(text, end)
        court = court_index().get(_court_key(court_text)) if court_text else None
        if court is None and reporter in _SCOTUS_REPORTERS:
            court = "scotus"
        # a syllabus's page reference ("P. 389 U. S. 353.", "Pp. 392 U. S. 10-12") is a
        # pinpoint inside the opinion, like a short form
        short = bool(_SHORT_FORM.search(text, start, end)) or bool(
            _SYLLABUS_PIN.search(text, max(0, start - 6), start)
        )
        if not short and (tail := _garbled_tail(text, start, end, g.get("page"))) is not None:
            # "556 U.S. 129 S. Ct. 1937": the U.S. page is missing and the next citation's
            # volume was read as it; this one is unchecked, the one after it is read on
            name, name_span = _case_name(text, start)
            first = name_span[0] if name_span else start
            out.append(
                CitationRef(
                    offset + first, offset + end, text[first:end], "case", volume=vol,
                    reporter=reporter, page=page, case_name=name, form="garbled",
                    name_span=(offset + name_span[0], offset + name_span[1]) if name_span else None,
                )
            )  # fmt: skip
            out += _case_citations_at(text, tail, offset, name)
            break  # the citations after it were read from the tail on
        parallel = (
            not short
            and out
            and prev_end is not None
            and _PARALLEL_GAP.fullmatch(text, prev_end, start) is not None
        )
        if parallel:
            name, name_span = out[-1].case_name, None
        else:
            name, name_span = _case_name(text, start)
        if short and name is None and (m := _SHORT_NAME.search(text, max(0, start - 60), start)):
            name, name_span = m.group(1), (m.start(1), m.end(1))  # "See Roe, 410 U.S. at 153"
        written = None
        if not short and not parallel and name is None:
            bare = _SHORT_NAME.search(text, max(0, start - 60), start) or _PAREN_NAME.search(
                text, max(0, start - 60), start
            )
            written = bare.group(1) if bare else None
        first = name_span[0] if name_span else start
        last = max(end, paren_end)
        out.append(
            CitationRef(
                offset + first,
                offset + last,
                text[first:last],
                "case",
                volume=vol,
                reporter=reporter,
                page=page,
                year=year,
                court=court,
                case_name=name,
                name_span=(offset + name_span[0], offset + name_span[1]) if name_span else None,
                short_form=short,
                form="short" if short else "parallel" if parallel else "full",
                written_name=written,
            )
        )
        prev_end = end if paren_end == end and not short else None
    return _share_years(out)


_SYLLABUS_PIN = re.compile(r"(?:^|[\s(])Pp?\.\s*$")


def _garbled_tail(text: str, start: int, end: int, page: object) -> int | None:
    """Where a second citation starts when this one's page is really that one's volume
    ("556 U.S. 129 S. Ct. 1937"): the page digits followed by another reporter and page."""
    if (
        not isinstance(page, str)
        or not text[end : end + 1].isspace()
        or not text[start:end].endswith(page)
    ):
        return None
    at = end - len(page)
    try:
        _, tokens = _tokenizer().tokenize(text[at : at + 60])
    except Exception:  # eyecite is third-party
        return None
    from eyecite.models import CitationToken

    return next(
        (
            at
            for _, t in tokens
            if isinstance(t, CitationToken) and t.start == 0 and t.end > end - at
        ),
        None,
    )


def _case_citations_at(text: str, at: int, offset: int, name: str | None) -> list[CitationRef]:
    """The citations read from ``at`` on (after a garbled one), the first taking ``name``."""
    refs = _case_citations(text[at:], offset + at)
    if refs and refs[0].case_name is None and refs[0].form == "full":
        refs[0] = replace(refs[0], case_name=name)
    return refs


def _share_years(refs: list[CitationRef]) -> list[CitationRef]:
    """Every member of a parallel chain takes the year (and court) of the chain's last one."""
    from dataclasses import replace

    for i in range(len(refs) - 1, 0, -1):
        ref = refs[i]
        if ref.form == "parallel":
            head = refs[i - 1]
            if head.year is None and ref.year is not None:
                refs[i - 1] = replace(head, year=ref.year, court=head.court or ref.court)
    return refs


_SCOTUS_REPORTERS = {"U.S.", "S. Ct.", "L. Ed.", "L. Ed. 2d", "U.S. LEXIS"}
_PARALLEL_GAP = re.compile(rf"(?:\s*,\s*{_PIN})*\s*,\s*")


_SHORT_FORM = re.compile(r"(?<!\s)\s++at\s+\d", re.I)
_SHORT_NAME = re.compile(
    r"(?:^|[^\w.'’&-])(?:(?:See|Cf|Accord|Compare|But|Also|E\.g|Contra)\.?,?\s+(?:also\s+|see\s+)?)?"
    r"(?!(?:See|Cf|Accord|Compare|But|Also|Contra)\b)([A-Z][\w.'’&-]*(?:\s+[A-Z][\w.'’&-]*){0,3}),\s*$"
)


_PAREN_NAME = re.compile(  # "Roe (410 U.S. 113)"
    r"(?:^|[^\w.'’&-])(?!(?:See|Cf|Accord|Compare|But|Also|Contra|The|In)\b)"
    r"([A-Z][\w.'’&-]*(?:\s+[A-Z][\w.'’&-]*){0,3})[*_]*\s*\(\s*$"
)


_ID = re.compile(
    r"(?<![\w.])(?:[Ss]ee\s+(?:also\s+)?|[Cc]f\.\s+)?(?P<id>[Ii]d\.)(?:,?\s+at\s+(?P<pin>\d+))?(?!\s*§)"
)
_SUPRA = re.compile(
    r"(?P<name>[A-Z][\w.'’&-]*(?:\s+v\.\s+[A-Z][\w.'’&-]*)?),?\s+supra"
    r"(?:,?\s+at\s+(?P<pin>\d+))?"
)


_SLIP = re.compile(
    r"(?<![\d_])(?:\d++|_{3})\s+U\.\s?S\.\s+_{3}(?:,\s*_{3}(?:[-–]_{3})?)?\s*\((?:[^()]{0,40}\s)?(?:1[89]|20)\d\d\)"
)


def _slip_citations(text: str, offset: int) -> list[CitationRef]:
    """Slip-opinion citations ("587 U. S. ___, ___ (2019)"): no page to check, so they are
    marked (form ``slip``) only so that their year is read as the citation's, not a claim's;
    the auditor does not check them."""
    out = []
    for m in _SLIP.finditer(text):
        name, span = _case_name(text, m.start())
        first = span[0] if span else m.start()
        out.append(
            CitationRef(
                offset + first, offset + m.end(), text[first : m.end()], "case",
                case_name=name, form="slip",
            )
        )  # fmt: skip
    return out


def _back_references(text: str, offset: int) -> list[CitationRef]:
    """ "Id." / "Id. at 557" and "Twombly, supra, at 560": citations that point back to an
    earlier one (resolved by :mod:`auditor.verify.legal.resolve`)."""
    out = []
    for m in _ID.finditer(text):
        pin = _int(m.group("pin"))
        out.append(
            CitationRef(
                offset + m.start("id"), offset + m.end(), text[m.start("id") : m.end()], "case",
                page=pin, form="id",
            )
        )  # fmt: skip
    for m in _SUPRA.finditer(text):
        out.append(
            CitationRef(
                offset + m.start(), offset + m.end(), m.group(0), "case",
                page=_int(m.group("pin")), case_name=m.group("name"), form="supra",
                name_span=(offset + m.start("name"), offset + m.end("name")),
            )
        )  # fmt: skip
    return out


def _statute_citations(text: str, offset: int) -> list[CitationRef]:
    """U.S.C. and C.F.R. sections (our own patterns: eyecite's statute support is beta)."""
    out: list[CitationRef] = []
    for code, pat in (("U.S.C.", _USC), ("C.F.R.", _CFR)):
        for m in pat.finditer(text):
            section = m.group("section").rstrip(".")
            end = m.start() + len(m.group(0).rstrip("."))
            if y := _EDITION_YEAR.match(text, end):  # "11 CFR §110.10 (2017)": the code's edition
                end = y.end()
            out.append(
                CitationRef(
                    offset + m.start(),
                    offset + end,
                    text[m.start() : end],
                    "statute",
                    reporter=code,
                    title=m.group("title"),
                    section=section,
                )
            )
    return out


def _parenthetical(text: str, end: int) -> tuple[str | None, int | None, int]:
    m = _PAREN.match(text[end : end + 120])
    if not m:
        return None, None, end
    inner = m.group("inner").strip()
    y = _YEAR_IN.match(inner)
    if not y:
        return None, None, end
    court = y.group("court").strip(" ,") or None
    return court, int(y.group("year")), end + m.end()


def _case_name(text: str, start: int) -> tuple[str | None, tuple[int, int] | None]:
    m = _NAME_BEFORE.search(text[max(0, start - 160) : start])
    if m:
        base = max(0, start - 160)
        name = _after_apposition(_strip_lead(m.group("name")))
        s = base + m.end("name") - len(name)
        return name, (s, base + m.end("name"))
    return None, None


def _after_apposition(name: str) -> str:
    """ "the federal Sentencing Guidelines, *United States v. Booker*": an emphasis run that
    opens inside the first party (read as two or more spaces, see :func:`find_citations`)
    starts the name; the words before it are what the citation is apposed to. A comma alone
    does not cut ("Goodyear Dunlop Tires Operations, S.A. v. Brown")."""
    v = re.search(r"\s+v\.?\s", name)
    if v is None:
        return name
    opens = [m.end() for m in re.finditer(r"\S\s{2,}(?=[A-Z])", name[: v.start()])]
    return name[opens[-1] :] if opens else name


_LEADS = re.compile(
    r"^(?:(?:See|see|also|Also|In|The|As|Under|Per|Cf\.|Compare|E\.g\.,?|But|and|And|held|in|"
    r"Thus|So|Then|Accord|Contra|Following|[Cc]iting|[Qq]uoting|"
    r"Court(?:'s)?(?:\s+(?:decision|ruling|holding|opinion))?\s+in|Supreme\s+Court\s+in|"
    r"(?:decision|ruling|holding|case)\s+(?:in|of))\s+)+"
)


def _strip_lead(name: str) -> str:
    stripped = _LEADS.sub("", name)
    return stripped if " v" in stripped else name


def _regulation_citations(text: str, offset: int) -> list[CitationRef]:
    out: list[CitationRef] = []
    for m in _EU_ACT.finditer(text):
        kind = " ".join(m.group("kind").split()).title()
        org = m.group("org").upper() if m.group("org").lower() != "euratom" else "Euratom"
        num = m.group("num")
        ident = f"{kind} ({org}) {'No ' if '/' in num and org != 'EU' and _no_prefix(m.group(0)) else ''}{num}"
        out.append(
            CitationRef(
                offset + m.start(),
                offset + m.end(),
                m.group(0),
                "regulation",
                section=ident.replace("  ", " "),
            )
        )
    for m in _EU_ACT_SHORT.finditer(text):
        if any(o.start - offset <= m.start() < o.end - offset for o in out):
            continue
        out.append(
            CitationRef(
                offset + m.start(),
                offset + m.end(),
                m.group(0),
                "regulation",
                section=f"Directive {m.group('num')}",
            )
        )
    for m in _PUB_L.finditer(text):
        out.append(
            CitationRef(
                offset + m.start(),
                offset + m.end(),
                m.group(0),
                "regulation",
                section=f"Pub. L. {m.group('num').replace('–', '-')}",
            )
        )
    return out


def _no_prefix(s: str) -> bool:
    return bool(re.search(r"\bNo\.?\s*\d", s))


def _int(v: object) -> int | None:
    try:
        return int(str(v))
    except (TypeError, ValueError):
        return None
