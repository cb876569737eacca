"""The washout frame: how long to wait between stopping one drug and starting another.

"Stop the ACE inhibitor and wait at least 36 hours before the first Entresto dose", "allow 14
days after stopping an MAOI before starting duloxetine", "don't start an MAOI within 5 weeks of
stopping fluoxetine", "a 2-week washout when switching from phenelzine to sertraline". The
frame is (stopped drug, started drug, interval). A claim needs an interval, a washout trigger
(wait, allow, elapse, washout, within, after stopping, before starting) and exactly two drugs
in the stretch of the sentence that belongs to that interval (a sentence with two intervals
is split between them). The direction comes from the words before each drug ("after
stopping X", "from X", "who have taken X" / "before starting Y", "to Y", "the first Y dose");
when only one drug is marked the other takes the other role, and when neither is the claim is
kept with ``direction: unknown`` (the verifier then needs both directions to agree). With
three or more drugs in the stretch, the frame is the one marked stopped and the one marked
started, when exactly one of each is marked. Label wordings: "X should be discontinued for
at least 5 weeks before starting Y" (a "for" interval after a stop verb, with "before"
next), "a drug-free period of 2 weeks", "after discontinuation of X before initiation of Y".
Dosing schedules ("every 12 hours"), spacing of two drugs taken together ("4 hours apart")
and half-lives are not washouts.
"""

from __future__ import annotations

import itertools
import re

from auditor.extract.assertion import denial_trigger, non_assertion
from auditor.extract.claim_base import base_claim
from auditor.extract.context import CompiledRule, SentenceInfo
from auditor.extract.units import period_hours
from auditor.memo import IdentityCache
from auditor.types import Claim, Frame, Mention
from knowledge_graphs.store import KnowledgeBase

