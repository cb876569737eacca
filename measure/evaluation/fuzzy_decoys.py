"""Decoys for measuring fuzzy linking: plausible names of things the graphs do not hold.

A decoy replaces a mention in a benchmark answer; any link on it is a false link. Drug-like
names are built from syllables and real stems' endings, case names from party names that no
reported case has, regulations from words of real titles in new combinations.

>>> decoy_name("medical", random.Random(1))
'Traltinib'
"""

from __future__ import annotations

import random

from measure.evaluation.gen_legal import PARTIES, SURNAMES

_DRUG_HEADS = ("zor", "plex", "quel", "brev", "tral", "vex", "lum", "dar", "nix", "sor", "kel",
               "obr", "fel", "gan", "hol", "jup", "myr", "pev", "rist", "tov")  # fmt: skip
_DRUG_MIDS = ("a", "i", "o", "e", "u", "ora", "ime", "ela", "ovi", "")
_DRUG_TAILS = ("tine", "mab", "tinib", "pril", "olol", "azole", "vir", "statin", "sartan",
               "oxacin", "cillin", "dronate", "gliptin", "setron", "zepam", "profen", "dipine",
               "lukast", "tidine", "parin")  # fmt: skip
_REG_HEADS = ("Digital", "Cross-Border", "Sustainable", "Retail", "Wholesale", "Systemic",
              "Payment", "Custody", "Market", "Climate", "Deposit", "Collateral")  # fmt: skip
_REG_MIDS = ("Asset", "Liquidity", "Disclosure", "Settlement", "Resilience", "Conduct",
             "Transparency", "Reporting", "Stability", "Integrity")  # fmt: skip
_REG_TAILS = ("Directive", "Regulation", "Act", "Framework", "Rule")
_LEGAL_HEADS = ("United States", "State", "People", "City of Fairview", "Commonwealth")


def decoy_name(domain: str, rng: random.Random) -> str:
    """A name of ``domain``'s kind that no graph entity should be linked to."""
    if domain == "medical":
        name = rng.choice(_DRUG_HEADS) + rng.choice(_DRUG_MIDS) + rng.choice(_DRUG_TAILS)
        return name.capitalize() if rng.random() < 0.5 else name
    if domain == "legal":
        left = rng.choice(SURNAMES) if rng.random() < 0.6 else rng.choice(_LEGAL_HEADS)
        return f"{left} v. {rng.choice([*SURNAMES, *PARTIES])}"
    words = [rng.choice(_REG_HEADS), rng.choice(_REG_MIDS), rng.choice(_REG_TAILS)]
    return " ".join(words)
