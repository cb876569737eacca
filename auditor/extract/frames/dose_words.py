"""The words that give a dose its role and its qualifiers (lexicon of the dose frame).

Roles: ``maximum`` (the graph's maxDose facts can judge it), and the roles it cannot judge —
``start``, ``usual``, ``titration``, ``maintenance``, ``per_dose``, ``adjusted``, ``loading``,
``permitted`` (a dose someone may take, judged only when it exceeds every labelled maximum).

>>> role_before("Start at 50 mg")
('start', 'Start')
>>> role_before("the maximum recommended dose is")
('maximum', 'maximum')
>>> role_before("increase by")
('titration', 'increase')
>>> population_of("Adults and children 12 years and older")
'adult'
>>> population_of("children under 12")
'pediatric'
"""

from __future__ import annotations

import re

_MAX = (
    r"max(?:imum|imal)?\b\.?(?!\s*strength\b)|up\s+to|no\s+more\s+than|not\s+more\s+than|not\s+to\s+exceed|"
    r"(?:not|never|without)\s+exceeding|"
    r"(?:do|does|should|must|can|will|may)\s*(?:not|n't|n’t)\s+(?:\w+\s+){0,2}?"
    r"(?:exceed|go\s+(?:over|above|beyond)|(?:take|use|give|get|have|be\s+given)\s+more\s+than)|"
    r"(?:never|don't|don’t)\s+(?:\w+\s+){0,2}?(?:exceed|take\s+more\s+than|go\s+(?:over|above))|"
    # "At no time should adults exceed 240 mg a day", "under no circumstances take more than"
    r"(?:at\s+no\s+time|under\s+no\s+circumstances?|in\s+no\s+case)\s+(?:\w+\s+){0,3}?"
    r"(?:exceed|take\s+more\s+than|go\s+(?:over|above))|"
    # "should not give citalopram at doses that exceed", "should no longer be used at doses
    # greater than": a bound on every dose given
    r"(?:should|must|do|does)\s*(?:not|n't|n’t|no\s+longer)\s+(?:be\s+)?"
    r"(?:(?!start|initiat|begin|began)\w+\s+){0,3}?at\s+"
    r"(?:a\s+)?doses?\s+(?:that\s+|which\s+)?(?:exceed(?:ing|s)?|greater\s+than|above|higher\s+"
    r"than|over|of\s+more\s+than)|"
    r"limit(?:ed|s)?(?:\s+(?:it|intake|use|yourself|the\s+dose))?\s+(?:of|to|is|at)|"
    r"(?:daily|dose|dosing|total|upper|label(?:'s)?|24[- ]hour)\s+(?:limit|cap|ceiling|maximum)|"
    r"at\s+most|highest\s+(?:\w+\s+){0,2}?dose|top\s+(?:\w+\s+)?dose|ceiling|"
    r"caps?\s+(?:\w+\s+){0,2}?at|capped\s+at|"
    r"tops?\s+out\s+at|max(?:es)?\s+out\s+at|"
    r"the\s+most\s+(?:\w+\s+){0,2}?(?:should|can|may)\s+(?:take|use|have|get)"
)
_ROLES: tuple[tuple[str, str], ...] = (
    ("maximum", _MAX),
    ("start", r"start(?:s|ed|ing)?|initial(?:ly)?|initiat\w*|begin(?:s|ning)?|first\s+dose|starter"),
    ("titration", r"titrat\w*|uptitrat\w*|increas\w*|escalat\w*|step(?:ped|s)?\s+up(?!\s+to\b)|"
     r"increments?|then|rais(?:e|ed|ing)\s+(?:it|the\s+dose)|(?<![\d\w])\+(?=\s*$)"),
    ("maintenance", r"maintenance|maintain\w*|target\s+dose"),
    ("adjusted", r"reduc\w*|lower(?:ed|ing)?\s+(?:the\s+)?dose|decreas\w*|halv\w*|adjust\w*"),
    ("loading", r"loading"),
    ("usual", r"usual(?:ly)?|typical(?:ly)?|common(?:ly)?|standard|normal|average|"
     r"(?<!maximum\s)(?<!max\s)recommended\s+(?!(?:maximum|max|highest|top|upper)\b)(?:\w+\s+)?"
     r"dose|dosed\s+at|regimen|"
     # "use" the verb, not the noun of "for over-the-counter use and 16 mg/d for ..."
     r"take[sn]?|taking|give[sn]?|used|uses|use(?!\s+(?:and|or|&)\b)(?!\s*[,;)])|"
     r"administer\w*|prescribed|directions?"),
    ("permitted", r"(?:can|may|could)\s+(?:safely\s+)?(?:take|use|have)|it'?s\s+(?:fine|ok|okay|safe)\s+to\s+take|"
     r"(?:can|may|could)\s+(?:then\s+)?be\s+(?:raised|increased|titrated|uptitrated|adjusted|"
     r"escalated)(?:\s+up)?\s+to|(?:can|may)\s+go\s+up\s+to"),
)  # fmt: skip
_PURCHASE = re.compile(
    r"\b(?:purchase|purchasing|sales?|buy(?:ing)?|dispens\w*|supply|package|pack|box|bottle|"
    r"refills?|quantity\s+limits?)\b",
    re.I,
)
_TITRATE_TO = re.compile(
    r"(?:\b(?:increas\w*|titrat\w*|rais\w*|escalat\w*|build(?:ing)?\s+up|work(?:ing)?\s+up|"
    r"then)\b|\bby\s+[\d.,]+\s*(?:mg|mcg|g|units?)\s+(?:every|each|per|a)\b)"
    r"[^;:]*\bup\s+to\s*$",
    re.I,
)
_ROLE_RE = re.compile(
    "|".join(f"(?P<{name}>(?<![\\w]){pat})" for name, pat in _ROLES),
    re.I,
)
# a role stated right after the value: "2,550 mg (maximum)", "800 mg per dose", "as a starting dose"
_ROLE_AFTER = re.compile(
    r"^[\s*_,(]*(?:(?P<maximum>max(?:imum)?\b(?!\s*strength\b)|(?:is|as)\s+the\s+(?:\w+\s+)?(?:maximum|limit|ceiling|"
    r"most|upper\s+limit|highest\s+(?:recommended|approved|labell?ed|allowed|permitted|daily)|"
    r"top\s+dose)|daily\s+max(?:imum)?|or\s+less)"
    r"|(?P<per_dose>per\s+dose|each\s+dose|a\s+dose|at\s+a\s+time|at\s+once|as\s+a\s+single\s+dose|"
    r"single\s+dose|per\s+(?:tablet|capsule|injection|application|patch)|every\s+\d+(?:\s*(?:-|–|to)\s*\d+)?\s*"
    r"(?:h|hrs?|hours?)\b|q\d+h|(?:once|twice|three\s+times|four\s+times|\d\s*times)\s+(?:a|per|each)\s+day|"
    r"(?:twice|three\s+times|four\s+times)\s+daily|b\.?i\.?d|t\.?i\.?d|q\.?i\.?d)"
    r"|(?P<start>(?:as\s+(?:a|the)\s+)?start(?:ing)?\s+dose|to\s+start|initially)"
    r"|(?P<usual>as\s+(?:a|the)\s+usual|usual\s+dose))",
    re.I,
)