_DRUGS = frozenset({"Drug", "DrugClass"})
_WORDS = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "fourteen": 14, "twenty-one": 21,
    "twenty-four": 24, "thirty-six": 36, "forty-eight": 48,
}  # fmt: skip
_DURATION = re.compile(
    r"(?<![\w.$€£])(?P<n>\d+(?:\.\d+)?|" + "|".join(sorted(_WORDS, key=len, reverse=True)) + r"|"
    # "who has taken disulfiram within the last week", "within a week of stopping": one
    r"(?<=within\s)(?:the\s+(?:last|past|previous)|a)(?=\s+(?:week|day)\b))"
    r"(?:\s*[-\u2010\u2011\u2013]\s*|\s+)?(?P<u>hours?|hrs?|days?|weeks?|wks?)\b",
    re.I,
)
_TRIGGER = re.compile(
    r"\b(?:wait(?:s|ed|ing)?|allow(?:s|ed|ing)?|elapse[sd]?|wash-?\s?out|within|"
    r"until(?=\s+(?:at\s+least\s+)?\S+\s+(?:hours?|days?|weeks?)\s+(?:after|since|from)\b)|"
    r"(?:drug|treatment|medication|medicine)-?\s?free|"
    r"(?:stopped|discontinued|withdrawn)\s+for\s+(?:at\s+least\s+)?\S+\s+\w+\s+before|"
    r"(?:must|should|to|has\s+to|have\s+to)\s+pass|"
    r"(?:after|since|of)\s+(?:stopping|discontinuing|discontinuation|quitting|coming\s+off|"
    r"(?:the|your|their)\s+last)|"
    r"before\s+(?:starting|beginning|initiating|initiation|restarting|switching|"
    r"(?:the|your)\s+first))\b",
    re.I,
)
# an interval that is a schedule, a half-life, a course or a spacing, not a wait between drugs
_NOT_BEFORE = re.compile(
    r"(?:\bevery|\bhalf-?li(?:fe|ves)(?:\s+of)?(?:\s+(?:about|around|roughly|approximately))?|"
    r"\bfor(?:\s+(?:at\s+least|up\s+to|another|the\s+first))?|\bover|\bper|\bafter|\bin)\s*$",
    re.I,
)
_NOT_AFTER = re.compile(
    r"\s*(?:apart|later|per|a\s+day|of\s+(?:treatment|therapy|use)|course|supply|"
    r"half-?li(?:fe|ves))\b",
    re.I,
)
_WITHIN = re.compile(r"\bwithin\s+(?:the\s+(?:last|past)\s+)?$", re.I)
_FOR_WASHOUT = re.compile(
    r"\s*(?:after|since|of|following)\s+(?:stopping|discontinuing|quitting|(?:the|your|their)\s+last)",
    re.I,
)
# "discontinued for at least 5 weeks": a "for" interval that says how long a drug is off
_OFF_FOR = re.compile(
    r"\b(?:stopped|discontinued|withdrawn|off(?:\s+(?:the\s+)?(?:drug|medication|medicine))?)"
    r"\s*$",
    re.I,
)
_BEFORE_START = re.compile(r"\s+before\b", re.I)
_STOPPED_BEFORE = re.compile(
    r"(?:\bstop(?:s|ped|ping)?|\bdiscontinu\w+(?:\s+of)?|\bquit(?:ting)?|\bcom(?:e|ing)\s+off|\bfrom|"
    r"\btaper(?:ing|ed)?\s+off|\blast(?:\s+dose\s+of)?|"
    # "After a dose of tadalafil, at least 48 hours should pass": the drug taken first
    r"\b(?:after|since|following)\s+(?:(?:a|the|your|any|one)\s+)?(?:single\s+)?(?:dose|tablet|pill)"
    r"\s+of|\b(?:after|since)\s+(?:taking|using)|"
    r"\b(?:have|has|had|'ve)\s+(?:been\s+)?(?:taken|taking|used|using|on))"
    r"\s+(?:(?:the|an?|your|any|their|all|another|other|a\s+different)\s+)?$",
    re.I,
)
_STOPPED_AFTER = re.compile(
    r"^\s*(?:(?:dose|therapy|treatment)\s+)?(?:is|was|has\s+been|have\s+been|are|were|"
    r"(?:should|must|needs?\s+to|has\s+to|have\s+to|will)\s+(?:first\s+)?be)\s+"
    r"(?:stopped|discontinued)",
    re.I,
)
_STARTED_BEFORE = re.compile(
    r"(?:\bstart(?:s|ed|ing)?|\bbegin(?:s|ning)?|\binitiat\w+(?:\s+of)?|\brestart\w*|\bfirst(?:\s+dose\s+of)?|"
    r"\bswitch(?:ing|ed)?\s+to|\bto|\bonto|\badd(?:ing)?|\bgiv(?:e|ing)|\badminister(?:ing)?)"
    r"\s+(?:(?:the|an?|your|any|another|other|a\s+different)\s+)?$",
    re.I,
)
# "No nitrates can be administered for 48 hours after the last dose": the drug given after
_STARTED_AFTER = re.compile(
    r"\s*(?:(?:(?:can|may|should|must|could|is\s+to|are\s+to)\s*(?:not|n't|n’t)?\s+)?be|"
    r"is|are)\s+(?:administered|given|started|initiated|begun|introduced)\b",
    re.I,
)
# "another antidepressant, such as an SSRI": an example stands where its class stands
_EXAMPLE_LEAD = re.compile(
    r"[\s,(]*(?:such\s+as|like|e\.g\.,?|including|for\s+example,?|especially)\s+"
    r"(?:(?:the|an?|any)\s+)?$",
    re.I,
)


def washout_claims(  # type: ignore[no-untyped-def]
    info: SentenceInfo, cr: CompiledRule, subjects, kb: KnowledgeBase, domain: str, from_context
) -> list[Claim]:
    text = info.text
    base = info.sentence.start
    spans = [m for m in _DURATION.finditer(text)]
    if spans and info.layout.kind == "table_row":
        return _table_claims(info, cr, kb, domain, spans)
    drugs = info.mentions_of(_DRUGS)
    if not spans and _no_wait(text):
        return _no_wait_claims(info, cr, kb, domain, drugs)
    if len(spans) == 1 and drugs and info.layout.headings and _one_list(text, base, drugs):
        # "### Stopping the antidepressant before starting an MAOI" / "- **Desvenlafaxine:** at
        # least 7 days": the heading gives the other drug and the direction
        firsts = list({e: (mm, e) for mm, e in reversed(drugs)}.values())[::-1]
        found = [c for d in firsts for c in _heading_claims(info, cr, kb, domain, spans[0], d)]
        if found:
            return found
    if not spans or not _TRIGGER.search(text):
        return []
    out: list[Claim] = []
    cuts = [_cut(text, a.end(), b.start()) for a, b in itertools.pairwise(spans)]
    for i, m in enumerate(spans):
        lo = cuts[i - 1][1] if i else 0
        hi = cuts[i][0] if i < len(cuts) else len(text)
        window = text[lo:hi]
        if not _TRIGGER.search(window) or _not_a_wait(text, m):
            continue
        here = [(mm, e) for mm, e in drugs if lo <= mm.start - base and mm.end - base <= hi]
        distinct: dict[str, tuple[Mention, str]] = {}
        for mm, e in here:
            distinct.setdefault(e, (mm, e))
        for pair in _pairs(text, base, lo, here, distinct):
            out.append(_claim(info, cr, kb, domain, text, window, m, pair))
    return out


