"""Text side of fuzzy linking: canonical forms, abbreviations, n-grams and candidate windows.

Names and text windows are compared in a *canonical* form: lower case, typographic
punctuation folded, abbreviations expanded (Bluebook table T6 and a few common ones:
"Bd. of Educ." → "board of education"), "vs"/"v." → "v", "&" → "and", other punctuation
dropped.

>>> canonical("Brown v. Bd. of Ed.")
'brown v board of education'
>>> canonical("Dep’t of Revenue & Taxation")
'department of revenue and taxation'
>>> char_wb_ngrams("v ab", 3, 3)
[' v ', ' ab', 'ab ']
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from auditor.extract.linker import normalize

# Abbreviation (lower case, without dots or apostrophes) → the word it stands for.
ABBREVIATIONS: dict[str, str] = {
    "admin": "administration", "ass": "association", "assn": "association",
    "auth": "authority", "bd": "board", "bros": "brothers", "cmty": "community",
    "cnty": "county", "co": "company", "commn": "commission", "comm": "commission",
    "corp": "corporation", "ctr": "center", "dept": "department", "dep": "department",
    "dist": "district", "ed": "education", "educ": "education", "elec": "electric",
    "envtl": "environmental", "fin": "financial", "govt": "government", "hosp": "hospital",
    "hous": "housing", "inc": "incorporated", "indus": "industries", "ins": "insurance",
    "intl": "international", "ltd": "limited", "mfg": "manufacturing", "mgmt": "management",
    "mun": "municipal", "mut": "mutual", "natl": "national", "org": "organization",
    "pharm": "pharmaceutical", "prods": "products", "pub": "public", "ry": "railway",
    "rr": "railroad", "sch": "school", "servs": "services", "soc": "society",
    "sys": "system", "tel": "telephone", "transp": "transportation", "twp": "township",
    "univ": "university", "util": "utility", "hcl": "hydrochloride",
    "vs": "v", "ala": "alabama", "ariz": "arizona", "ark": "arkansas", "cal": "california",
    "calif": "california", "colo": "colorado", "conn": "connecticut", "fla": "florida",
    "ill": "illinois", "kan": "kansas", "mass": "massachusetts", "mich": "michigan",
    "minn": "minnesota", "miss": "mississippi", "okla": "oklahoma", "penn": "pennsylvania",
    "pa": "pennsylvania", "tenn": "tennessee", "tex": "texas", "va": "virginia",
    "wash": "washington", "wis": "wisconsin", "ny": "new york", "nj": "new jersey",
    "us": "united states", "usa": "united states of america", "uk": "united kingdom",
    "eu": "european union",
}  # fmt: skip
# Abbreviations that are not also ordinary words: expanded even when written without a dot.
UNAMBIGUOUS = frozenset(
    {"assn", "bd", "bros", "cmty", "cnty", "commn", "corp", "ctr", "dept", "educ", "envtl",
     "govt", "hcl", "hosp", "inc", "indus", "intl", "ltd", "mfg", "mgmt", "natl", "prods",
     "sch", "servs", "transp", "twp", "univ", "vs"}
)  # fmt: skip
# Function words and very common words: never a reason to try fuzzy matching on their own.
_STOP_TEXT = """a about above after again against all also am an and any are as at be because been
    before being below between both but by can could did do does doing down during each
    either else ever every few for from further had has have having he her here hers him his
    how however i if in into is it its itself just least less like may me might more most
    much must my neither no nor not now of off often on once only or other our ours out over
    own per please rather same she should since so some still such than that the their them
    then there these they this those though through thus to too under until up upon us very
    was we were what when where whether which while who whom whose why will with within
    without would yet you your yours"""
STOPWORDS = frozenset(_STOP_TEXT.split())
CONNECTORS = frozenset({"of", "the", "and", "v", "vs", "for", "de", "la", "ex", "rel"})
MIN_ANCHOR = 4  # letters a word needs before a misspelling of it is worth looking for
MAX_SMALL_WINDOW = 4  # tokens in the windows tried around an unknown word
MAX_RUN = 12  # tokens in a capitalised run ("Williamson County ... v. Hamilton Bank ...")

_W = r"[^\W_]"  # a letter or digit, any script
_TOKEN = re.compile(rf"{_W}(?:{_W}|['\-]|\.(?={_W}))*\.?")
_CANON_TOKEN = re.compile(rf"(?:{_W}\.){{2,}}|{_W}+(?:'{_W}+)*\.?")
_BREAK = re.compile(r"[;:\"!?,\n]")
_HARD_BREAK = re.compile(r"[;:\"“”!?,\n]")
_WORDISH = re.compile(r"(?<![^\W_])[^\W\d_]+(?:['\-.][^\W\d_]+)*\.?")
REGION = 300  # characters around an anchor a window (or a stretched one) can reach


def _bare(token: str) -> str:
    if token.endswith("'s"):
        token = token[:-2]
    return token.replace(".", "").replace("'", "")


def canonical(text: str) -> str:
    """The form names and windows are compared in (see the module docstring)."""
    out: list[str] = []
    for tok in _CANON_TOKEN.findall(normalize(text).replace("&", " and ")):
        bare = _bare(tok)
        short = tok.endswith(".") or "'" in tok or bare in UNAMBIGUOUS
        out.append(ABBREVIATIONS.get(bare, bare) if short else bare)
    if len(out) > 1 and out[0] == "the":
        del out[0]
    return " ".join(out)


def digits(text: str) -> str:
    """The numbers of a canonical string — its digits and Roman numerals, in order: a fuzzy
    match never changes a number ("Basel IIII" is not "Basel III")."""
    romans = [w for w in text.split() if len(w) >= 2 and set(w) <= {"i", "v", "x"}]
    return "".join(c for c in text if c.isdigit()) + "|" + " ".join(romans)


def char_wb_ngrams(text: str, lo: int = 2, hi: int = 3) -> list[str]:
    """Character n-grams inside space-padded words — scikit-learn's ``char_wb`` analyzer."""
    grams: list[str] = []
    for w in text.lower().split():
        w = f" {w} "
        for n in range(lo, hi + 1):
            grams += [w[i : i + n] for i in range(max(1, len(w) - n + 1))]
            if len(w) <= n:
                break
    return grams