# "increased to 40 mg if needed, which is the maximum", "200 mg, the maximum daily dose": an
# apposition right after the value (past the clause's comma) says what the value is
APPOSED_MAXIMUM = re.compile(
    r"(?:\s*(?:/\s*day|daily|a\s+day|per\s+day))?"
    r"(?:\s+(?:if|as|when)\s+(?:needed|necessary|required|tolerated))?\s*[,;–—-]\s*"
    r"(?:(?:which|that)\s+(?:is|'s)\s+)?the\s+(?:(?:usual|recommended|labell?ed|daily|total|"
    r"absolute|overall)\s+)?(?:maximum|max|highest|upper\s+limit|ceiling)\b"
    # not "10 mg daily, the maximum being 20 mg": a maximum that goes on to its own value
    r"(?![^.;,]*?(?:\b(?:is|of|being|would|should|can|at|was)\b|[=:]|\d))",
    re.I,
)


def role_before(lead: str, clause: str = "") -> tuple[str, str] | None:
    """The role the words closest before a value give it, and those words; ``clause`` is the
    whole clause before the value (for "increase by 25 mg every 3 days up to 100 mg")."""
    last = None
    for m in _ROLE_RE.finditer(lead):
        last = m
    if last is None or last.lastgroup is None:
        return None
    role, words = last.lastgroup, last.group(0).strip()
    if role == "maximum" and _PURCHASE.search(lead[max(0, last.start() - 30) : last.end() + 5]):
        return "purchase_limit", words  # "purchase limits of 3.6 g per day": not a dose
    if (
        role == "maximum"
        and words.lower() == "up to"
        and _TITRATE_TO.search(clause or lead)
        and not _PERMITTED_STEP.search(clause or lead)
    ):
        return "titration", words  # "increase by 25 mg every 3 days up to 100 mg/day"
    if role == "permitted" and _MAX_SUBJECT.search(lead[: last.start()]):
        return "maximum", words  # "the maximum daily dose ... can go up to 3,200 mg"
    return role, words


