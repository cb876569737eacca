"""Edit distance for fuzzy linking: optimal string alignment (restricted Damerau–Levenshtein)
and the similarity derived from it, from rapidfuzz.

rapidfuzz replaced a hand-written bit-parallel OSA (Hyyrö 2003): on 20,000 random pairs of
0-14 letters both gave identical distances and similarities, and rapidfuzz was 19x faster
(0.218 s against 0.011 s for three passes on the 2-core dev box).
"""

from __future__ import annotations

from rapidfuzz.distance import OSA


def osa_distance(a: str, b: str) -> int:
    """Optimal-string-alignment (restricted Damerau–Levenshtein) distance.

    >>> osa_distance("phenytoun", "phenytoin"), osa_distance("nfeazodone", "nefazodone")
    (1, 1)
    """
    return int(OSA.distance(a, b))


def osa_similarity(a: str, b: str) -> float:
    """1 − OSA distance / length of the longer string (1.0 for two empty strings).

    >>> round(osa_similarity("phenytoun", "phenytoin"), 3), osa_similarity("nfeazodone", "nefazodone")
    (0.889, 0.9)
    """
    return float(OSA.normalized_similarity(a, b))