def words_of(names: Iterable[str]) -> set[str]:
    """Every canonical word of ``names`` (a word of a known name is not a misspelling)."""
    out: set[str] = set()
    for n in names:
        out.update(n.split())
    return out


@dataclass(frozen=True, slots=True)
class Token:
    start: int
    end: int
    bare: str  # lower case, without dots/apostrophes
    capital: bool  # starts with a capital letter in the original text
    acronym: bool  # written in capitals ("US", "SAR"): never a function word
    abbreviation: bool  # written as an abbreviation ("Bd.", "Dep't", "U.S.")
    covered: bool = False  # inside a mention the exact linker found


@dataclass(frozen=True, slots=True)
class Window:
    start: int
    end: int
    text: str  # canonical form
    first: int = 0  # index of its first and last token in the segment
    last: int = 0


def tokenize(text: str, lo: int = 0, hi: int | None = None) -> list[Token]:
    """Word tokens of ``text[lo:hi]`` with offsets into ``text`` (a sentence-final full stop
    is not part of the word)."""
    norm = normalize(text[lo:hi])
    out: list[Token] = []
    for m in _TOKEN.finditer(norm):
        raw = m.group(0)
        bare = _bare(raw)
        dotted = "." in raw[:-1] or "'" in raw or raw.endswith(".")
        short = bare in ABBREVIATIONS or bare in _CASE_SEP
        end = m.end()
        if raw.endswith(".") and not short and "." not in raw[:-1]:
            end -= 1  # the full stop ends the sentence
        abbreviation = dotted and short and bare not in _CASE_SEP
        word = text[lo + m.start() : lo + end]
        capital, acronym = word[0].isupper(), len(word) > 1 and word.isupper()
        out.append(Token(lo + m.start(), lo + end, bare, capital, acronym, abbreviation))
    return out


def anchor_regions(text: str, known: frozenset[str] | set[str]) -> list[tuple[int, int]]:
    """Stretches of ``text`` worth tokenising: around every word that may be an anchor, out
    to the nearest hard break (``;:",!?`` or a line break) or ``REGION`` characters, merged.
    A cheap pass over the words, so texts with nothing unknown cost almost nothing."""
    low = normalize(text)  # same length as text
    words = set(_WORDISH.findall(low)) - known - STOPWORDS
    anchors = {w for w in words if _may_anchor(w, known)}
    if not anchors:
        return []
    # the anchors' occurrences, as the words they were read as (no per-text regex to compile)
    spans = [(m.start(), m.end()) for m in _WORDISH.finditer(low) if m.group(0) in anchors]
    if not spans:
        return []
    breaks = [b.start() for b in _HARD_BREAK.finditer(text)]
    out: list[tuple[int, int]] = []
    for s, e in spans:
        i = bisect.bisect_left(breaks, s)
        lo = max(breaks[i - 1] + 1 if i else 0, s - REGION)
        hi = min(breaks[i] if i < len(breaks) else len(text), e + REGION)
        lo = text.rfind(" ", 0, lo + 1) + 1 if lo > 0 and not text[lo - 1].isspace() else lo
        sp = text.find(" ", hi)
        hi = len(text) if sp < 0 else sp
        if out and lo <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], hi))
        else:
            out.append((lo, hi))
    return out


