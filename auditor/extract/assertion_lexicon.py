"""The lexicons of the assertion layer (:mod:`auditor.extract.assertion`): data, not code.

Each entry is a list of regular expressions, matched case-insensitively on word boundaries.
A relation's polarity triggers are keyed by the graph relation they read (``interactsWith``,
``washoutBefore``, ...); ``*`` holds the triggers every relation shares. To teach the layer
a new phrasing, add a pattern here — no frame changes.

* ``DENIAL`` — the clause says the relation does not hold ("X and Y don't interact", "safe to
  combine", "you can usually continue X during a short course of Y");
* ``MITIGATED`` — the clause allows the combination with a precaution of the reader's own
  ("if you just cut the dose in half", "as long as you separate the doses"): a denial of a
  contraindication, not of a manageable interaction;
* ``PERMISSIVE`` — words that allow a combination ("can be combined", "fine"): with a
  ``MITIGATED`` condition they make the clause ``mitigated``;
* ``RESTRICTIVE`` — the clause limits the combination ("only with a large reduction of the
  dose", "only under close monitoring"): it affirms the interaction, whatever else it says;
* ``NEGATED_BEFORE`` — a denial trigger that is itself negated ("it is *not* safe to combine");
* ``CONTEXT`` — context qualifiers of a value: dispensing status (``otc`` / ``rx``) and route
  (``intravenous``; ``oral`` for "by mouth", "tablets"; ``taken`` for "take", which rules out
  an infusion but not an injection pen), first match per key wins.
"""

from __future__ import annotations

DENIAL: dict[str, tuple[str, ...]] = {
    "*": (
        r"no\s+(?:known\s+|significant\s+|clinically\s+(?:significant\s+|relevant\s+)?|major\s+|"
        r"meaningful\s+|real\s+|important\s+)?interactions?",
        r"(?:do|does|will|did)\s+not\s+interact|(?:doesn't|don't|doesn’t|don’t|won't)\s+interact",
        r"(?:is|are|it's|it\s+is)\s+(?:generally\s+|usually\s+|perfectly\s+|totally\s+|"
        r"completely\s+|considered\s+)?(?:safe|fine|okay|ok|harmless)\b",
        r"(?:safe|fine|okay|ok|harmless)(?:\s+to\s+(?:take|use|combine|mix|continue))?\s+"
        r"(?:\w+\s+){0,4}?(?:with|together|alongside)",
        r"(?:fine|okay|ok|safe)\s+to\s+(?:combine|mix|use\s+together|take\s+(?:them|both|it)\s+together)",
        r"(?:can|could|may)\s+(?:safely\s+)?be\s+(?:safely\s+)?(?:taken|used|combined|given|mixed)\s+"
        r"(?:\w+\s+){0,3}?(?:together|with|alongside|concurrently)",
        r"(?:can|could|may)\s+safely\s+(?:take|use|combine|mix|give)",
        r"without\s+(?:any\s+)?(?:problems?|issues?|risks?|concerns?|(?:a\s+|any\s+)?dose\s+"
        r"(?:change|adjustment|reduction))",
        r"no\s+(?:problem|issue|risk)\s+(?:taking|combining|with)",
        # "ondansetron is not a problem with apomorphine", "that isn't an issue"
        r"(?:is|are|it's|it\s+is|that's)\s+(?:usually\s+|generally\s+)?(?:not\s+a\s+problem|"
        r"no\s+problem|not\s+an\s+issue)|(?:isn't|aren't|isn’t|aren’t)\s+(?:usually\s+|"
        r"generally\s+)?(?:a\s+problem|an\s+issue)",
        r"safe\s+(?:combination|together|to\s+combine)",
        # "If you're on warfarin, X is a safe choice for pain"
        r"(?:is|are|it's|it\s+is)\s+(?:a|an)\s+(?:perfectly\s+|generally\s+)?(?:safe|fine)\s+"
        r"(?:\w+\s+){0,2}?(?:choice|option|pick|alternative|bet|combination)",
        r"no\s+need\s+to\s+(?:stop|avoid|hold|separate|space|pause|change)",
        r"no\s+(?:special\s+|extra\s+|additional\s+)?(?:precautions?|dose\s+(?:change|adjustment)s?|"
        r"adjustments?|(?:level\s+|blood\s+)?monitoring|blood\s+tests?|level\s+checks?)\s+"
        r"(?:(?:is|are)\s+)?(?:needed|necessary|required)",
        r"(?:can|could|may)\s+(?:usually\s+|generally\s+|safely\s+|just\s+)?(?:continue|keep\s+taking)\s+"
        r"(?:\w+\s+){0,3}?(?:during|while|with|through|alongside)",
        r"(?:commonly|routinely|often|safely)\s+(?:combined|used\s+together|taken\s+together|"
        r"co-?prescribed)",
    ),
    "interactsWith": (
        # "furosemide doesn't affect lithium" (but "... lithium levels" denies one effect)
        r"(?:(?:do|does|will|did)\s+not|doesn't|don't|won't|doesn’t|don’t|won’t)\s+(?:really\s+|"
        r"usually\s+|generally\s+)?affect\s+[\w-]+(?!(?:['’]s)?\s+(?:blood\s+|plasma\s+|serum\s+)?"
        r"(?:levels?|concentrations?|effects?|exposure|metabolism|absorption|clearance|action))",
        # "you can take pseudoephedrine with phenelzine": a permission to combine
        r"(?:can|could|may)\s+(?:still\s+|usually\s+|generally\s+|also\s+|safely\s+)?(?:take|"
        r"use|have|combine|mix|continue(?:\s+taking)?|keep\s+taking)\s+(?:\w+\s+){0,4}?(?:with|"
        r"together|alongside|while\s+(?:on|taking|using))\b",
        r"(?:is|are|was|were)\s+not\s+contraindicated|(?:isn't|aren't|isn’t|aren’t)\s+"
        r"contraindicated",
        r"(?:combined|taken|used|given|mixed)\s+(?:\w+\s+){0,4}?(?:safely|without\s+"
        r"(?:any\s+)?(?:problems?|issues?|risks?))",
    ),
    "washoutBefore": (
        r"no\s+(?:gap|wait(?:ing)?(?:\s+period)?|washout(?:\s+period)?|break)\s+(?:\w+\s+){0,4}?"
        r"(?:is\s+|are\s+)?(?:needed|necessary|required)",
        r"(?:don't|do\s+not|doesn't|does\s+not|won't|needn't|need\s+not)\s+"
        r"(?:need\s+to\s+|have\s+to\s+)?wait",
        r"no\s+need\s+to\s+wait",
        r"(?:start|begin|switch\s+to)\s+(?:\w+\s+){0,3}?(?:the\s+(?:same|next)\s+(?:day|evening|"
        r"morning|night)|that\s+(?:same\s+)?(?:day|evening|night|afternoon)|right\s+away|"
        r"immediately|straight\s+away)",
    ),
}

