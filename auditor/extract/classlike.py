"""Names of drug *classes* that the package data lists as drugs.

The drug-name package behind the medical graph holds MeSH pharmacological-action names as if
they were drugs ("Nasal Decongestants", "Anti-Inflammatory Agents, Non-Steroidal"). A claim
about such a name is a claim about a class: it never takes a dose, a brand or an interaction
meant for one drug.

>>> looks_like_class("Nasal Decongestants"), looks_like_class("Anti-Inflammatory Agents, Non-Steroidal")
(True, True)
>>> looks_like_class("Ibuprofen"), looks_like_class("Naltrexone/bupropion")
(False, False)
"""

from __future__ import annotations

import re

from auditor.types import Mention
from knowledge_graphs.store import KnowledgeBase

_CLASS_WORDS = re.compile(
    r"\b(?:agents?|inhibitors?|blockers?|antagonists?|agonists?|decongestants?|drugs|"
    r"medicines|medications|antibiotics|antibacterials|analgesics|antihistamines|diuretics|"
    r"statins|nsaids|antidepressants|antipsychotics|anticoagulants|anticonvulsants|"
    r"vaccines|preparations|products|supplements|hormones|steroids|opioids|sedatives|"
    r"hypnotics|stimulants|laxatives|antacids|vitamins|modulators|derivatives|compounds)\b",
    re.I,
)


def looks_like_class(label: str) -> bool:
    return bool(_CLASS_WORDS.search(label)) or ", " in label


def is_class_mention(m: Mention, kb: KnowledgeBase) -> bool:
    """The mention's best reading is a drug class (typed so, or named like one)."""
    if m.types and m.types[0] == "DrugClass":
        return True
    ent = kb.entity(m.candidates[0]) if m.candidates else None
    return ent is not None and ent.type == "Drug" and looks_like_class(ent.label)


__all__ = ["is_class_mention", "looks_like_class"]
