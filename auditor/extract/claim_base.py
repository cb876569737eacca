"""The parts every claim builder shares: a claim with its clause's qualifiers, negation,
tense and framing; the subject a value belongs to; the date a claim is about."""

from __future__ import annotations

import re

from auditor.extract.assertion import headline, indirect_question, is_negated
from auditor.extract.clauses import clause_at
from auditor.extract.context import CompiledRule, SentenceInfo
from auditor.types import Claim, DateRef, Frame, Mention, Quantity
from knowledge_graphs.store import KnowledgeBase

_PAST = re.compile(
    r"\b(?:was|were|had|used\s+to|previously|formerly|before\s+that|until\s+then|"
    r"back\s+then|at\s+the\s+time)\b",
    re.I,
)
_PRESENT = re.compile(
    r"\b(?:is|are|remains?|stands?|sits?|currently|now|today|still|has\s+been|have\s+been)\b", re.I
)


def _claim_extent(info: SentenceInfo, anchor: int) -> tuple[int, int]:
    """The span a claim reports: its sentence, or in a table row the cell its anchor (the
    value) is in. A row holds one claim per cell ("| Maximum dose | 60 mg | 20 mg |" compares
    two drugs); the row label and column header still qualify the claim, and ``text`` stays
    the whole row (what the frame was read from), but the span a reviewer sees is the cell
    that states it. An anchor in the row-label cell keeps the row."""
    s = info.sentence
    cells = info.layout.cells
    i = info.layout.cell_index(anchor) if cells else None
    if i is None or i == 0:
        return s.start, s.end
    return cells[i]


def base_claim(
    info: SentenceInfo,
    cr: CompiledRule,
    subj: tuple[Mention, str],
    kb: KnowledgeBase,
    domain: str,
    obj: str | None,
    obj_label: str | None,
    anchor: int,
) -> Claim:
    """A claim with the qualifiers and negation of the clause around ``anchor`` (text offset)."""
    mention, eid = subj
    ent = kb.entity(eid)
    base = info.sentence.start
    a, b = clause_at(info.text, max(0, anchor - base))
    a, b = _with_label_body(info, a, b)
    clause = info.text[a:b]
    quals = cr.qualifiers_in(f"{info.header} {clause}" if info.header else clause)
    start, end = _claim_extent(info, anchor)
    claim = Claim(
        text=info.text,
        start=start,
        end=end,
        domain=domain,
        rule_id=cr.rule.id,
        subject=eid,
        subject_label=ent.label if ent else mention.text,
        predicate=cr.rule.applies_to.relation or cr.rule.check.type,
        object=obj,
        object_label=obj_label,
        qualifiers=quals,
        severity=cr.rule.severity,
        fuzzy_score=mention.fuzzy_score,
    )
    # a subordinate clause after the claim's anchor ("... you can pick it up at any pharmacy
    # if famotidine doesn't suit you") does not negate the main clause
    at = max(0, anchor - base - a)
    sub = _SUBORDINATE.search(clause, at)
    main = clause[: sub.start()] if sub else clause
    if cr.rule.check.type == "kg_status" and (held := _CONTENT_CLAUSE.search(main)):
        # "remains the leading authority that the FLSA cannot be applied to state employees":
        # the negation inside the proposition is not the status's
        main = main[: held.start()]
    said = cr.polarity(clause)
    if said == "denied":
        claim.negated = True
        claim.qualifiers["asserts"] = "absence"
    elif said == "mitigated":  # "fine together if you just cut the dose in half"
        claim.qualifiers["asserts"] = "mitigated"
    elif claim.predicate == "indicatedFor":
        claim.negated = bool(_DENIED_USE.search(clause))  # "not recommended" is not "not used for"
    elif cr.rule.check.negation == "grammar" and cr.rule.check.type in {
        "kg_relation",
        "kg_status",
        "kg_date",
        "kg_frequency",
    }:
        claim.negated = is_negated(main)
    if ent is not None and mention.text != ent.label:
        claim.qualifiers.setdefault("mention", mention.text)
    if _PAST.search(clause) and not _PRESENT.search(clause):
        claim.qualifiers["tense"] = "past"
    if reported(info.text, a, anchor - base):
        claim.qualifiers["framing"] = "reported"
    claim.frame = Frame(claim.predicate, not_asserted=_not_asserted(info))
    if (
        claim.predicate == "interactsWith"
        and not claim.negated
        and "asserts" not in claim.qualifiers
        and (level := _claimed_severity(clause)) is not None
    ):
        claim.qualifiers["claimed_severity"] = level
    if claim.predicate == "interactsWith" and not claim.negated and _EFFECT_DENIED.search(clause):
        # "sertraline does not affect warfarin levels" is true of a pharmacokinetic effect and
        # says nothing of the bleeding risk the graph records: no verdict either way
        claim.frame.missing = ("the text denies one effect of the combination (its levels or "
                               "its effect), not that the drugs interact",)  # fmt: skip
    if (
        claim.predicate == "interactsWith"
        and not claim.negated
        and "asserts" not in claim.qualifiers
        and _SAFE_WORD.search(clause)
        and not _HARM_WORD.search(clause)
    ):
        # a clause that calls the pair safe in words no denial pattern reads ("ibuprofen is
        # the safe pick on warfarin") must not be read as saying the drugs interact
        claim.frame.missing = ("the clause calls the combination safe in words the auditor "
                               "does not read as a denial",)  # fmt: skip
    return claim