MITIGATED: tuple[str, ...] = (
    r"(?:if|as\s+long\s+as|provided(?:\s+that)?)\s+you\s+(?:just\s+|simply\s+|only\s+)?"
    r"(?:cut|halve|lower|reduce|decrease|separate|space(?:\s+out)?|stagger)\b",
    r"(?:just|simply)\s+(?:cut|halve|lower|reduce)\s+(?:the\s+|your\s+)?(?:\w+\s+){0,2}?dose",
    r"as\s+long\s+as\s+(?:the\s+)?doses\s+are\s+(?:separated|spaced)",
)

PERMISSIVE: tuple[str, ...] = (
    r"(?:can|could|may)\s+(?:still\s+|safely\s+|usually\s+)?(?:be\s+)?(?:combin\w*|tak\w*|us\w*|"
    r"given|giv\w*|continu\w*|mix\w*)",
    r"(?:fine|okay|ok|safe)\b",
)

RESTRICTIVE: tuple[str, ...] = (
    r"only\s+(?:with|if|under|after|when|at)\b",
    r"(?:unless|except)\s+(?:the\s+)?(?:\w+\s+){0,2}?dose\s+is\s+(?:reduced|lowered|cut)",
)

NEGATED_BEFORE = (
    r"\b(?:not|never|no\s+longer|isn't|aren't|is\s+not|are\s+not)\s+(?:\w+\s+)?$|n't\s+(?:\w+\s+)?$"
)

CONTEXT: dict[str, dict[str, tuple[str, ...]]] = {
    "status": {
        "otc": (
            r"over[- ]the[- ]counter",
            r"OTC",
            r"non-?prescription",
            r"without\s+(?:a\s+|any\s+)?(?:prescription|script|doctor'?s\s+(?:advice|order))",
            r"Drug\s+Facts",
            r"self[- ]treat(?:ing|ment|ed)?",
            r"self[- ]medicat(?:ing|ion|ed)?",
            r"on\s+your\s+own",
        ),
        "rx": (
            r"prescription(?!\s?-?free)(?!\s+strength)",
            r"Rx",
            r"prescribed",
            r"under\s+(?:a\s+doctor's|medical)\s+(?:care|supervision)",
            r"prescription[- ]strength",
        ),
    },
    "route": {
        "intravenous": (
            r"IV",
            r"intravenous(?:ly)?",
            r"infusions?",
            r"inject(?:ion|ions|ed|able)",
            r"in\s+the\s+hospital",
        ),
        "oral": (
            r"by\s+mouth",
            r"orally",
            r"oral",
            r"tablets?",
            r"caplets?",
            r"capsules?",
            r"pills?",
            r"gelcaps?",
            r"softgels?",
            r"swallow\w*",
        ),
        "taken": (r"take[sn]?", r"taking", r"took"),
    },
}

__all__ = ["CONTEXT", "DENIAL", "MITIGATED", "NEGATED_BEFORE", "PERMISSIVE", "RESTRICTIVE"]
