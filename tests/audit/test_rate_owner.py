"""A rate series' name said of another central bank is that bank's rate: "the one-year MLF
rate" of the PBoC or Bank Indonesia's "deposit facility rate" are never checked against the
ECB's marginal lending or deposit facility series."""

from __future__ import annotations

import pytest

from auditor import audit


def _claims(text: str, as_of: str = "2024-08-01") -> list[tuple[str, str | None]]:
    return [(c.verdict, c.subject) for c in audit(text, domain="finance", as_of=as_of).claims]


@pytest.mark.parametrize(
    "text",
    [
        "The PBoC kept the one-year MLF rate at 2.50% in March 2024.",
        "The People's Bank of China cut the rate on its medium-term lending facility (MLF) to "
        "2.3% in July 2024.",
    ],
)
def test_a_graph_bank_without_history_gets_its_own_unverifiable_claim(text: str) -> None:
    assert _claims(text) == [("unverifiable", "bank:peoples-bank-of-china")]


@pytest.mark.parametrize(
    "text",
    [
        "Bank Indonesia held its deposit facility rate at 5.25% in March 2024.",
        "Indonesia's central bank held its deposit facility rate at 5.25% in March 2024.",
        "Bank Indonesia met on Tuesday. It held the deposit facility rate at 5.25% in March 2024.",
    ],
)
def test_a_bank_the_graph_does_not_name_is_not_read_as_the_ecb(text: str) -> None:
    assert all(v != "contradicted" and s != "rate:ecb-deposit-facility" for v, s in _claims(text))


def test_the_ecb_named_beside_another_bank_keeps_its_series() -> None:
    text = (
        "In March 2024 the Bank of Japan ended negative rates; the ECB's deposit facility "
        "stayed at 4.00%."
    )
    assert _claims(text) == [("supported", "rate:ecb-deposit-facility")]


def test_the_series_alone_still_reads_as_the_ecbs() -> None:
    assert _claims("In March 2024 the deposit facility rate stood at 4.00%.") == [
        ("supported", "rate:ecb-deposit-facility")
    ]