def _pairs(
    text: str,
    base: int,
    lo: int,
    here: list[tuple[Mention, str]],
    distinct: dict[str, tuple[Mention, str]],
) -> list[tuple[tuple[Mention, str], tuple[Mention, str], bool]]:
    """The (stopped, started, direction known) pairs an interval's stretch states. Two drugs
    make one pair; of three or more, the one marked stopped and the one marked started, or,
    when one drug is marked and the others are one coordinated list ("dextromethorphan,
    pseudoephedrine and phenylephrine ... or for 2 weeks after stopping the MAOI"), one pair
    per listed drug. A drug named twice takes the role any of its mentions marks ("if you
    take an MAOI or for 2 weeks after stopping the MAOI")."""
    roles = _entity_roles(text, base, lo, here)
    if len(distinct) > 2:
        marked = _marked_pair(text, base, lo, distinct)
        if len(marked) == 2:
            distinct = marked
        else:
            return _listed_pairs(text, base, distinct, roles)
    if len(distinct) != 2:
        return []  # one drug (the other from context): no complete frame
    (m1, e1), (m2, e2) = sorted(distinct.values(), key=lambda x: x[0].start)
    r1, r2 = roles.get(e1), roles.get(e2)
    if r1 == r2:
        r1 = r2 = None
    elif r1 is None:
        r1 = "start" if r2 == "stop" else "stop"
    elif r2 is None:
        r2 = "start" if r1 == "stop" else "stop"
    if r1 == "start":
        return [((m2, e2), (m1, e1), True)]
    return [((m1, e1), (m2, e2), r1 is not None)]


def _entity_roles(
    text: str, base: int, lo: int, here: list[tuple[Mention, str]]
) -> dict[str, str | None]:
    """Each drug's role from the words around any of its mentions; None when no mention is
    marked or two mentions disagree."""
    seen: dict[str, set[str]] = {}
    for mm, e in here:
        r = _role(text, mm, base, lo)
        bucket = seen.setdefault(e, set())
        if r is not None:
            bucket.add(r)
    return {e: (next(iter(rs)) if len(rs) == 1 else None) for e, rs in seen.items()}


_LIST_GAP = re.compile(r"\s*(?:,\s*(?:and\s+|or\s+)?|\s(?:and|or)\s+)\s*$", re.I)


def _listed_pairs(
    text: str,
    base: int,
    distinct: dict[str, tuple[Mention, str]],
    roles: dict[str, str | None],
) -> list[tuple[tuple[Mention, str], tuple[Mention, str], bool]]:
    marked = [e for e in distinct if roles.get(e) is not None]
    if len(marked) != 1:
        return []
    hub = distinct[marked[0]]
    rest = sorted((x for e, x in distinct.items() if e != marked[0]), key=lambda x: x[0].start)
    for a, b in itertools.pairwise(rest):
        if not _LIST_GAP.fullmatch(text[a[0].end - base : b[0].start - base]):
            return []  # the others are not one list: which of them the interval is for is open
    if roles[marked[0]] == "stop":
        return [(hub, x, True) for x in rest]
    return [(x, hub, True) for x in rest]


