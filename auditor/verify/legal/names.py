"""Case-name matching tolerant of how names are really written.

SCDB names are captions ("VINCENT CULLEN, ACTING WARDEN, PETITIONER v. SCOTT LYNN
PINHOLSTER"); answers write "Cullen v. Pinholster", "Chevron U.S.A. Inc. v. NRDC", "In re
Gault", "Twombly". A claimed name matches a case when every side of it that carries a
distinctive word (not a party descriptor, not "United States") finds that word — or its
Bluebook expansion, its acronym, or a near spelling — on the same side of the case's name
(or on either side when the claim names one party only).

>>> same_case("Cullen v. Pinholster", "VINCENT CULLEN, ACTING WARDEN, PETITIONER v. SCOTT LYNN PINHOLSTER")
True
>>> same_case("Chevron U.S.A. Inc. v. NRDC", "CHEVRON, U. S. A., INC. v. NATURAL RESOURCES DEFENSE COUNCIL, INC., et al.")
True
>>> same_case("Bell Atlantic Corp. v. Twombly", "JOHN D. ASHCROFT, FORMER ATTORNEY GENERAL, et al. v. JAVAID IQBAL et al.")
False
>>> same_case("Smith v. Texas", "SMITH v. UNITED STATES")
False
"""

from __future__ import annotations

import re
from difflib import SequenceMatcher
from functools import lru_cache

# Bluebook T6 / T10 abbreviations (the common ones) → the word in a caption.
ABBREVIATIONS = {
    "ass'n": "association",
    "assn": "association",
    "bd": "board",
    "bros": "brothers",
    "comm'n": "commission",
    "commn": "commission",
    "comm'r": "commissioner",
    "commr": "commissioner",
    "corp": "corporation",
    "co": "company",
    "dep't": "department",
    "dept": "department",
    "dist": "district",
    "educ": "education",
    "envtl": "environmental",
    "fed": "federal",
    "gov't": "government",
    "govt": "government",
    "hosp": "hospital",
    "indus": "industries",
    "ins": "insurance",
    "int'l": "international",
    "intl": "international",
    "mfg": "manufacturing",
    "mut": "mutual",
    "nat'l": "national",
    "natl": "national",
    "r.r": "railroad",
    "rr": "railroad",
    "ry": "railway",
    "sch": "school",
    "sec'y": "secretary",
    "univ": "university",
    "transp": "transportation",
    "tel": "telephone",
    "cnty": "county",
    "cty": "county",
    "auth": "authority",
    "admin": "administration",
    "ctr": "center",
    "elec": "electric",
    "prot": "protection",
    "pub": "public",
    "serv": "service",
    "servs": "services",
    "sys": "system",
    "tech": "technology",
    "twp": "township",
    "dev": "development",
    "fin": "financial",
    "grp": "group",
    "med": "medical",
    "prods": "products",
    "ref": "refining",
    "sav": "savings",
    "soc'y": "society",
    "ind": "independent",
    "cmty": "community",
    "coal": "coalition",
    "div": "division",
    "emp": "employment",
    "emps": "employees",
    "org": "organization",
    "prof'l": "professional",
    "reg'l": "regional",
    "bhd": "brotherhood",
    "lab": "labor",
    "sec": "securities",
}
_RAW: dict[str, list[str]] = {}
for _raw, _full in ABBREVIATIONS.items():
    _RAW.setdefault(_full, []).append(_raw.replace("'", "").replace(".", ""))