# the maximum named as the subject the permitted verb is said of
_MAX_SUBJECT = re.compile(
    r"\b(?:the|its|a)\s+max(?:imum|imal)?\s+(?:\w+\s+){0,2}?doses?\b(?:(?!\b(?:is|was|but)\b)[^.;:]){0,60}$",
    re.I,
)


_MAX_DOSE_NP = (
    r"\b(?:the|its|a|their)\s+(?:(?:recommended|labell?ed|approved|daily|total|adult)\s+){0,2}"
    r"max(?:imum|imal)?\s+(?:\w+\s+){0,3}?doses?\b(?:\s+(?:of|for)\s+[\w -]{1,40}?)?"
)
_CHANGE_VERB = r"(?:reduc|lower|decreas|rais|increas|chang|revis|adjust|halv|updat|cut)\w*"
# "The maximum daily dose of citalopram has been reduced from 60 mg to 40 mg", "the FDA lowered
# the maximum dose from 60 to 40 mg": a maximum that was changed — the value after "to" is the
# maximum now, the one after "from" a former maximum (``old`` set for the value after "to")
CHANGED_MAXIMUM = re.compile(
    rf"(?:{_MAX_DOSE_NP}\s+(?:(?:has|have|had)\s+)?(?:been|was|were)\s+"
    rf"(?:(?:later|since|subsequently|officially|recently)\s+)?{_CHANGE_VERB}"
    rf"|\b{_CHANGE_VERB}\s+{_MAX_DOSE_NP})"
    r"\s+from\s+(?P<old>[^.;:]{1,40}?\s+to\s*)?$",
    re.I,
)

# "it can be increased (in steps) up to 20 mg": the ceiling the titration may reach
_PERMITTED_STEP = re.compile(
    r"\b(?:can|may|could)\s+(?:then\s+|gradually\s+|slowly\s+)?be\s+(?:increased|raised|"
    r"titrated|uptitrated|escalated|adjusted)\b[^;:]*\bup\s+to\s*$",
    re.I,
)
# "doses up to 120 mg were studied": what a trial tried, not a labelled limit
STUDIED = re.compile(
    r"\b(?:were|was|have\s+been|has\s+been)\s+(?:\w+\s+)?(?:studied|tested|evaluated|"
    r"investigated|tried)\b|\b(?:in|during)\s+(?:clinical\s+)?(?:trials?|studies)\b",
    re.I,
)

# "titration to doses above 90 mg daily is not recommended", "doses over 40 mg should not be
# used": a bound the label sets by advising against anything above it (the value's lead and tail)
ABOVE_LEAD = re.compile(
    r"\b(?:above|over|greater\s+than|higher\s+than|exceeding|beyond|in\s+excess\s+of)\s*$", re.I
)
NOT_ADVISED_TAIL = re.compile(
    r"^\s*(?:(?:a|per|/)\s*day|daily|/d)?\s*(?:\([^)]{0,30}\)\s*)?"
    r"(?:(?:is|are|has\s+been|have\s+been)\s+not\s+(?:recommended|advised)|"
    r"(?:is|are)\s+(?:not\s+recommended|discouraged)|"
    r"(?:should|must)\s+(?:not|n't|n’t)\s+be\s+(?:used|given|prescribed|administered)|"
    r"(?:should|must)\s+be\s+avoided)\b",
    re.I,
)

