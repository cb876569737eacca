"""Canonical forms, n-grams, edit distance, tokens and candidate windows (no graphs needed)."""

from __future__ import annotations

import random

import pytest
from sklearn.feature_extraction.text import TfidfVectorizer

from auditor.extract.fuzzy.distance import osa_distance, osa_similarity
from auditor.extract.fuzzy.text import (
    canonical,
    char_wb_ngrams,
    digits,
    segments,
    tokenize,
    windows,
)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Brown v. Bd. of Ed.", "brown v board of education"),
        ("Brown vs. Board of Education", "brown v board of education"),
        ("Dep’t of Revenue & Taxation", "department of revenue and taxation"),
        ("The ECB deposit rate", "ecb deposit rate"),
        ("St. John's wort", "st john wort"),
        ("metformin HCl", "metformin hydrochloride"),
        ("Regulation (EU) 2020/852", "regulation eu 2020 852"),
        ("São Tomé & Príncipe", "são tomé and príncipe"),
        ("the", "the"),
        ("Wash the hands", "wash the hands"),  # an ordinary word is expanded only with a dot
    ],
    ids=lambda v: v if isinstance(v, str) else None,
)
def test_canonical(text: str, expected: str) -> None:
    assert canonical(text) == expected


@pytest.mark.parametrize("ngrams", [(2, 3), (3, 3), (1, 3), (2, 4)])
@pytest.mark.parametrize("text", ["brown v board of education", "v ab", "x", "a  b\tc", ""])
def test_ngrams_match_scikit_learn_char_wb(text: str, ngrams: tuple[int, int]) -> None:
    analyzer = TfidfVectorizer(analyzer="char_wb", ngram_range=ngrams).build_analyzer()
    assert char_wb_ngrams(text, *ngrams) == analyzer(text)


def _osa_reference(a: str, b: str) -> int:
    d = [[i + j if i * j == 0 else 0 for j in range(len(b) + 1)] for i in range(len(a) + 1)]
    for i in range(1, len(a) + 1):
        for j in range(1, len(b) + 1):
            d[i][j] = min(
                d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] != b[j - 1])
            )
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
    return d[-1][-1]


def test_osa_matches_the_dynamic_programme() -> None:
    rng = random.Random(3)
    for _ in range(3000):
        a = "".join(rng.choice("abcd") for _ in range(rng.randint(0, 11)))
        b = "".join(rng.choice("abcd") for _ in range(rng.randint(0, 11)))
        assert osa_distance(a, b) == _osa_reference(a, b), (a, b)


@pytest.mark.parametrize(
    ("a", "b", "sim"),
    [("phenytoun", "phenytoin", 8 / 9), ("nfeazodone", "nefazodone", 0.9), ("abc", "abc", 1.0)],
)
def test_osa_similarity(a: str, b: str, sim: float) -> None:
    assert osa_similarity(a, b) == pytest.approx(sim)


def test_numbers_are_kept_in_order() -> None:
    assert digits(canonical("Directive 2015/849")) == "2015849|"
    assert digits(canonical("Basel III")) != digits(canonical("Basel IIII"))
    assert digits(canonical("Brown v. Board")) == "|"


def test_sentence_end_and_punctuation_split_segments() -> None:
    text = "Take acetominophen. Warfrin, then ibuprofin; ok"
    segs = [[text[t.start : t.end] for t in s] for s in segments(text, tokenize(text), [])]
    assert segs == [["Take", "acetominophen"], ["Warfrin"], ["then", "ibuprofin"], ["ok"]]


def test_exact_mentions_are_covered_and_never_anchors() -> None:
    text = "the ECB deposyt rate"
    seg = segments(text, tokenize(text), [(0, 7)])[0]
    assert [t.covered for t in seg] == [True, True, False, False]
    wins = {w.text for w in windows(text, seg, {"rate"})}
    assert "ecb deposyt rate" in wins  # a leading "the" of an exact mention is allowed
    assert all("deposyt" in w for w in wins)  # every window holds the anchor


def test_known_words_and_function_words_are_not_anchors() -> None:
    text = "Please consult your professional about warfrin"
    seg = segments(text, tokenize(text), [])[0]
    wins = windows(text, seg, {"consult", "professional", "about"})
    assert wins and all("warfrin" in w.text for w in wins)


def test_windows_per_anchor_are_bounded_so_work_is_linear() -> None:
    unit = "Zorblax interacts with quixotrin and must be taken by mouth. "
    counts = []
    for n in (10, 100):
        text = unit * n
        counts.append(sum(len(windows(text, s, set())) for s in segments(text, tokenize(text), [])))
    assert counts[1] == 10 * counts[0]