def _claim(  # type: ignore[no-untyped-def]
    info: SentenceInfo, cr: CompiledRule, kb: KnowledgeBase, domain: str, text: str,
    window: str, m: re.Match[str], pair,
) -> Claim:  # fmt: skip
    stop, start, known = pair
    base = info.sentence.start
    ent = kb.entity(start[1])
    c = base_claim(
        info,
        cr,
        stop,
        kb,
        domain,
        start[1],
        ent.label if ent else start[0].text,
        base + m.start(),
    )
    _set_interval(c, m)
    if not known:
        c.qualifiers["direction"] = "unknown"
    c.negated = _no_wait(window)
    trig = _TRIGGER.search(window)
    frame = Frame(
        "washout",
        role="minimum",
        trigger=trig.group(0) if trig else None,
        slots={
            "stopped": stop[0].text if known else "",
            "started": start[0].text if known else "",
            "interval": m.group(0),
        },
    )
    frame.not_asserted = (
        non_assertion(info.layout, text, m.start(), paragraph_lead=info.layout.paragraph_lead)
        or c.frame.not_asserted  # type: ignore[union-attr]
    )
    c.frame = frame
    return c


def _table_claims(  # type: ignore[no-untyped-def]
    info: SentenceInfo, cr: CompiledRule, kb: KnowledgeBase, domain: str, spans
) -> list[Claim]:
    """ "| Antidepressant stopped | Wait before starting an MAOI |" / "| Sertraline | 14 days |":
    the row's drug and the drug or class the interval's column header names, the direction
    from the header's words."""
    lay = info.layout
    base = info.sentence.start
    row = {e: (m, e) for m, e in info.mentions_of(_DRUGS) if lay.cell_index(m.start) == 0}
    if len(row) != 1 or len(spans) != 1:
        return []
    m = spans[0]
    if _not_a_wait(info.text, m):
        return []
    header = lay.column_at(base + m.start())
    if not _TRIGGER.search(header):
        return []
    other = _named_in_header(header, kb)
    if other is None:
        return []
    eid, name, at = other
    ((rm, re_),) = row.values()
    if re_ == eid:
        return []
    lead = header[:at]
    if _STARTED_BEFORE.search(lead):
        stop, start = (rm, re_), eid
    elif _STOPPED_BEFORE.search(lead):
        stop, start = None, re_
    else:
        return []
    if stop is None:  # "| Wait after stopping an MAOI |": the row's drug is started
        mention = Mention(rm.start, rm.end, name, (eid,), ("DrugClass",))
        c = base_claim(info, cr, (mention, eid), kb, domain, start, rm.text, base + m.start())
    else:
        ent = kb.entity(start)
        c = base_claim(info, cr, stop, kb, domain, start, ent.label if ent else name,
                       base + m.start())  # fmt: skip
    _set_interval(c, m)
    frame = Frame("washout", role="minimum", trigger=header, slots={"interval": m.group(0)})
    frame.not_asserted = c.frame.not_asserted  # type: ignore[union-attr]
    c.frame = frame
    return [c]


def _one_list(text: str, base: int, drugs: list[tuple[Mention, str]]) -> bool:
    """The line's drugs are one name or one coordinated list of names ("Sertraline,
    paroxetine, citalopram, escitalopram"), brands in parentheses allowed."""
    firsts = sorted({e: mm for mm, e in reversed(drugs)}.values(), key=lambda mm: mm.start)
    for a, b in itertools.pairwise(firsts):
        gap = re.sub(r"\([^()]*\)", "", text[a.end - base : b.start - base])
        if not _LIST_GAP.fullmatch(gap) and gap.strip():
            return False
    return True


def _heading_claims(  # type: ignore[no-untyped-def]
    info: SentenceInfo, cr: CompiledRule, kb: KnowledgeBase, domain: str, m, drug
) -> list[Claim]:
    """A line with one drug and one interval under a heading that says which way the wait
    runs and names the drug on the other side: "### Stopping the MAOI before starting the
    next drug" over "- **Sertraline:** 14 days" (sertraline started), "### Stopping the
    antidepressant before starting an MAOI" over "- **Venlafaxine:** at least 7 days"
    (venlafaxine stopped; it stands for "the antidepressant")."""
    heading = info.layout.headings[-1]
    if _not_a_wait(info.text, m) or not _TRIGGER.search(heading):
        return []
    parties = _heading_parties(heading, kb)
    stops = [p for p in parties if p[2] == "stop"]
    starts = [p for p in parties if p[2] == "start"]
    mention, eid = drug
    if len(starts) == 1 and len(stops) <= 1 and starts[0][0] != eid:
        other, role = starts[0], "stop"  # the line's drug is the one stopped
    elif len(stops) == 1 and not starts and stops[0][0] != eid:
        other, role = stops[0], "start"
    else:
        return []
    oid, name, _ = other
    if role == "stop":
        ent = kb.entity(oid)
        c = base_claim(info, cr, drug, kb, domain, oid, ent.label if ent else name,
                       info.sentence.start + m.start())  # fmt: skip
    else:
        hm = Mention(mention.start, mention.end, name, (oid,), ("DrugClass",))
        c = base_claim(info, cr, (hm, oid), kb, domain, eid, mention.text,
                       info.sentence.start + m.start())  # fmt: skip
    _set_interval(c, m)
    frame = Frame("washout", role="minimum", trigger=heading, slots={"interval": m.group(0)})
    frame.not_asserted = c.frame.not_asserted  # type: ignore[union-attr]
    c.frame = frame
    return [c]


