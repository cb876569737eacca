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
