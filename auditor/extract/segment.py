"""Sentence segmentation that keeps character offsets and knows legal/medical abbreviations.

Splits on ``.``, ``!``, ``?`` followed by space and an upper-case letter, digit or quote, and
on line breaks that start list items or paragraphs, but not after abbreviations such as
``v.``, ``U.S.``, ``No.``, ``e.g.``, ``Inc.``, ``Corp.`` or inside numbers (``3.25``).

>>> [s.text for s in split_sentences("Take 200 mg. Do not exceed 1,200 mg a day. See Brown v. Board.")]
['Take 200 mg.', 'Do not exceed 1,200 mg a day.', 'See Brown v. Board.']
>>> [s.text for s in split_sentences("- item one\\n- item two")]
['- item one', '- item two']
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from knowledge_graphs.scotus import NOMINATIVE_REPORTERS  # "6 Wheat. 264": not a sentence end

_ABBREV = {
    "v",
    "vs",
    "u.s",
    "u.s.c",
    "no",
    "nos",
    "e.g",
    "i.e",
    "inc",
    "corp",
    "co",
    "ltd",
    "llc",
    "dr",
    "mr",
    "mrs",
    "ms",
    "st",
    "jr",
    "sr",
    "etc",
    "cf",
    "al",
    "ed",
    "eds",
    "cir",
    "app",
    "supp",
    "f",
    "so",
    "n.e",
    "n.w",
    "s.e",
    "s.w",
    "s.ct",
    "l.ed",
    "ct",
    "sec",
    "art",
    "para",
    "approx",
    "fig",
    "vol",
    "p",
    "pp",
    "assn",
    "ass'n",
    "bd",
    "dept",
    "dep't",
    "educ",
    "gov",
    "govt",
    "intl",
    "nat'l",
    "natl",
    "comm'n",
    "mfrs",
    "ry",
    "r.r",
    "u.s.a",
    "d.c",
    "jan",
    "feb",
    "mar",
    "apr",
    "jun",
    "jul",
    "aug",
    "sep",
    "sept",
    "oct",
    "nov",
    "dec",
    "tab",
    "tabs",
    "cap",
    "caps",
    "max",
    "min",
    "hr",
    "hrs",
    "e.u",
    "eur",
    "a.m",
    "p.m",
    "b.i.d",
    "t.i.d",
    "q.i.d",
    "p.o",
    "i.v",
    "reg",
    "regs",
    "c.f.r",
    "stat",
    "pub",
    "l",
    "ex",
    "rel",
    "ch",
    "pt",
}
# A run of ".!?" is taken whole, from its first character only (linear on "....." × 10⁵).
_BOUNDARY = re.compile(
    # a bold or quoted question closes before its answer: '**"What about a decongestant?"** No.'
    r"(?<![.!?])\?[\"'”’*_]*\*\*[\"'”’]*\s++(?=[\"'(\[]?[A-Z0-9])|"
    r"(?<![.!?])[.!?]++[\"')\]]*+\s++(?=[\"'(\[]?[A-Z0-9\u2022*\-])|\n\s*\n|\n(?=\s*+(?:[-*\u2022]|\d+[.)])\s)|\n"
)
_LOOKBACK = 128  # characters before a boundary that _is_abbreviation looks at
_WORD_BEFORE = re.compile(r"([A-Za-z.'’]+)[.!?]*[\"')\]]*\s*$")


@dataclass(frozen=True, slots=True)
class Sentence:
    start: int
    end: int
    text: str


def split_sentences(text: str) -> list[Sentence]:
    """Sentences (with offsets into ``text``), stripped of surrounding whitespace."""
    out: list[Sentence] = []
    start = 0
    for m in _BOUNDARY.finditer(text):
        cut = m.end()
        # only the end of the sentence so far decides (bounded: "A. A. A. …" stays linear)
        piece = text[max(start, m.start() - _LOOKBACK) : m.start() + 1]
        kept = (m.group(0)[0] in ".!?" and _is_abbreviation(piece, text[cut : cut + 3])) or (
            m.group(0)[0] == "." and _in_short_parenthetical(piece, text, cut)
        )  # "(Fed. Cir. 1999)", "(D. Mass. 1995)": a court parenthetical
        if kept:
            if "\n" not in m.group(0):
                continue
            # "... unless a doctor says so.\n- **Prescription:** ...": the full stop may
            # be an abbreviation's ("So." is a reporter), but the line break still ends it
            cut = m.start() + m.group(0).index("\n") + 1
        _emit(text, start, cut, out)
        start = cut
    _emit(text, start, len(text), out)
    return out


def _in_short_parenthetical(piece: str, text: str, cut: int) -> bool:
    """The full stop is inside "( ... )" that closes within 40 characters on the same line."""
    tail = piece.rsplit("\n", 1)[-1]
    if tail.count("(") <= tail.count(")"):
        return False
    close = text.find(")", cut, cut + 40)
    return close >= 0 and "\n" not in text[cut:close] and "(" not in text[cut:close]


_ACRONYM = re.compile(r"(?:[a-z]\.)+[a-z]")
# Bluebook T6 abbreviations that occur inside case names and never end a sentence there
_CASE_NAME_WORDS = {
    "cent", "int'l", "intl", "ass'n", "assn", "dep't", "dept", "bd", "comm'n", "commn",
    "educ", "envtl", "gov't", "govt", "hosp", "indus", "mfg", "mut", "nat'l", "natl", "sch",
    "serv", "sys", "transp", "univ", "ctr", "cnty", "auth", "admin", "elec", "prot", "eng'rs",
    "emps", "prods", "sav", "soc'y", "ry", "r.r", "sec'y", "comm'r", "fin", "grp", "mgmt",
    "am", "jos", "wm", "chas", "atl", "pac", "soc", "servs", "sols", "techs", "pharms", "invs",
    "mkts", "ctys", "twp", "hous", "cmty", "enters", "equip", "exch", "mktg", "labs", "cal",
    "tex", "fla", "mich", "conn", "res", "dev",
}  # fmt: skip
_CORPORATE = {"inc", "co", "corp", "ltd", "llc", "plc", "bros", "assn"}
_VOLUME_BEFORE = re.compile(r"\d+\s+[A-Za-z]+\.[\s)]*$")


def _is_abbreviation(piece: str, following: str = "") -> bool:
    if piece.rstrip("\"')] ").endswith(".."):
        return False  # "Inc.." : an abbreviation that also ends the sentence
    tail = piece.rsplit("\n", 1)[-1].strip()
    if re.fullmatch(
        r"[*_]*(?:\d{1,2}|[a-zA-Z])[.)]", tail
    ):  # a list marker ("1.", "**a)") opens an item
        return True
    m = _WORD_BEFORE.search(piece)
    if not m:
        return False
    word = m.group(1).lower().rstrip(".")
    if word in _CASE_NAME_WORDS and following[:1].isupper():
        return True  # Bluebook abbreviations inside case names: "Cent. Pension Fund"
    if (
        word in _CORPORATE
        and following[:1].isupper()
        and not following.startswith(("v.", "V.", "Of ", "And "))
    ):
        return False  # "... Wayfair, Inc. In 2018 ..." ends a sentence
    if word in _ABBREV:
        return True
    if word in NOMINATIVE_REPORTERS and _VOLUME_BEFORE.search(piece) and following[:1].isdigit():
        return True  # a volume, the reporter, then the page: "16 Wall. 36"
    if word == "s" and following.startswith("Ct"):  # "93 S. Ct. 705": Supreme Court Reporter
        return True
    if word == "u" and following.startswith("S."):  # "401 U. S. 37": the Court's own spelling
        return True
    if (
        word in {"n", "nn"}
        and following[:1].isdigit()
        and re.search(r"\d[\s,&]+(?:and\s+)?nn?\.$", piece)
    ):
        return True  # a footnote pinpoint: "410 U.S. 113, 158 n. 54", "24, nn. 20-21"
    # single initials ("J. Smith") and dotted acronyms ("U.S.", "F.D.A."), but not a unit
    # after a number ("take 240 g.")
    if len(word) == 1 and re.search(r"\d\s*[A-Za-z]\.?\W*$", piece):
        return False
    return len(word) == 1 or bool(_ACRONYM.fullmatch(word))


def _emit(text: str, start: int, end: int, out: list[Sentence]) -> None:
    chunk = text[start:end]
    lead = len(chunk) - len(chunk.lstrip())
    body = chunk.strip()
    if body:
        s = start + lead
        out.append(Sentence(s, s + len(body), body))
