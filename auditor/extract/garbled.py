"""A sentence that does not read as one statement cannot support a claim.

Word salad ("Wire fraud under 18 U.S.C. § 1343 prosecuted is the of and.") still holds the
names, citations and trigger words a frame is built from, so a frame can be filled and
matched against the graph although the text asserts nothing one can read. The test is a
conservative one of function words, which English never places so: an article followed by
an article, a preposition, an auxiliary or a conjunction ("the the", "the of", "the is",
"a and"); "of" followed by an auxiliary ("of is"); two conjunctions in a row ("and or"); or
a sentence that ends on an article ("... overruled Casey by was the."). Numbers, citations
and section letters ("(a)") stand in as a word, so "the 0 to 1/4 percent range", "§ 1962(a)
is" or "Schedule A is" are not read as article sequences; list items may end on "and", and
"out of or relate to" is English.

>>> garbled("Wire fraud under 18 U.S.C. § 1343 prosecuted is the of and.")
True
>>> garbled("Wire fraud is prosecuted under 18 U.S.C. § 1343.")
False
>>> garbled("Subsection (a) is the operative clause, and it governs.")
False
"""

from __future__ import annotations

import re
from itertools import pairwise

_ARTICLE = frozenset({"the", "a", "an"})
_CONJ = frozenset({"and", "or", "nor"})
_AUX = frozenset({"is", "are", "was", "were"})
_PREP = frozenset({"of", "by", "under", "to", "in", "on", "at", "for", "with", "from", "into"})
_NOISE = re.compile(r"\([A-Za-z0-9]{1,4}\)|§+\s*[\w.()-]+|\b\d[\w.,:-]*")
_WORD = re.compile(r"[A-Za-z][A-Za-z'’./-]*")  # "and/or", "on/off" are one word


def garbled(sentence: str) -> bool:
    """Whether the sentence holds a function-word sequence no English statement has."""
    words = [_word(w) for w in _WORD.findall(_NOISE.sub(" N ", sentence))]
    words = [w for w in words if w]
    for a, b in pairwise(words):
        if a in _ARTICLE and (b in _ARTICLE or b in _PREP or b in _AUX or b in _CONJ):
            return True
        if (a == "of" and b in _AUX) or (a in _CONJ and b in _CONJ):
            return True
    truncated = sentence.rstrip(" *_\"'”)").endswith(("...", "…"))
    return bool(words) and not truncated and words[-1] in _ARTICLE


def _word(token: str) -> str:
    """The lower-cased word; one in capitals ("Schedule A", "the ON RRP rate") is a name,
    not a function word."""
    bare = token.strip(".'’-/")
    return "X" if bare.isupper() else bare.lower()


__all__ = ["garbled"]