_LATER = re.compile(
    r"^[\s*_,]*(?:\w+\s+){0,3}?(?:after|at\s+week|from\s+week|in\s+week|by\s+week|on\s+day|"
    r"by\s+day|(?:for|over)\s+(?:\d+|one|two|three|four|a)\s+(?:weeks?|days?)|(?:\d+|one|two|"
    r"three|four)\s+(?:weeks?|days?)\s+later|if\s+needed\s+after)\b",
    re.I,
)


def titration_target(tail: str) -> bool:
    """ "the dose goes up to 50 mg after one week": a step of a schedule, not the maximum."""
    return bool(_LATER.match(tail))


_TIMES = re.compile(
    r"^[\s*_,]*(?:of\s+[a-z]\w+\s+)?(?:(?P<n>once|twice|three\s+times|four\s+times|(?P<d>\d)\s*times)\s+(?:a|per|each)\s+day|"
    r"(?P<n2>once|twice|three\s+times|four\s+times)\s+daily|(?P<abbr>b\.?i\.?d|t\.?i\.?d|q\.?i\.?d)\b|"
    r"every\s+(?P<h>\d+)\s*(?:h|hrs?|hours?)\b|q(?P<qh>\d+)h\b)",
    re.I,
)
_TIMES_N = {"once": 1, "twice": 2, "three times": 3, "four times": 4,
            "bid": 2, "b.i.d": 2, "tid": 3, "t.i.d": 3, "qid": 4, "q.i.d": 4}  # fmt: skip


def doses_per_day(tail: str) -> int | None:
    """How many doses a day the words right after a value give ("twice daily" → 2)."""
    m = _TIMES.match(tail)
    if m is None:
        return None
    if m.group("h") or m.group("qh"):
        hours = int(m.group("h") or m.group("qh"))
        return 24 // hours if hours and 24 % hours == 0 else None
    if m.group("d"):
        return int(m.group("d"))
    word = " ".join((m.group("n") or m.group("n2") or m.group("abbr") or "").lower().split())
    return _TIMES_N.get(word) or _TIMES_N.get(word.replace(".", ""))


def role_after(tail: str) -> tuple[str, str] | None:
    m = _ROLE_AFTER.match(tail)
    if m is None or m.lastgroup is None:
        return None
    return m.lastgroup, m.group(m.lastgroup).strip()


_LIMIT_LABEL = re.compile(
    r"[\s*_]*(?:(?:daily|24[- ]hour|dose|dosing|upper|total)\s+)?limits?"
    r"(?:\s+(?:in|per|a|each)\s+(?:24\s+hours?|day)|\s+per\s+day|\s*\([^()]{0,20}\))?[\s*_:]*",
    re.I,
)


def role_in_label(label: str) -> tuple[str, str] | None:
    """A role named by a list label, row label, column header or heading ("Maximum",
    "Starting dose", "Max daily dose (OTC)", "Titration")."""
    if _LIMIT_LABEL.fullmatch(label):
        return "maximum", label.strip(" *_:|")  # "| Limit in 24 hours |", "Daily limit:"
    found = role_before(label)
    if found is None:
        return None
    role, words = found
    if role == "usual" and not re.search(r"usual|typical|common|standard|normal|dose", label, re.I):
        return None  # "Take with food" in a label is a direction, not a role
    return role, words


ROLE_REASON = {
    "purchase_limit": "a purchase or dispensing limit, not a dose",
    "start": "a starting dose; the graph records maximum doses",
    "usual": "a usual dose or dosing direction; the graph records maximum doses",
    "titration": "a titration step; the graph records maximum doses",
    "maintenance": "a maintenance dose; the graph records maximum doses",
    "per_dose": "a single dose or dosing direction; the graph records maximum doses",
    "adjusted": "an adjusted dose; the graph records maximum doses",
    "former": "a former maximum (the sentence says it was changed); the graph records the "
    "current one",
    "loading": "a loading dose; the graph records maximum doses",
    "studied": "a dose a study tried, not a labelled maximum",
    "threshold": "a threshold the text gives a direction for (doses above it), not a stated limit",
}

