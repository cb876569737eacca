"""Sentence segmentation keeps Bluebook case names whole (a split name loses its citation's
case name, and with it the misattribution check)."""

from __future__ import annotations

import pytest

from auditor.extract.segment import split_sentences


@pytest.mark.parametrize(
    "name",
    [
        "Bell Atl. Corp. v. Twombly",
        "Monell v. Dep't of Soc. Servs.",
        "Matsushita Elec. Indus. Co. v. Zenith Radio Corp.",
        "Helix Energy Sols. Grp. v. Hewitt",
        "Pac. Gas & Elec. Co. v. State Energy Res. Conservation & Dev. Comm'n",
    ],
)
def test_case_names_are_not_split(name: str) -> None:
    text = f"The rule is settled. {name}, 550 U.S. 544, 570 (2007). Next point."
    assert [s.text for s in split_sentences(text)] == [
        "The rule is settled.",
        f"{name}, 550 U.S. 544, 570 (2007).",
        "Next point.",
    ]


def test_the_fed_still_ends_a_sentence() -> None:
    text = "Rates were cut by the Fed. The ECB followed. It met in Tex. Then it left."
    assert len(split_sentences(text)) >= 3


@pytest.mark.parametrize(
    "text",
    [
        "Cohens v. Virginia is reported at 6 Wheat. 264. Next.",
        "See Cohens v. Virginia, 19 U.S. (6 Wheat.) 264, 404 (1821). Next.",
        "Slaughter-House Cases, 16 Wall. 36 (1873). Next.",
    ],
)
def test_nominative_reporters_do_not_end_a_sentence(text: str) -> None:
    assert [s.text for s in split_sentences(text)][-1] == "Next."
    assert len(split_sentences(text)) == 2


def test_how_still_ends_a_sentence() -> None:
    assert len(split_sentences("He asked how. 2 people answered.")) == 2
