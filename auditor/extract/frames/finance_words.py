"""Lexicon of the finance frames: what a percentage near a central bank can be besides its
policy rate, move verbs, own-figure and worked-example markers, threshold comparators.

>>> bool(BLOCKER.search("inflation moving toward 2 percent")), bool(BLOCKER.search("target range"))
(True, False)
>>> move_of("cut the target range by 50 basis points to"), move_of("held the range at")
('down', 'hold')
"""

from __future__ import annotations

import re

# what a percentage near a central bank may be instead of its policy rate
BLOCKER = re.compile(
    r"\b(?:inflation|disinflation|CPI|PCE|HICP|prices?|deflator|unemployment|jobless|payrolls?|"
    r"GDP|growth|output|wages?|earnings|yields?|Treasur(?:y|ies)|bonds?|mortgages?|"
    r"IORB|IOER|interest\s+on\s+(?:excess\s+)?reserves?|rate\s+on\s+(?:excess\s+)?reserves|"
    r"excess\s+reserves|reserve\s+(?:balances|requirements?)|stress\s+(?:tests?|capital)|SCB|"
    r"reverse\s+repo|RRP|repo\s+(?:rate|facility)|standing\s+repo|discount\s+(?:rate|window)|"
    r"primary\s+credit|goals?|objectives?|mandate|(?<!funds\s)(?<!policy\s)target(?!\s+(?:range|rate|for\s+the\s+fed|after\b))|"
    r"projections?|projected|medians?|forecasts?|dot[- ]?plot|(?-i:SEP)|neutral|longer[- ]run|r-star|"
    r"spreads?|term\s+premium|buckets?|surcharges?|buffers?|ratios?|SLR|capital|CET1|leverage|"
    r"tier|savings|(?-i:APY|APR)|credit\s+cards?|loans?|prime|LIBOR|SOFR|€STR|ESTR|EONIA|"
    r"effective\s+(?:federal\s+funds|fed\s+funds)\s+rate|EFFR|probabilit\w+|odds|chance|"
    r"stocks?|equities|S&P|index|returns?|balance\s+sheet|deficit|debt|expectations?)\b",
    re.I,
)
RATE_NOUN = re.compile(
    r"\b(?:(?:policy|key|benchmark|interest|deposit|lending|refi(?:nancing)?|bank|overnight|"
    r"funds|main|official|headline)\s+)?(?:rates?|range)\b",
    re.I,
)
_MOVES = {
    "down": r"cut(?:s|ting)?|cutting|lower(?:ed|s|ing)?(?!\s+than)|reduc(?:e|ed|es|ing)|eas(?:e|ed|es|ing)|"
    r"trimm(?:ed|ing)|trims?|slash(?:ed|es|ing)?|brought\s+down|dropp(?:ed|ing)|fell",
    "up": r"rais(?:e|ed|es|ing)|hik(?:e|ed|es|ing)|increas(?:e|ed|es|ing)|lift(?:ed|s|ing)?|"
    r"tighten(?:ed|s|ing)?|pushed\s+up|rose|higher(?!\s+than)",
    "hold": r"held|hold(?:s|ing)?|kept|keep(?:s|ing)?|left|leaves|leaving|maintain(?:ed|s|ing)?|"
    r"paus(?:e|ed|es|ing)|unchanged|steady|on\s+hold",
}
_MOVE_RE = re.compile("|".join(f"(?P<{k}>\\b(?:{v})\\b)" for k, v in _MOVES.items()), re.I)
PAST = re.compile(
    r"\b(?:was|were|had|had\s+been|cut|lowered|reduced|raised|hiked|increased|held|kept|left|"
    r"reached|stood|moved|took|brought|eased|tightened|paused|fell|rose|ended|began|started)\b",
    re.I,
)
PRESENT = re.compile(
    r"\b(?:is|are|remains?|stands?|sits?|currently|now|today|as\s+of\s+today|has\s+been|"
    r"have\s+been|current|"
    # a move in the present tense ("the ECB lifts its deposit rate to 4%"); "cuts" and "hikes"
    # are left out: they are as often nouns ("after three cuts")
    # "increases" is left out too ("two 75 bp increases followed")
    r"lifts|raises|lowers|reduces|trims|holds|keeps|leaves|climbs|rises)\b",
    re.I,
)