_SAFE_WORD = re.compile(r"\b(?:safe(?:ly)?|fine|okay|ok|harmless|no\s+problem)\b", re.I)
_HARM_WORD = re.compile(
    r"\b(?:not|never|no|un\w*safe|avoid\w*|risk\w*|danger\w*|bleed\w*|contraindicat\w*|"
    r"interact\w*|caution\w*|careful\w*|serious|toxic\w*|monitor\w*|warn\w*|harm\w*|"
    r"rais\w*|increas\w*|boost\w*|reduc\w*|lower\w*|only|unless|except|but|however|"
    r"safer|safest)\b|n't\b|n’t\b",
    re.I,
)


# "does not raise simvastatin levels", "has no effect on the INR": one effect denied
_EFFECT_DENIED = re.compile(
    r"(?:(?:do|does|did|will|would)\s+not|doesn't|don't|didn't|won't|doesn’t|don’t|won’t|never)\s+"
    r"(?:significantly\s+|meaningfully\s+|appreciably\s+)?(?:raise|increase|boost|elevate|reduce|"
    r"decrease|lower|weaken|diminish|blunt|potentiate|enhance|amplify|affect|change|alter)\b|"
    r"\b(?:has|have|had)\s+no\s+(?:significant\s+|meaningful\s+|clinically\s+relevant\s+)?"
    r"effect\s+on\b",
    re.I,
)
_CONTENT_CLAUSE = re.compile(
    r"\b(?:authority|precedent|case|rule|law|holding|standard|test|proposition|principle)\s+"
    r"(?:for\s+(?:the\s+proposition\s+)?)?that\s",
    re.I,
)
_SUBORDINATE = re.compile(
    r"[,;]?\s+(?:if|unless|when|whenever|because|although|though|in\s+case|as\s+long\s+as)\s", re.I
)
_DENIED_USE = re.compile(
    r"\b(?:not|never|isn't|aren't|wasn't|doesn't|don't|no\s+longer|neither|nor)\s+(?:[\w'-]+\s+){0,3}?"
    r"(?:FDA[- ])?(?:used|indicated|approved|prescribed|treat\w*|effective|work\w*|help\w*|for)\b",
    re.I,
)


# How strongly a text says two drugs must not meet: "contraindicated" names the label's
# Contraindications section; "avoid", "never take ... with", "must not be combined" ask for
# the combination to be avoided. Anything weaker ("interacts", "use caution") claims a link only.
_CONTRAINDICATED = re.compile(r"(?<![\w-])contraindicat\w*", re.I)
_AVOIDED = re.compile(
    r"(?<![\w-])(?:avoid\w*|never\s+(?:be\s+)?(?:take|taken|use|used|combine|combined|mix|mixed)|"
    r"(?:do|does|must|should|cannot|can)\s*(?:not|n't|n’t)\s+(?:be\s+)?(?:take|taken|use|used|"
    r"combine|combined|mix|mixed|give|given)\b|shouldn['’]t\s+(?:be\s+)?(?:take|taken|use|used|"
    r"combine|combined|mix|mixed)|don['’]t\s+(?:take|use|combine|mix))",
    re.I,
)