# -- what kind of number it is --------------------------------------------------------------

STRENGTH_AFTER = re.compile(
    # a product's strength name: "Famotidine 20 mg (Maximum Strength)", "500 mg Extra Strength"
    r"^\s*[(*_]*\s*(?:maximum|max|extra|regular|original|full|low|children'?s|junior|adult)"
    r"\s+strength\b|"
    r"^\s*(?:-|\s)?(?:\)\s*)?"
    # a release or coating word between the strength and the form: "1.2 g delayed-release tablets"
    r"(?:(?:(?:delayed|extended|immediate|modified|sustained|controlled|prolonged)[- ]release|"
    r"ER|XR|XL|SR|DR|CR|IR|ODT|orally[- ]disintegrating|chewable|film[- ]coated|"
    r"enteric[- ]coated|coated|dispersible|effervescent|scored|oral)\s+){0,2}"
    r"(?:tablets?|tabs?|caplets?|capsules?|pills?|softgels?|gelcaps?|"
    r"strength|vials?|patch(?:es)?|lozenges?|chewables?|suppositor(?:y|ies)|"
    r"(?:oral\s+)?(?:solution|suspension|injection|pen|syringe|ampoule)s?|dose\s+form)\b",
    re.I,
)
STRENGTH_BEFORE = re.compile(
    r"(?:strength|tablets?\s+of|caplets?\s+of|capsules?\s+of|contain(?:s|ing)?|comes?\s+in|"
    r"available\s+(?:as|in)|supplied\s+as|each\s+(?:tablet|caplet|capsule|pill)\s+(?:has|contains|is))"
    r"\s*[(*_]*\s*$",
    re.I,
)
STRENGTH_COLUMN = re.compile(
    r"\b(?:product|strength|form(?:ulation)?|tablet|presentation|package|pack)\b", re.I
)
PER_WEIGHT_AFTER = re.compile(r"^\s*(?:/|per)\s*(?:kg|kilogram|m2|m²|square\s+met)", re.I)
BODY_WEIGHT = re.compile(r"\d\s*(?:kg|kilograms?)\b", re.I)
LAB_AFTER = re.compile(r"^\s*/\s*(?:min|dl|l\b|1\.73)|^\s*(?:mmol|mL/min)", re.I)
COMBINATION_AFTER = re.compile(r"^\s*/\s*[\d.]")
COMBINATION_BEFORE = re.compile(r"\d\s*(?:mg|mcg|g)?\s*/\s*$", re.I)

# -- qualifiers ------------------------------------------------------------------------------