def _may_anchor(w: str, known: frozenset[str] | set[str]) -> bool:
    """Whether a word (lower case) may be an anchor — the token-level test is :func:`is_anchor`."""
    bare = _bare(w)
    if bare in ABBREVIATIONS:
        return (w.endswith(".") or "'" in w) and bare not in _QUIET_ABBREVIATIONS
    return any(
        len(p) >= MIN_ANCHOR and p.isalpha() and p not in known and p not in STOPWORDS
        for p in bare.split("-")
    )


def is_anchor(tok: Token, known: frozenset[str] | set[str]) -> bool:
    """A word worth a fuzzy look: an abbreviation, or an unknown word of ≥ 4 letters."""
    if tok.covered:
        return False
    if tok.abbreviation:
        return tok.bare not in _QUIET_ABBREVIATIONS
    return any(
        len(w) >= MIN_ANCHOR and w.isalpha() and w not in known and w not in STOPWORDS
        for w in tok.bare.split("-")
    )


def segments(
    text: str, tokens: Sequence[Token], covered: Sequence[tuple[int, int]]
) -> list[list[Token]]:
    """Runs of word tokens not interrupted by punctuation or a sentence end; tokens inside
    ``covered`` spans (exact mentions, sorted) are marked and never anchors."""
    out: list[list[Token]] = [[]]
    j = 0
    prev_end = None
    for tok in tokens:
        while j < len(covered) and covered[j][1] <= tok.start:
            j += 1
        gap = text[prev_end : tok.start] if prev_end is not None else ""
        if out[-1] and (gap.startswith(".") or _BREAK.search(gap)):
            out.append([])
        inside = j < len(covered) and covered[j][0] < tok.end
        out[-1].append(replace(tok, covered=True) if inside else tok)
        prev_end = tok.end
    return [seg for seg in out if seg]


def window_at(text: str, seg: Sequence[Token], i: int, j: int) -> Window | None:
    """The window of tokens ``i..j`` of ``seg``, unless it starts or ends with a function word
    (a leading "the" that belongs to an exact mention is kept: "the ECB deposyt rate")."""
    a, b = seg[i], seg[j]
    if (_function_word(a) and not a.covered) or _function_word(b):
        return None
    if {a.bare, b.bare} & _CASE_SEP:
        return None
    return Window(a.start, b.end, canonical(text[a.start : b.end]), i, j)


def windows(text: str, seg: Sequence[Token], known: frozenset[str] | set[str]) -> list[Window]:
    """Candidate spans around each anchor of one segment: every window of up to four words
    that holds it, and the capitalised run it belongs to — a bounded number per anchor, so
    the work stays linear in the length of the text."""
    out: dict[tuple[int, int], Window] = {}

    def add(i: int, j: int) -> None:  # tokens i..j inclusive
        if (i, j) not in out and (w := window_at(text, seg, i, j)) is not None:
            out[(i, j)] = w

    for k, tok in enumerate(seg):
        if not is_anchor(tok, known):
            continue
        for size in range(1, MAX_SMALL_WINDOW + 1):
            for i in range(max(0, k - size + 1), min(k, len(seg) - size) + 1):
                add(i, i + size - 1)
        i = j = k
        while i > 0 and k - i < MAX_RUN and _in_run(seg[i - 1]):
            i -= 1
        while j + 1 < len(seg) and j - i < MAX_RUN and _in_run(seg[j + 1]):
            j += 1
        while i < k and not (seg[i].capital or seg[i].abbreviation):
            i += 1
        if j > i:
            add(i, j)
            if i < k and seg[i].bare in _LEAD_INS:
                add(i + 1, j)
    return list(out.values())


def stretched(text: str, seg: Sequence[Token], w: Window, size: int) -> list[Window]:
    """Every window of ``size`` tokens of ``seg`` that holds ``w`` (to reach a longer name
    whose words are mostly already exact mentions: "Tier 1 minimum plus capital conswrvation
    buffer")."""
    out = []
    for i in range(max(0, w.last - size + 1), min(w.first, len(seg) - size) + 1):
        if (x := window_at(text, seg, i, i + size - 1)) is not None:
            out.append(x)
    return out


_CASE_SEP = frozenset({"v", "vs"})
# Abbreviations too common to start a fuzzy look on their own ("347 U.S. 483", "Acme Co.").
_QUIET_ABBREVIATIONS = frozenset({"us", "usa", "uk", "eu", "co", "inc", "ltd", "corp"})
_LEAD_INS = frozenset({"in", "see", "the", "under", "cf", "per", "after", "before", "as"})


def _function_word(tok: Token) -> bool:
    return tok.bare in STOPWORDS and not tok.acronym


def _in_run(tok: Token) -> bool:
    return tok.capital or tok.abbreviation or tok.bare in CONNECTORS
