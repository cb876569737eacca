"""Fuzzy entity linking, the fallback for mentions the exact linker misses.

| module | holds |
|---|---|
| ``linking`` | :class:`FuzzyLinker`, :class:`DomainLinker`, :class:`FuzzyParams`, :func:`merge` |
| ``text`` | canonical forms, abbreviations, n-grams and candidate windows |
| ``index`` | the character n-gram TF-IDF index over every label and alias |
| ``distance`` | optimal string alignment distance and the similarity derived from it |
| ``allowed_types`` | which entity types a fuzzy link may take in a sentence |
| ``evidence`` | the score and evidence item a fuzzy link leaves on claims |
| ``calibration.json`` | the per-domain thresholds (:mod:`measure.evaluation.fuzzy_linking`) |
"""

from auditor.extract.fuzzy.linking import (
    CALIBRATION_PATH,
    DomainLinker,
    FuzzyLinker,
    FuzzyParams,
    Scored,
    merge,
)

__all__ = ["CALIBRATION_PATH", "DomainLinker", "FuzzyLinker", "FuzzyParams", "Scored", "merge"]