_ADULT_OTC_AGE = re.compile(
    r"\b(?:children|kids|adolescents)?\s*(?:aged?\s+)?12\s*(?:years?|yrs?)?(?:\s+of\s+age)?\s*"
    r"(?:and|or|&)\s*(?:older|over|up|above)"
    # "adults and children 6 years and older": the statement covers adults
    r"|\badults?\s+(?:and|&)\s+(?:children|kids)\s+(?:aged?\s+)?\d{1,2}\s*(?:years?|yrs?)?"
    r"(?:\s+of\s+age)?\s*(?:and|or|&)\s*(?:older|over|up|above)",
    re.I,
)
_PEDIATRIC = re.compile(
    r"\b(?:child(?:ren|'s)?|kids?|pediatric|paediatric|infants?'?|toddlers?|neonat\w*|newborns?|"
    # an age bound below adulthood ("under 12", "2 to 11 years"); "adults under 60" is not one
    r"bab(?:y|ies)|adolescents?|teens?|(?:under|younger\s+than|below)\s+(?:age\s+)?(?:1[0-8]|\d)"
    r"(?!\d)(?:\s*(?:years?|yrs?))?|(?:1[0-7]|\d)\s*(?:to|-|–)\s*\d{1,2}\s*(?:years?|yrs?))\b",
    re.I,
)
_ELDERLY = re.compile(
    r"\b(?:elderly|older\s+(?:adults?|patients?|people)|geriatric|seniors?|"
    r"(?:aged?\s+)?(?:6[05]|7[05]|80)\s*\+|(?:aged?\s+)?(?:6[05]|7[05]|80)\s*(?:years?\s*)?(?:and|or|&)\s*"
    r"(?:older|over|above)|(?:over|above|older\s+than|greater\s+than)\s+(?:age\s+)?(?:6\d|7\d|8\d))\b"
    r"(?!\s*(?:kg|kilo))",  # "above 60 kg" is a weight
    re.I,
)
_RENAL = re.compile(
    r"\b(?:renal(?:\s+(?:impairment|disease|failure|function|dosing))?|kidney\s+(?:function|disease|"
    r"impairment|failure|problems?)|CrCl|creatinine\s+clearance|e?GFR|(?:hemo|peritoneal\s+)?dialysis|ESRD|CKD)\b",
    re.I,
)
_HEPATIC = re.compile(
    r"\b(?:hepatic\s+(?:impairment|disease|dysfunction)|liver\s+(?:disease|impairment|problems?|"
    r"dysfunction|cirrhosis)|cirrhosis|Child[- ]Pugh)\b",
    re.I,
)
_WEIGHT_AT_LEAST = re.compile(
    r"(?:≥|>=|at\s+least|over|above|more\s+than|heavier\s+than|weighing)\s*(\d+)\s*kg(?!\s+or\s+less)|(\d+)\s*kg\s+(?:or|and)\s+"
    r"(?:more|over|above)",
    re.I,
)
_WEIGHT_AT_MOST = re.compile(
    r"(\d+)\s*kg\s+(?:or|and)\s+(?:less|under|below|lighter)\b|(?:≤|<=|up\s+to|at\s+most|no\s+more\s+than)"
    r"\s*(\d+)\s*kg",
    re.I,
)
_WEIGHT_UNDER = re.compile(r"(?:<|under|less\s+than|below)\s*(\d+)\s*kg", re.I)
_ADULT = re.compile(r"\badults?\b", re.I)


def population_of(text: str) -> str | None:
    """The population a dose statement is restricted to: pediatric, elderly, renal, hepatic,
    ``adult>=N kg``, ``<N kg``, adult — or None when the text names none."""
    if _RENAL.search(text):
        return "renal"
    if _HEPATIC.search(text):
        return "hepatic"
    if m := _WEIGHT_AT_MOST.search(text):
        return f"<={m.group(1) or m.group(2)} kg"  # "patients weighing 60 kg or less"
    if m := _WEIGHT_UNDER.search(text):
        return f"<{m.group(1)} kg"
    stripped = _ADULT_OTC_AGE.sub(" adults ", text)
    if _PEDIATRIC.search(stripped):
        return "pediatric"
    if _ELDERLY.search(text) or re.search(r"\b(?:6[05]|7[05]|80)\s*\+", text):
        return "elderly"
    if m := _WEIGHT_AT_LEAST.search(text):
        return f"adult>={m.group(1) or m.group(2)} kg"
    if _ADULT.search(stripped):
        return "adult"
    return None


def fact_populations(text: str | None) -> set[str]:
    """Every population a fact's wording covers ("adult >= 65, renally impaired, or < 50 kg")."""
    if not text:
        return {"adult"}
    parts = re.split(r",\s*(?:or\s+)?|\s+or\s+", text)
    out = {fact_population(p if re.search(r"[a-z]", p, re.I) else f"adult {p}") for p in parts}
    return out or {"adult"}