def _claimed_severity(clause: str) -> str | None:
    """``contraindicated`` / ``avoid`` when the clause says the combination is contraindicated
    or must be avoided; None when it only says the drugs interact."""
    if _CONTRAINDICATED.search(clause):
        return "contraindicated"
    if _AVOIDED.search(clause):
        return "avoid"
    return None


def _with_label_body(info: SentenceInfo, a: int, b: int) -> tuple[int, int]:
    """A clause inside a line's label ("- **Alpha-blockers** such as tamsulosin: no special
    precautions are needed", "Simvastatin and clarithromycin: avoid") says nothing by itself:
    what the line asserts of the labelled names is the first clause after the colon, so the
    claim's clause runs on to its end (sentence-relative offsets)."""
    end = info.layout.label_end
    if end is None:
        return a, b
    body = end - info.sentence.start
    if not 0 < body < len(info.text) or b > body:
        return a, b
    if info.text[b:body].strip(" *_:") or not _CLAUSE_WORD.search(info.text, body):
        return a, b
    return a, clause_at(info.text, body)[1]


_CLAUSE_WORD = re.compile(r"\s*[*_]*\w")


def _not_asserted(info: SentenceInfo) -> str | None:
    """Headings and questions state nothing, whatever they name ("## Is Zantac still sold?")."""
    lay = info.layout
    if lay.kind == "heading" and not (headline(info.text) and not lay.question):
        return "a heading, not an assertion"
    if lay.question:
        return "a question, not an assertion"
    if indirect_question(info.text):
        return "an indirect question, not an assertion"
    return None


# The author reports or refutes a statement instead of asserting it: "Some sources claim X,
# but ...", "It is a myth that X", "If you read that X, that is incorrect".
_ATTRIBUTED = re.compile(
    r"\b(?:myths?|misconceptions?|misbeliefs?|mistakenly|wrongly|falsely|erroneously"
    # "Mistaken daily use of the weekly dose has caused fatal toxicity": an error reported
    r"|mistaken|erroneous|by\s+mistake|in\s+error"
    r"|(?:it\s+is|it's)\s+(?:not\s+true|false|untrue|wrong)\s+that"
    # "The idea that adults can take 8,000 mg is a myth": a proposition named, not asserted
    r"|(?:the|a|this|that)\s+(?:(?:common|popular|widespread|old)\s+)?(?:idea|notion|belief|"
    r"claim|assumption|suggestion|rumou?r)\s+that"
    r"|(?:some|many|a\s+few|several|most|patients|people|users|sources|websites|forums|others"
    r"|rumou?rs?)\s+(?:\w+\s+){0,3}?(?:claim|believe|think|assume|say|suggest|insist)s?"
    r"|if\s+you\s+(?:read|hear|see|saw|heard|were\s+told)|you\s+(?:may|might)\s+(?:have\s+)?"
    r"(?:read|heard)|contrary\s+to\s+what)\b",
    re.I,
)
_REFUTED_AFTER = re.compile(
    r"[^;.!?]*?\b(?:that|this|which)(?:\s+claim)?\s+(?:is|was|'s)\s+(?:simply\s+)?"
    r"(?:wrong|incorrect|false|untrue|not\s+true|a\s+myth|mistaken|outdated)\b"
    # 'a "70 mg daily" sig is an error': a quoted wording called wrong
    r"|[^;.!?\"”]*?[\"”](?:\s+\w+){0,2}\s+(?:is|was|would\s+be)\s+(?:an?\s+)?(?:\w+\s+)?"
    r"(?:error|mistake|wrong|incorrect)\b"
    # "doses taken daily by mistake"
    r"|[^;.!?,]{0,30}?\b(?:by\s+mistake|in\s+error)\b",
    re.I,
)
_CORRECTION = re.compile(r";|:\s|\s[-–—]\s|\b(?:but|however|actually|in\s+fact|instead)\b", re.I)


def reported(text: str, clause_start: int, pos: int) -> bool:
    """The statement at ``pos`` sits in a reporting or refuting frame of its sentence; the
    frame must govern the claim's own clause (starting at ``clause_start``)."""
    pos = max(0, pos)
    lead = text[clause_start:pos]
    if _ATTRIBUTED.search(lead):
        return True
    nxt = _CORRECTION.search(text, pos)
    return bool(_REFUTED_AFTER.match(text, pos, nxt.end() if nxt else len(text)))


