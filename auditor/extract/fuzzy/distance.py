"""Edit distance for fuzzy linking: optimal string alignment (restricted Damerau–Levenshtein),
bit-parallel, and the similarity derived from it."""

from __future__ import annotations


def osa_distance(a: str, b: str) -> int:
    """Optimal-string-alignment (restricted Damerau–Levenshtein) distance, bit-parallel
    (Hyyrö 2003): one pass over ``b`` with integer bit operations.

    >>> osa_distance("phenytoun", "phenytoin"), osa_distance("nfeazodone", "nefazodone")
    (1, 1)
    """
    m = len(a)
    if m == 0:
        return len(b)
    peq: dict[str, int] = {}
    for i, c in enumerate(a):
        peq[c] = peq.get(c, 0) | (1 << i)
    full = (1 << m) - 1
    last = 1 << (m - 1)
    vp, vn, d0, prev_eq, dist = full, 0, 0, 0, m
    for c in b:
        eq = peq.get(c, 0)
        tr = ((((~d0) & eq) << 1) & prev_eq) & full
        d0 = ((((eq & vp) + vp) ^ vp) | eq | vn | tr) & full
        hp = (vn | ~(d0 | vp)) & full
        hn = d0 & vp
        if hp & last:
            dist += 1
        elif hn & last:
            dist -= 1
        hp = ((hp << 1) | 1) & full
        hn = (hn << 1) & full
        vp = (hn | ~(d0 | hp)) & full
        vn = hp & d0
        prev_eq = eq
    return dist


def osa_similarity(a: str, b: str) -> float:
    """1 − OSA distance / length of the longer string.

    >>> round(osa_similarity("phenytoun", "phenytoin"), 3), osa_similarity("nfeazodone", "nefazodone")
    (0.889, 0.9)
    """
    longest = max(len(a), len(b))
    return 1.0 - osa_distance(a, b) / longest if longest else 1.0