def _heading_parties(header: str, kb: KnowledgeBase) -> list[tuple[str, str, str | None]]:
    """The drugs and drug classes a heading names, each with the role its words mark."""
    names = _names(kb)
    words = [(w.group(0).lower(), w.start()) for w in re.finditer(r"[\w/-]+", header)]
    out: list[tuple[str, str, str | None]] = []
    seen: set[str] = set()
    i = 0
    while i < len(words):
        for j in range(min(len(words), i + 5), i, -1):
            phrase = " ".join(w for w, _ in words[i:j])
            hit = names.get(phrase) or names.get(phrase.rstrip("s"))
            if hit is not None:
                lead = header[: words[i][1]]
                role = ("stop" if _STOPPED_BEFORE.search(lead[-40:]) else
                        "start" if _STARTED_BEFORE.search(lead[-40:]) else None)  # fmt: skip
                if hit[0] not in seen:
                    seen.add(hit[0])
                    out.append((hit[0], phrase, role))
                i = j - 1
                break
        i += 1
    return out


_NAMES: IdentityCache[dict[str, tuple[str, str]]] = IdentityCache()


def _names(kb: KnowledgeBase) -> dict[str, tuple[str, str]]:
    """Lower-cased drug and drug-class names → (entity, type), built once per graph."""

    def build() -> dict[str, tuple[str, str]]:
        out: dict[str, tuple[str, str]] = {}
        for type_ in ("Drug", "DrugClass"):  # a class name wins over a same-named drug
            for e in kb.entities_of_type(type_):
                for n in e.names():
                    if len(n) >= 4:
                        out[n.lower()] = (e.id, type_)
        return out

    return _NAMES.get((kb,), build)


def _named_in_header(header: str, kb: KnowledgeBase) -> tuple[str, str, int] | None:
    """The one drug or drug class a column header names: (entity, name, position)."""
    names = _names(kb)
    words = [(w.group(0).lower(), w.start()) for w in re.finditer(r"[\w/-]+", header)]
    found: dict[str, tuple[str, int]] = {}
    for i in range(len(words)):
        for j in range(min(len(words), i + 5), i, -1):
            phrase = " ".join(w for w, _ in words[i:j])
            hit = names.get(phrase)
            if hit is not None:
                found.setdefault(hit[0], (phrase, words[i][1]))
                break
    if len(found) != 1:
        return None
    eid, (name, at) = next(iter(found.items()))
    return eid, name, at


def _not_a_wait(text: str, m: re.Match[str]) -> bool:
    """ "every 12 hours", "a half-life of 5 days", "for 7 days", "4 hours apart" — but "for 2
    weeks after stopping the MAOI" is a wait."""
    if (after := _NOT_AFTER.match(text, m.end())) and not (
        after.group(0).lstrip().startswith("of") and _WITHIN.search(text, 0, m.start())
    ):
        return True  # but "within 2 weeks of use" of an MAOI is a wait
    lead = _NOT_BEFORE.search(text[max(0, m.start() - 40) : m.start()])
    if lead is None:
        return False
    word = lead.group(0).strip().lower()
    if not word.startswith("for"):
        return True
    if _FOR_WASHOUT.match(text, m.end()):
        return False
    head = text[max(0, m.start() - 60) : m.start() - len(lead.group(0))]
    return not (_OFF_FOR.search(head) and _BEFORE_START.match(text, m.end()))


_BOUNDARY = re.compile(r";|,\s*(?:and|but|while|whereas|or)\s|\s(?:while|whereas)\s", re.I)


def _cut(text: str, a: int, b: int) -> tuple[int, int]:
    """Where the stretch of one interval ends and the next one's begins: the last clause
    boundary between them ("..., and at least 5 days after ..."), else the intervals."""
    last = None
    for m in _BOUNDARY.finditer(text, a, b):
        last = m
    return (last.start(), last.end()) if last else (b, a)