def move_of(text: str) -> str | None:
    """The direction of the last move verb in ``text`` (up / down / hold)."""
    last = None
    for m in _MOVE_RE.finditer(text):
        last = m
    return last.lastgroup if last is not None else None


# a bank's own figure, an example or a computation, not a requirement
OWN_FIGURE = re.compile(
    r"\b(?:its|their|our|your|his|her|the\s+bank'?s|a\s+bank\s+(?:with|that|whose|holding|reporting)|"
    r"banks?\s+with|firms?\s+with|report(?:s|ed|ing)?|"
    # "has a 12% ratio", not "must have a minimum ..." / "required to hold a ... ratio of"
    r"(?<!\bto\s)(?<!must\s)(?<!should\s)(?<!shall\s)(?:has|have|holds?)\s+a(?!\s+minimum)|held\s+a|"
    r"stood\s+at|fell\s+to|rose\s+to|dropp?(?:ed|s)\s+to|came\s+in\s+at|ended\s+(?:the\s+\w+\s+)?at|"
    r"actual|current\s+ratio|headroom|cushion|[A-Z][A-Za-z&.]+(?:'s|’s))\b",
)
ARITHMETIC = re.compile(
    r"\d\s*%?\s*[+=×x]\s*\d|\bplus\b\s*[\d.]+\s*%|\bequals\b|\bsum\b|\btotal(?:s|ling)?\s+of\b",
    re.I,
)
# threshold comparators: more than (>), at least (>=)
MORE_THAN = re.compile(
    r"\b(?:more\s+than|over|above|exceed(?:s|ing|ed)?|in\s+excess\s+of|greater\s+than|"
    r"larger\s+than|higher\s+than|beyond)\s*$",
    re.I,
)
AT_LEAST = re.compile(r"\b(?:at\s+least|a\s+minimum\s+of|no\s+less\s+than|from)\s*$", re.I)
AT_LEAST_AFTER = re.compile(
    r"^\s*(?:or\s+(?:more|greater|higher|above|over)|and\s+(?:up|above|over|higher)|\+|and\s+more)\b",
    re.I,
)
THRESHOLD_NOUN = re.compile(
    r"\b(?:threshold|limit|trigger\w*|reporting\s+(?:level|requirement)|cut-?off|floor|"
    r"tripwire)\s+(?:(?:is|was)(?:\s+not|n't)?|of|at|sits\s+at|stands\s+at)?\s*$",
    re.I,
)
EXAMPLE_AMOUNT = re.compile(
    r"\b(?:a|the|one|your|my|our|this)\s+(?:customer|client|person|depositor|member|account\s+"
    r"holder|business|shop|dealer|traveller|traveler)s?\s+(?:\w+\s+){0,2}?(?:deposits?|deposited|"
    r"withdr\w+|sends?|sent|wires?|wired|brings?|brought|pays?|paid|buys?|bought|spends?|spent|"
    r"receives?|received|makes?|made|carr\w+|cashe[sd])\b|"
    r"\b(?:someone|somebody|he|she|they)\s+(?:deposits?|deposited|withdr\w+|sends?|sent|wires?|"
    r"wired|brings?|brought|pays?|paid|buys?|bought)\b|"
    r"\b(?:aggregat\w+\s+to|totals?|totall?ing|adds?\s+up\s+to|worth|splits?|broke\s+up|"
    r"breaks?\s+up|in\s+the\s+(?:morning|afternoon|evening)|on\s+(?:monday|tuesday|wednesday|"
    r"thursday|friday|saturday|sunday)|today\s+and|tomorrow|year-end\s+total|peak\s+total|"
    r"combined\s+maximum)\b",
    re.I,
)

__all__ = [
    "ARITHMETIC",
    "AT_LEAST",
    "AT_LEAST_AFTER",
    "BLOCKER",
    "EXAMPLE_AMOUNT",
    "MORE_THAN",
    "OWN_FIGURE",
    "PAST",
    "PRESENT",
    "RATE_NOUN",
    "THRESHOLD_NOUN",
    "move_of",
]