# Words that tell nothing about which case it is: descriptors, connectives, entity forms.
STOP = frozenset(
    [
        "v",
        "vs",
        "versus",
        "the",
        "of",
        "and",
        "a",
        "an",
        "in",
        "re",
        "ex",
        "parte",
        "rel",
        "et",
        "al",
        "inc",
        "co",
        "corp",
        "corporation",
        "company",
        "llc",
        "ltd",
        "lp",
        "llp",
        "plc",
        "na",
        "petitioner",
        "petitioners",
        "respondent",
        "respondents",
        "appellant",
        "appellants",
        "appellee",
        "appellees",
        "plaintiff",
        "plaintiffs",
        "defendant",
        "defendants",
        "error",
        "pls",
        "pl",
        "dba",
        "doing",
        "business",
        "as",
        "individually",
        "others",
        "another",
        "on",
        "behalf",
        "for",
        "to",
        "by",
        "its",
        "his",
        "her",
        "their",
        "under",
        "united",
        "states",
        "america",
        "usa",
        "us",
        "state",
        "people",
        "commonwealth",
        "city",
        "county",
        "town",
        "village",
        "board",
        "department",
        "director",
        "secretary",
        "attorney",
        "general",
        "warden",
        "acting",
        "former",
        "superintendent",
        "administrator",
        "executor",
        "commissioner",
        "chairman",
        "governor",
        "mayor",
        "sheriff",
        "jr",
        "sr",
        "mr",
        "mrs",
        "estate",
        "trustee",
        "trustees",
        "ii",
        "iii",
        "iv",
        "et.",
        "case",
        "cases",
        "no",
        "nos",
        "original",
        "orig",
        "matter",
    ]
)
_SIDES = re.compile(r"\s+(?:v\.?|vs\.?|versus)\s+", re.I)
_WORD = re.compile(r"[a-z0-9][a-z0-9'’]*(?:\.[a-z](?=\.))*")
_LEAD = re.compile(r"^(?:in\s+re|ex\s+parte|matter\s+of|in\s+the\s+matter\s+of)\s+", re.I)


# Bluebook T10 abbreviations of state names, matched only as written with their periods
# ("Quill Corp. v. N.D.", "Mass. Bd. of Ret. v. Murgia"); "Ind." is left out (also "independent")
_STATES = {
    "ala": "alabama", "ariz": "arizona", "ark": "arkansas", "cal": "california",
    "colo": "colorado", "conn": "connecticut", "del": "delaware", "fla": "florida",
    "ga": "georgia", "ill": "illinois", "kan": "kansas", "ky": "kentucky", "la": "louisiana",
    "md": "maryland", "mass": "massachusetts", "mich": "michigan", "minn": "minnesota",
    "miss": "mississippi", "mo": "missouri", "mont": "montana", "neb": "nebraska",
    "nev": "nevada", "okla": "oklahoma", "or": "oregon", "pa": "pennsylvania",
    "tenn": "tennessee", "tex": "texas", "vt": "vermont", "va": "virginia",
    "wash": "washington", "wis": "wisconsin", "wyo": "wyoming", "n.d": "north dakota",
    "s.d": "south dakota", "n.y": "new york", "n.j": "new jersey", "n.h": "new hampshire",
    "n.m": "new mexico", "n.c": "north carolina", "s.c": "south carolina",
    "r.i": "rhode island", "w. va": "west virginia", "d.c": "district of columbia",
}  # fmt: skip
_STATE = re.compile(
    r"(?<![\w.])("
    + "|".join(
        re.escape(k).replace(r"\.", r"\.\s?") for k in sorted(_STATES, key=len, reverse=True)
    )
    + r")\.(?![\w])"
)


_STATE_KEYS = {k.replace(". ", "."): v for k, v in _STATES.items()}


def _expand_states(low: str) -> str:
    return _STATE.sub(lambda m: _STATE_KEYS[re.sub(r"\.\s", ".", m.group(1))], low)


def _words(side: str) -> list[str]:
    low = side.lower().replace("’", "'").replace("u. s. a.", "usa").replace("u.s.a.", "usa")
    low = _expand_states(low)
    out = []
    for w in _WORD.findall(low.replace("-", " ")):
        w = w.rstrip("'")
        w = ABBREVIATIONS.get(w, ABBREVIATIONS.get(w.replace(".", ""), w))
        if w.endswith("'s"):
            w = w[:-2]
        out.append(w.replace(".", ""))
    return out