def _no_wait(text: str) -> bool:
    """The text says no wait is needed ("no gap is needed", "start Y that evening")."""
    return denial_trigger(text, "washoutBefore", shared=False)


def _no_wait_claims(  # type: ignore[no-untyped-def]
    info: SentenceInfo, cr: CompiledRule, kb: KnowledgeBase, domain: str, drugs
) -> list[Claim]:
    """ "Take the last lisinopril dose in the morning and start Entresto that evening": a
    switch with no wait between two named drugs, one stopped and one started."""
    text, base = info.text, info.sentence.start
    roles: dict[str, tuple[str, tuple[Mention, str]]] = {}  # entity -> its marked role
    for mm, e in drugs:
        r = _role(text, mm, base, 0)
        if r is not None and e not in roles:
            roles[e] = (r, (mm, e))
    if len({e for _, e in drugs}) != 2 or sorted(r for r, _ in roles.values()) != ["start", "stop"]:
        return []  # a switch needs two drugs, one marked as stopped and one as started
    stop = next(x for r, x in roles.values() if r == "stop")
    start = next(x for r, x in roles.values() if r == "start")
    ent = kb.entity(start[1])
    c = base_claim(
        info, cr, stop, kb, domain, start[1], ent.label if ent else start[0].text, start[0].start
    )
    c.qualifiers.update({"interval": "no wait", "interval_hours": "0"})
    c.negated = True
    frame = Frame(
        "washout",
        role="minimum",
        trigger="no wait",
        slots={"stopped": stop[0].text, "started": start[0].text, "interval": "none"},
    )
    frame.not_asserted = (
        non_assertion(
            info.layout, text, start[0].start - base, paragraph_lead=info.layout.paragraph_lead
        )
        or c.frame.not_asserted  # type: ignore[union-attr]
    )
    c.frame = frame
    return [c]


def _marked_pair(
    text: str, base: int, lo: int, distinct: dict[str, tuple[Mention, str]]
) -> dict[str, tuple[Mention, str]]:
    """Of three or more drugs in an interval's stretch, the two the words mark as the one
    stopped and the one started ("between discontinuing venlafaxine and starting phenelzine
    to avoid serotonin syndrome"); empty unless exactly one of each is marked."""
    roles: dict[str, list[str]] = {"stop": [], "start": []}
    ordered = sorted(distinct.items(), key=lambda x: x[1][0].start)
    marked: dict[str, str] = {}
    for k, (e, (mm, _)) in enumerate(ordered):
        r = _role(text, mm, base, lo)
        if r is None and k and _EXAMPLE_LEAD.fullmatch(text, ordered[k - 1][1][0].end - base,
                                                        mm.start - base):  # fmt: skip
            head = ordered[k - 1][0]
            r = marked.get(head)
            if r is not None:  # the example replaces its class
                roles[r].remove(head)
        if r is not None:
            marked[e] = r
            roles[r].append(e)
    if len(roles["stop"]) != 1 or len(roles["start"]) != 1:
        return {}
    return {e: distinct[e] for e in (roles["stop"][0], roles["start"][0])}


def _role(text: str, m: Mention, base: int, lo: int) -> str | None:
    before = text[max(lo, m.start - base - 40) : m.start - base]
    after = text[m.end - base : m.end - base + 40]
    if _STOPPED_BEFORE.search(before) or _STOPPED_AFTER.match(after):
        return "stop"
    if _STARTED_BEFORE.search(before) or _STARTED_AFTER.match(after):
        return "start"
    return None


def _set_interval(c: Claim, m: re.Match[str]) -> None:
    """The interval's qualifiers: as written ("36 hours") and in hours ("36")."""
    n = " ".join(m.group("n").lower().split())
    value = 1.0 if n == "a" or n.startswith("the ") else float(_WORDS.get(n, 0) or n)
    u = m.group("u").lower()
    unit = "hour" if u.startswith("h") else "day" if u.startswith("d") else "week"
    c.qualifiers["interval"] = f"{value:g} {unit}{'s' if value != 1 else ''}"
    c.qualifiers["interval_hours"] = f"{value * (period_hours(unit) or 0):g}"


__all__ = ["washout_claims"]