def fact_population(text: str | None) -> str:
    """The graph's population wording, normalised like :func:`population_of`."""
    if not text:
        return "adult"
    t = text.lower()
    if m := re.search(r"(?:<=|≤)\s*(\d+)\s*kg", t):
        return f"<={m.group(1)} kg"
    if m := re.search(r"<\s*(\d+)\s*kg", t):
        return f"<{m.group(1)} kg"
    if m := re.search(r"(?:>=?|≥)\s*(\d+)\s*kg", t):
        return f"adult>={m.group(1)} kg"  # "> 60 kg" as the text's "over 60 kg" reads
    if "debilitated" in t:
        return "debilitated"
    if "crcl" in t or "renal" in t or "kidney" in t or "gfr" in t:
        return "renal"
    if "hepatic" in t or "liver" in t:
        return "hepatic"
    if (
        re.search(r"(?:>=?|≥|over|older\s+than)\s*(?:6\d|7\d|8\d)\b", t)
        or "elderly" in t
        or "geriatric" in t
    ):
        return "elderly"
    if m := re.search(r">=\s*(\d+)\s*kg", t):
        return f"adult>={m.group(1)} kg"
    if "pediatric" in t or "child" in t:
        return "pediatric"
    return "adult"


_FORMULATIONS: tuple[tuple[str, str], ...] = (
    ("extended-release", r"extended[- ]release|\bER\b|\bXR\b|\bXL\b|\bSR\b|\bCR\b|\bLA\b|"
     r"sustained[- ]release|controlled[- ]release|long[- ]acting|once[- ]daily\s+formulation"),
    ("delayed-release", r"delayed[- ]release|\bDR\b|enteric[- ]coated"),
    ("immediate-release", r"immediate[- ]release|\bIR\b"),
    ("intravenous", r"\bIV\b|intravenous(?:ly)?|infusion|injection\b|injectable|in\s+the\s+hospital"),
    ("transdermal", r"patch(?:es)?|transdermal"),
    ("liquid", r"liquid|suspension|oral\s+solution|syrup|elixir|drops"),
    ("sublingual", r"sublingual"),
)  # fmt: skip
_FORM_RE = [(name, re.compile(pat, re.I)) for name, pat in _FORMULATIONS]


def formulations_of(text: str) -> set[str]:
    return {name for name, pat in _FORM_RE if pat.search(text)}


def formulation_spans(text: str) -> list[tuple[str, int, int]]:
    """(form, start, end) of every release-form word in ``text``."""
    return [(name, m.start(), m.end()) for name, pat in _FORM_RE for m in pat.finditer(text)]


NAMED_STRENGTH = re.compile(
    r"\b(?:(?:regular|extra|maximum|max|original|junior|children'?s|infants'?)\s+strength|"
    r"arthritis\s+pain|8\s*hr|12[- ]hour|low[- ]dose|baby)\b",
    re.I,
)

# another drug named as a condition of the dose ("with amiodarone", "if you take X")
CONDITION_LEAD = re.compile(
    r"(?:\bwith|\btaking|\btake|\bon|\bplus|\balongside|\bcombined\s+with|\btogether\s+with|"
    r"\bwhile\s+(?:taking|on|using)|\bpatients\s+(?:taking|on|receiving)|\bconcomitant(?:ly)?"
    r"(?:\s+with)?|\bco-?administ\w*(?:\s+with)?|\bif\s+(?:you(?:'re|\s+are)?\s+)?(?:also\s+)?"
    r"(?:tak\w+|on|using))\s+(?:\w+\s+){0,2}$",
    re.I,
)
CO_MEDICATION = re.compile(
    r"\b(?:(?:strong|moderate|weak)\s+)?(?:CYP\w*|P-?gp)\s+(?:inhibitors?|inducers?)|"
    r"\b(?:inhibitors?|inducers?)\s+of\s+CYP|\bwhen\s+(?:taken|used|given|combined)\s+with|"
    r"\bin\s+combination\s+with|\bconcomitant(?:ly)?|\bco-?administ\w+|"
    r"\bif\s+(?:you(?:'re|\s+are)?\s+)?(?:also\s+)?(?:tak\w+|using|on)\s+\w+",
    re.I,
)
DRUG_COLUMN = re.compile(
    r"\b(?:drug|medication|medicine|generic|brand|agent|name|product|statin|nsaid|opioid)s?\b",
    re.I,
)
__all__ = [
    "ABOVE_LEAD",
    "CHANGED_MAXIMUM",
    "NOT_ADVISED_TAIL",
    "ROLE_REASON",
    "fact_population",
    "formulation_spans",
    "formulations_of",
    "population_of",
    "role_after",
    "role_before",
    "role_in_label",
]