@lru_cache(maxsize=65536)
def sides(name: str) -> tuple[tuple[tuple[str, ...], tuple[str, ...]], ...]:
    """Each side of a case name as (all words, distinctive words)."""
    parts = _SIDES.split(_LEAD.sub("", name.strip()))
    out = []
    for p in parts[:2]:
        ws = _words(p)
        out.append((tuple(ws), tuple(w for w in ws if w not in STOP and not w.isdigit())))
    return tuple(out)


def _acronym_of(acr: str, words: tuple[str, ...]) -> bool:
    """ "nrdc" ← natural resources defense council; connectives may be skipped."""
    letters = [w[0] for w in words if w not in {"of", "and", "the", "for", "&"}]
    joined = "".join(letters)
    return acr in joined


def _word_in(w: str, words: tuple[str, ...]) -> bool:
    if w in words:
        return True
    for a in (w, *_RAW.get(w, ())):  # "INS" was expanded to "insurance": try it as an acronym
        if 3 <= len(a) <= 6 and a.isalpha() and _acronym_of(a, words):
            return True
    if len(w) >= 3 and any(len(x) > len(w) and x.startswith(w) for x in words):
        return True  # truncations: "Mass." → Massachusetts, "Comm." → Committee
    if len(w) >= 5:
        return any(
            len(x) >= 5 and x[0] == w[0] and SequenceMatcher(None, w, x).ratio() >= 0.8
            for x in words
        )
    return False


def _side_ok(
    claim: tuple[str, ...], words: tuple[str, ...], claim_all: tuple[str, ...] = ()
) -> bool:
    """A distinctive claimed word is on the indexed side — or the indexed side is an acronym
    of the claimed words ("NAACP" for "National Association for the Advancement ...")."""
    if any(_word_in(w, words) for w in claim):
        return True
    return bool(claim_all) and any(
        3 <= len(x) <= 6 and x.isalpha() and _acronym_of(x, claim_all) for x in words
    )


def same_case(claimed: str, indexed: str, aliases: tuple[str, ...] = ()) -> bool:
    """Whether ``claimed`` can be a way of writing the case named ``indexed`` (or an alias:
    another docket's name of the same case)."""
    return any(_same(claimed, n) for n in (indexed, *aliases))


_CAPTION = re.compile(
    r"^\W*(?:in\s+re|ex\s+parte|(?:in\s+the\s+)?matter\s+of|estate\s+of|"
    r"(?:in\s+re\s+)?(?:the\s+)?marriage\s+of|application\s+of|petition\s+of)\b",
    re.I,
)


def one_party_caption(name: str) -> bool:
    """ "In re Marriage of Mathews", "Ex parte Young", "Estate of Smith": a caption naming a
    matter or one party, not two sides."""
    return bool(_CAPTION.match(name)) and len(_SIDES.split(name)) == 1


def _same(claimed: str, indexed: str) -> bool:
    cs, ix = sides(claimed), sides(indexed)
    if not cs or not ix:
        return False
    if one_party_caption(claimed) and not one_party_caption(indexed):
        return False  # "In re Marriage of Mathews" is not "Mathews v. Eldridge" (nor its short
        # name "Mathews"): a matter's caption names no adversary case
    distinct = [d for _, d in cs if d]
    if not distinct:  # "United States v. United States" style: compare all words
        return all(w in {x for a, _ in ix for x in a} for a, _ in cs for w in a)
    if len(cs) == 1 or len(ix) == 1:  # one party named ("Twombly", "In re Gault")
        every = tuple(x for a, _ in ix for x in a)
        return _side_ok(distinct[0], every, next(a for a, d in cs if d))
    flips = ((0, 1), (1, 0))
    for a, b in flips:
        if all(not cs[k][1] or _side_ok(cs[k][1], ix[j][0], cs[k][0]) for k, j in ((0, a), (1, b))):
            return True
    return False


def party_keys(name: str) -> set[str]:
    """Distinctive words of a name, for finding candidate cases by name."""
    return {w for _, d in sides(name) for w in d if len(w) >= 3}


__all__ = ["ABBREVIATIONS", "one_party_caption", "party_keys", "same_case", "sides"]