DENIED_VALUE = re.compile(
    r"\b(?:(?:is|are|was|were)\s+not|isn't|aren't|wasn't|weren't|isn’t|aren’t)"
    r"\s+(?:actually\s+|really\s+|just\s+)?$",
    re.I,
)

_ATTACHES = re.compile(r"^\s*(?:(?:at|for|in|of|with|from|under)\s+(?:a|an|the)?\s*)?$", re.I)


def subject_for(
    info: SentenceInfo,
    start: int,
    end: int,
    subjects: list[tuple[Mention, str]],
    from_context: bool,
) -> tuple[Mention, str]:
    """The subject a value belongs to: a mention right after it that it attaches to ("a 2.5%
    capital conservation buffer", "$2,000 at a money services business"), else the closest
    mention before it in the sentence, else the recalled subject, else the first after it."""
    base = info.sentence.start
    named = [s for s in subjects if s[0].start >= base]  # recalled mentions lie before the sentence
    after = [
        s
        for s in named
        if s[0].start >= end
        and s[0].start - end <= 28
        and _ATTACHES.match(info.text[end - base : s[0].start - base])
    ]
    if after:
        return min(after, key=lambda s: s[0].start)
    before = [s for s in named if s[0].end <= start]
    if before:
        return max(before, key=lambda s: s[0].end)
    if from_context:
        return subjects[0]
    return min(named or subjects, key=lambda s: abs(s[0].start - start))


def claim_date(info: SentenceInfo, anchor: int) -> DateRef | None:
    """The date a claim is about: a date in its clause, else in the sentence; a year inside a
    case citation dates the decision, and "after 14 September" in a present-tense sentence
    dates an event, not the state the claim describes."""
    cited = [(c.start, c.end) for c in info.citations if c.kind == "case"]
    dates = [d for d in info.dates if not any(s <= d.start and d.end <= e for s, e in cited)]
    base = info.sentence.start
    a, b = clause_at(info.text, max(0, anchor - base))
    local = [d for d in dates if a <= d.start - base < b]
    clause = info.text[a:b]
    if not local and _PRESENT.search(clause) and not _PAST.search(clause):
        return next((d for d in dates if d.role == "current"), None)  # "... rate is 4%, after ..."
    # "... to 2.0% on June 5, marking its eighth cut since June 2024": another clause's "since"
    # dates that clause's span of time, not this claim
    pool = local or [d for d in dates if d.role != "since"]
    points = [d for d in pool if d.role not in {"current", "after"}]
    if points:
        return points[0]
    return next((d for d in pool if d.role == "current"), None)


def format_quantity(q: Quantity) -> str:
    def num(v: float) -> str:
        return f"{v:g}" if abs(v) < 1e6 else f"{v:,.0f}"

    val = num(q.value) + (f"–{num(q.value_max)}" if q.value_max is not None else "")
    unit = {"percent": "%"}.get(q.unit or "", f" {q.unit}" if q.unit else "")
    per = f" per {q.per}" if q.per else ""
    return f"{val}{unit}{per}"


def _family(kb: KnowledgeBase, eid: str) -> tuple[str, str] | None:
    """(head, acronym) of an entity whose label names a filer: "Suspicious Activity Report by
    money services businesses" -> ("suspicious activity report", "sar")."""
    ent = kb.entity(eid)
    if ent is None or " by " not in ent.label:
        return None
    head = ent.label.split(" by ", 1)[0].strip().lower()
    return head, "".join(w[0] for w in head.split() if w[:1].isalpha())


def specific_member(
    info: SentenceInfo,
    subj: tuple[Mention, str],
    subjects: list[tuple[Mention, str]],
    kb: KnowledgeBase,
    at: int,
) -> tuple[Mention, str]:
    """ "A money services business must file a SAR for ... at least $2,000": the bare "SAR" is
    the family's generic name (linked to the banks' report); a member of the same family named
    earlier in the clause ("money services business") is the one the value belongs to."""
    fam = _family(kb, subj[1])
    if fam is None or subj[0].text.lower().rstrip("s") not in {fam[0], fam[1]}:
        return subj
    base = info.sentence.start
    a, _ = clause_at(info.text, max(0, at - base))
    members = [
        s
        for s in subjects
        if s[1] != subj[1]
        and s[0].end <= subj[0].start
        and s[0].start - base >= a
        and _family(kb, s[1]) == fam
    ]
    return members[-1] if len(members) >= 1 and len({m[1] for m in members}) == 1 else subj
