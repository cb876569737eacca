"""Assemble claims ``(subject, predicate, object/value, qualifiers, span)`` from the rule packs.

A rule fires on a sentence when an entity of one of its subject types is mentioned (or the
sentence refers back to one: "Ibuprofen is an NSAID. The OTC maximum is 1,200 mg a day." /
"It has applied since 25 May 2018."), one of its cues occurs (in the sentence or in the list
header it belongs to), and the kind of object it needs is present: a quantity of the right
dimension, an entity of the right type, a date, a frequency or a regulation identifier.
Negation and qualifiers are read from the clause that holds the claim, not the sentence.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable
from dataclasses import replace
from datetime import date

from auditor.extract.case_names import names_unlinked_case
from auditor.extract.claim_base import (
    DENIED_VALUE,
    base_claim,
    claim_date,
    format_quantity,
    specific_member,
    subject_for,
)
from auditor.extract.classlike import is_class_mention
from auditor.extract.clauses import clause_at
from auditor.extract.context import CompiledRule, SentenceInfo
from auditor.extract.cues import rate_direction
from auditor.extract.dates import find_dates
from auditor.extract.frames import frame_builder
from auditor.types import Claim, DateRef, Mention
from knowledge_graphs.store import KnowledgeBase

CONTEXT_WINDOW = 3  # sentences a subject stays "current" for back-references
_BACK_REFERENCE = re.compile(
    # an optional lead that itself points back ("In the same opinion, the Court ...")
    r"^\W*(?:(?:in|by)\s+(?:the\s+same|that|this|its)\s+(?:opinion|decision|case|ruling|"
    r"judgment)\s*,?\s*)?"
    r"(?!it(?:'s|\s+is|\s+was|\s+may\s+be|\s+can\s+be|\s+would\s+be|\s+will\s+be)\s+(?:\w+\s+){0,3}?(?:to|that)\b)"
    r"(?:it|its|this|that|they|these|those|he|she|the\s+(?:drug|medication|medicine|pill|tablet|"
    r"regulation|directive|act|law|rule|statute|case|decision|ruling|opinion|court|holding|rate|"
    r"bank|report|requirement|threshold|ratio|country|currency|label|same|latter|former|cap|"
    r"limit|ban|prohibition))\b",
    re.I,
)
_PRONOUN = re.compile(r"\b(?:it|its|this\s+(?:drug|medication|medicine|pill)|that\s+drug)\b", re.I)
_EXPLETIVE = re.compile(
    r"it(?:'s|\s+is|\s+was)\s+(?:\w+\s+){0,3}?(?:to|that)\s+(?!take\s+with|use\s+with)", re.I
)
_LIST_JOIN = re.compile(
    r"\s*(?:,|,?\s*(?:or|and|nor)|,?(?:\s+\w+)?\s*(?:like|such\s+as|including|e\.g\.,?))\s*", re.I
)
_OVERRULE = re.compile(r"\b(?:overrul\w*|overturn\w*|abrogat\w*|repudiat\w*)", re.I)
_CLAUSE_JOIN = re.compile(r"\b(?:and|or|but|while|whereas)\b|[;,]", re.I)
_DOSE_FORM_AFTER = re.compile(
    r"^\s*(?:-|\s)?(?:tablets?|caplets?|capsules?|pills?|softgels?|"
    r"strength|vials?|patch(?:es)?|doses?\s+form)\b",
    re.I,
)


_NAME_LIST_FILLER = re.compile(r"\([^()]*\)|\b(?:and|or|vs\.?|versus)\b|[\s,;:/|*_•·-]+", re.I)


def _names_only(info: SentenceInfo, subject_types: frozenset[str]) -> bool:
    """The sentence is nothing but two or more distinct names of a subject type (a list or a
    table header flattened into one line), with at most parenthesised brands between them."""
    names = [m for m in info.mentions if set(m.types) & subject_types]
    if len({m.candidates[0] for m in names if m.candidates}) < 2:
        return False
    base = info.sentence.start
    rest, at = [], 0
    for m in sorted(names, key=lambda m: m.start):
        rest.append(info.text[at : m.start - base])
        at = max(at, m.end - base)
    rest.append(info.text[at:])
    return not _NAME_LIST_FILLER.sub("", "".join(rest)).strip()


class SubjectMemory:
    """The topic of recent sentences per entity type (the first mention of each sentence)."""

    def __init__(self) -> None:
        self._last: dict[str, tuple[int, Mention, str]] = {}
        self._quiet: set[int] = set()  # sentences that name nothing, in their topic's paragraph

    def pass_quietly(self, index: int, info: SentenceInfo) -> None:
        """A prose sentence that names nothing and goes on the paragraph ("Patients use one
        120 mg pill every 12 hours.") does not end the topic of the sentence before it."""
        if not info.mentions and info.previous_text and info.layout.kind == "prose":
            self._quiet.add(index)  # list items and table rows bind to their headings instead

    def remember(
        self,
        index: int,
        info: SentenceInfo,
        subject_types: frozenset[str],
        kb: KnowledgeBase | None = None,
    ) -> None:
        seen: set[str] = set()
        if _names_only(info, subject_types):
            # "Cetirizine (Zyrtec) Fexofenadine (Allegra) Loratadine": a flattened table's
            # header row names its columns, not a topic; the next line's values are unbound
            for m in info.mentions:
                for typ in m.types:
                    if typ in subject_types:
                        self._last.pop(typ, None)
            return
        for m in info.mentions:
            if kb is not None and self._describes_topic(m, kb):
                held = self._last[m.types[0]]
                self._last[m.types[0]] = (index, held[1], held[2])  # the topic stays current
                seen.add(m.types[0])
                continue
            for eid, typ in zip(m.candidates, m.types, strict=True):
                if typ in subject_types and typ not in seen:
                    seen.add(typ)
                    self._last[typ] = (index, m, eid)

    def _describes_topic(self, m: Mention, kb: KnowledgeBase) -> bool:
        """ "Sertraline / Zoloft — type of serotonin uptake inhibitor; maximum dose is 200 mg":
        a class name of the drug dictionary describes the drug that is the topic; it does not
        take the topic's place."""
        held = self._last.get(m.types[0]) if m.types else None
        return (
            held is not None
            and m.types[0] == "Drug"
            and is_class_mention(m, kb)
            and not is_class_mention(held[1], kb)
        )

    def recent(self, index: int, hit: tuple[Mention, str]) -> bool:
        """The hit was the topic of the previous sentence (or this one), quiet sentences of
        its paragraph between them not counted."""
        for i, m, _ in self._last.values():
            if m is hit[0]:
                gap = range(i + 1, index)
                return index - i <= 1 or (
                    index - i <= CONTEXT_WINDOW and all(k in self._quiet for k in gap)
                )
        return False

    def topics(self) -> set[str]:
        return {e for _, _, e in self._last.values()}

    def touch(self, index: int, entity_ids: set[str]) -> None:
        """These topics were referred to again: they stay current."""
        self._last = {
            t: ((index, m, e) if e in entity_ids else (i, m, e))
            for t, (i, m, e) in self._last.items()
        }

    def live_topics(self, index: int) -> set[str]:
        """The topics still within reach of a back-reference at ``index``; an "it" does not
        revive a topic left behind sections ago (an ECB rate named before "# The Fed's two
        emergency cuts in March 2020")."""
        return {e for i, _, e in self._last.values() if index - i <= CONTEXT_WINDOW}

    def recall(self, index: int, types: Iterable[str]) -> tuple[Mention, str] | None:
        """The most recent topic of one of ``types``; within a sentence, the first mention."""
        hits = [h for t in types if (h := self._last.get(t)) and index - h[0] <= CONTEXT_WINDOW]
        if not hits:
            return None
        best = min(hits, key=lambda h: (-h[0], h[1].start, h[2]))
        return best[1], best[2]


def claims_for_sentence(
    info: SentenceInfo,
    index: int,
    rules: list[CompiledRule],
    kb: KnowledgeBase,
    domain: str,
    memory: SubjectMemory,
) -> list[Claim]:
    out: list[Claim] = []
    all_subject_types = (
        frozenset().union(*(cr.subject_types for cr in rules)) if rules else frozenset()
    )
    names_a_subject = bool(info.mentions_of(all_subject_types))
    refers_back = bool(_BACK_REFERENCE.match(info.text))
    other_case = domain == "legal" and names_unlinked_case(info)
    if not (info.mentions or info.quantities or info.dates or info.frequencies):
        # nothing to bind: only a status claim about the running topic can be made ("Still
        # widely available over the counter."), or a frame that reads its own value ("The cut
        # took effect on September 18" under "### The three 2024 cuts")
        rules = [cr for cr in rules if cr.rule.applies_to.object in {"status", "none"}]
    for cr in rules:
        kind = cr.rule.applies_to.object
        if kind in {"citation", "identifier"}:
            continue  # built by the citation stage
        subjects = info.mentions_of(cr.subject_types)
        memory_hit = memory.recall(index, cr.subject_types)
        if memory_hit is not None and "Case" in cr.subject_types and other_case:
            memory_hit = None
        recalled = memory_hit if (refers_back or not names_a_subject) else None
        if recalled is not None and not refers_back and not memory.recent(index, recalled):
            recalled = None  # no "it"/"the drug": only the previous sentence's topic carries over
        from_context = cued_by_heading = False
        if (
            kind == "entity"
            and memory_hit is not None
            and cr.subject_types & cr.object_types
            and memory_hit[1] not in {eid for _, eid in subjects}
            and _pronoun_is_subject(info, subjects)
        ):
            # "Taking it with oxycodone ..." / "Don't take ibuprofen while you're on it":
            # the pronoun is the subject, every named entity an object
            subjects, from_context = [memory_hit], True
        elif (
            kind == "entity"
            and cr.rule.applies_to.relation == "interactsWith"
            and (topic := _interaction_topic(info, cr, subjects, kb)) is not None
        ):
            # "## Viagra (sildenafil) / ### Drugs you must not combine / - **Riociguat** is
            # also contraindicated": the heading's drug is one party, the line names the other
            subjects, from_context = [topic], True
            cued_by_heading = not _COMBINING.search(info.text)
        elif refers_back and recalled is not None and not _named_first(info, subjects):
            # "It has applied since 2019, replacing the Directive": "it" is the subject,
            # later mentions are complements
            subjects, from_context = [recalled, *subjects], True
        elif not subjects:
            if recalled is not None:
                subjects, from_context = [recalled], True
            elif kind == "frequency" and (topic := _heading_topic(info, cr.subject_types)):
                subjects, from_context = [topic], True  # "### Dosing" under "## Methotrexate"
            elif frame_builder(cr.rule.applies_to.relation, kind) is None:
                continue
        builder = frame_builder(cr.rule.applies_to.relation, kind)
        if builder is None and not (cued_by_heading or cr.has_cue(info.cue_text)):
            continue
        builder = builder or _BUILDERS.get(kind)
        if builder is None:
            continue
        for claim in builder(info, cr, subjects, kb, domain, from_context):
            if claim.qualifiers.pop("_from_context", None) or (
                from_context and claim.subject == subjects[0][1]
            ):
                claim.qualifiers["subject_from_context"] = "true"
            out.append(claim)
    from_memory = {c.subject for c in out if c.qualifiers.get("subject_from_context") and c.subject}
    if from_memory:
        memory.touch(index, from_memory)  # a sentence about the recalled topic keeps it current
    elif not names_a_subject and (refers_back or _PRONOUN.search(info.text)):
        memory.touch(
            index, memory.live_topics(index)
        )  # "In the US it's kept behind the counter.": same topic
    else:
        memory.remember(index, info, all_subject_types, kb)
        memory.pass_quietly(index, info)
    return _dedupe(out)


def _heading_topic(info: SentenceInfo, types: frozenset[str]) -> tuple[Mention, str] | None:
    """The one entity of ``types`` the nearest heading naming one is about."""
    for mentions in info.heading_mentions:
        found = [(m, eid) for m in mentions if (eid := m.of_type(types))]
        if found:
            return found[0] if len({e for _, e in found}) == 1 else None
    return None


# words that make a line or its heading about combining drugs ("Drug interactions", "Drugs
# you must not combine", "Medicines to avoid with it"); a line's own "with" or "safe" is too weak
_COMBINING = re.compile(
    r"(?<![\w-])(?:interact\w*|combin\w*|together|co-?administ\w*|concomitant\w*|mix\w*|"
    r"alongside|with\s+(?:it|this\s+(?:drug|medicine|medication)))(?![\w-])",
    re.I,
)
_COMBINING_HEADING = re.compile(
    r"(?<![\w-])(?:interact\w*|combin\w*|together|mix\w*|avoid\w*|contraindicat\w*|"
    r"(?:not|never|n't|n’t)\s+(?:to\s+)?(?:take|use|combine|mix)|other\s+(?:drugs|medicines|"
    r"medications)|(?:drugs|medicines|medications)\s+(?:to|that|you|not))(?![\w-])",
    re.I,
)
# what may stand between the names of one party: a list, examples of a class, brands,
# "in any form —" ("Nitrates in any form — nitroglycerin, isosorbide mononitrate or dinitrate")
_GROUP_WORDS = re.compile(
    r"(?:[\s,;/&*_\"“”'‘’()\[\]—–-]|\b(?:or|and|nor|and/or|like|such|as|including|e\.g|eg|"
    r"for|example|instance|in|any|form|forms|other|similar|especially|particularly|even|the|"
    r"all|some|most|certain|drugs?|medicines?|medications?)\b|\.)*",
    re.I,
)


_COMBINED_WITH = re.compile(
    r"\b(?:combin\w*|mix\w*|co-?administ\w*|taken|used|given)\s+with\s+(?:[*_]+)?"
    r"(?!it\b|them\b|this\b|other\b|another\b|any\b|the\s+drug|drugs|medicines)",
    re.I,
)
_ASIDES = re.compile(r"\([^()]*\)|[\"“][^\"“”]{1,30}[\"”]")


_ELIDED = re.compile(r"^(.*?\b(?:or|and|nor)\s+)([a-z][a-z-]{2,30})(\b.*)$", re.I | re.S)


def _one_party_gap(gap: str) -> bool:
    """The text between two names of one party: list words, examples, asides — and at most
    one elided list member right after "or"/"and" ("isosorbide mononitrate or dinitrate")."""
    gap = _ASIDES.sub(" ", gap)
    if _GROUP_WORDS.fullmatch(gap):
        return True
    m = _ELIDED.match(gap)
    return bool(m and _GROUP_WORDS.fullmatch(m.group(1)) and _GROUP_WORDS.fullmatch(m.group(3)))


def _interaction_topic(
    info: SentenceInfo, cr: CompiledRule, subjects: list[tuple[Mention, str]], kb: KnowledgeBase
) -> tuple[Mention, str] | None:
    """The heading's one drug as the first party of a line that names only the other party
    (one drug, or a class with its examples), when the line or its heading is about combining
    drugs. None when the line names two parties itself, a pronoun points elsewhere, the line
    is itself a heading or question, or the heading is a question or names no single drug (a
    class is not a topic: "**An interaction that does matter (for a different statin)**")."""
    if not subjects or not info.layout.assertive or _PRONOUN.search(info.text):
        return None
    heading = info.layout.headings[-1] if info.layout.headings else ""
    asks = next(
        (q for q, ms in zip(info.heading_questions, info.heading_mentions, strict=False)
         if any(m.of_type(cr.subject_types) for m in ms)),
        False,
    )  # fmt: skip
    if asks:
        return None  # "## Can my doctor add hydrochlorothiazide to Tikosyn?": it asks
    topic = _heading_topic(info, cr.subject_types)
    if topic is None or topic[1] in {eid for _, eid in subjects} or is_class_mention(topic[0], kb):
        return None
    if (w := _COMBINED_WITH.search(info.text)) and not any(
        m.start - info.sentence.start == w.end() for m, _ in subjects
    ):
        return None  # "varenicline or bupropion can be combined with counseling"
    base = info.sentence.start
    named = sorted((m for m, _ in subjects), key=lambda m: m.start)
    if not all(
        _one_party_gap(info.text[a.end - base : b.start - base])
        for a, b in itertools.pairwise(named)
    ):
        return None  # "Clarithromycin raises simvastatin levels": both parties are named
    if not (
        _COMBINING.search(info.text)
        or _COMBINING_HEADING.search(heading)
        or _COMBINING_HEADING.search(info.layout.list_header)
    ):
        return None
    return topic


def _pronoun_is_subject(info: SentenceInfo, subjects: list[tuple[Mention, str]]) -> bool:
    """A pronoun stands for one party and the entities named before it are one list:
    "Taking it with oxycodone", "Don't take ibuprofen, naproxen or aspirin while on it"."""
    pron = _PRONOUN.search(info.text)
    if pron is None or _EXPLETIVE.match(info.text[pron.start() :]):
        return False
    base = info.sentence.start
    named = sorted((m for m, _ in subjects), key=lambda m: m.start)
    before = [m for m in named if m.start - base < pron.start()]
    spans = before or [m for m in named if m.start - base - pron.end() < 60][:2]
    if len(spans) <= 1:
        return True
    between = [info.text[a.end - base : b.start - base] for a, b in itertools.pairwise(spans)]
    return all(_LIST_JOIN.fullmatch(t) for t in between)


def _named_first(info: SentenceInfo, subjects: list[tuple[Mention, str]]) -> bool:
    """The sentence names its subject before anything else ("This drug, ibuprofen, ...")."""
    return bool(subjects) and subjects[0][0].start - info.sentence.start <= 12


def _quantity_claims(info, cr, subjects, kb, domain, from_context):  # type: ignore[no-untyped-def]
    dims = set(cr.rule.applies_to.dimensions)
    units = set(cr.rule.applies_to.units)
    base = info.sentence.start
    qs = [
        q
        for q in info.quantities
        if (not dims or q.dimension in dims)
        and (not units or q.unit in units)
        and q.start not in info.change_quantities
        and not (q.dimension == "mass" and _DOSE_FORM_AFTER.match(info.text[q.end - base :]))
        and not (
            cr.ignore_near is not None
            and cr.ignore_near.search(info.text[max(0, q.start - base - 30) : q.end - base + 25])
        )
    ]
    out = []
    for q in qs:
        subj = subject_for(info, q.start, q.end, subjects, from_context)
        subj = specific_member(info, subj, subjects, kb, q.start)
        c = base_claim(info, cr, subj, kb, domain, format_quantity(q), None, q.start)
        c.quantity = q
        c.date = claim_date(info, q.start)
        if DENIED_VALUE.search(info.text, max(0, q.start - base - 30), q.start - base):
            c.negated = True  # "the maximum dose is not 8,000 mg"
        if cr.rule.applies_to.relation == "policyRate" and "direction" not in c.qualifiers:
            d = rate_direction(info.text)
            if d:
                c.qualifiers["direction"] = d
        out.append(c)
    return out


_DENIED_MOVE = re.compile(
    r"\b(?:did|does|do|has|have|had|will|would)\s*(?:not|n't|n’t)\s+(?:\w+\s+)?"
    r"(?:raise|hike|increase|lift|cut|lower|reduce|ease|tighten|change|move|touch)",
    re.I,
)


def _entity_claims(info, cr, subjects, kb, domain, from_context):  # type: ignore[no-untyped-def]
    if cr.rule.applies_to.relation == "overruledBy":
        return _overrule_claims(info, cr, subjects, kb, domain, from_context)
    objects = info.mentions_of(cr.object_types)
    if not objects and cr.rule.applies_to.relation == "fatfListed":
        objects = _list_referred_back(info, cr.object_types) or _list_of_heading(
            info, cr.object_types
        )
    if (
        from_context
        and cr.rule.applies_to.relation == "fatfListed"
        and (not _REFERS_BACK.search(info.text) or _LIST_AS_SUBJECT.search(info.text))
    ):
        # "No jurisdiction was added, so the grey list is down to 20 names": a sentence that
        # names no country and refers back to none says nothing of the last one named
        return []
    paired = not from_context and not (cr.subject_types & cr.object_types)
    out = []
    for om, oid in objects:
        # "Metformin treats diabetes and lisinopril treats hypertension": with several named
        # subjects of another type than the object, each object goes to its nearest subject
        # (and to the subjects listed with it: "ibuprofen and naproxen treat pain")
        hubs = _hubs_for(info, subjects, om) if paired else [subjects[0]]
        if cr.rule.applies_to.relation == "fatfListed":  # "..., and removed Mali and Chad."
            hubs += [h for h in subjects if h[0].start >= om.end and h not in hubs
                     and _verb_led_list(info, h[0])]  # fmt: skip
        for hub in hubs:
            c = _entity_claim(info, cr, hub, om, oid, objects, kb, domain)
            if c is None and not paired and not from_context:
                # "Aspirin prevents heart attacks, and aspirin should not be combined with
                # warfarin": the first drug's clause ends before the object; the party named
                # in the object's own clause is the hub there
                local = _local_hub(info, subjects, om, oid)
                if local is not None and local[0] is not hub[0]:
                    c = _entity_claim(info, cr, local, om, oid, objects, kb, domain)
            if c is not None:
                out.append(c)
    return out


def _heading_month(info: SentenceInfo) -> DateRef | None:
    """The one month-or-day date of the nearest heading that has a date."""
    for h in reversed(info.layout.headings):
        found = [d for d in find_dates(h) if d.role == "point" and d.precision in {"month", "day"}]
        if found:
            return found[0] if len({(d.first.year, d.first.month) for d in found}) == 1 else None
    return None


_REFERS_BACK = re.compile(
    r"\b(?:it|its|it's|they|their|them|both|each|(?:the|this|that|these|those)\s+(?:same\s+)?"
    r"(?:country|countries|jurisdictions?|nations?|states?))\b",
    re.I,
)
# "Nobody came off the list this time, so it now has 22 entries": "it" is the list itself
_LIST_AS_SUBJECT = re.compile(
    r"\b(?:it|the\s+(?:grey\s+|gray\s+|black\s+)?list)\s+(?:now\s+)?(?:has|had|holds|contains|"
    r"includes|lists|numbers|stands\s+at|is\s+down\s+to|is\s+up\s+to|grew|shrank)\s+"
    r"(?:to\s+)?(?:\d+|\w+)\s+(?:entries|names|jurisdictions|countries|members)\b",
    re.I,
)
_THIS_LIST = re.compile(r"\b(?:this|that|the\s+same|the)\s+list\b", re.I)


def _list_referred_back(info: SentenceInfo, types: frozenset[str]) -> list[tuple[Mention, str]]:
    """ "Two countries were added to this list; Kenya and Namibia": "this list" is the one
    list the sentence before (in the same paragraph) names."""
    said = _THIS_LIST.search(info.text)
    if said is None or not info.previous_text:
        return []
    lo = info.sentence.start - len(info.previous_text) - 3
    before = {
        eid: m
        for m in info.document_mentions
        if lo <= m.start and m.end <= info.sentence.start and (eid := m.of_type(types))
    }
    if len(before) != 1:
        return []
    ((eid, m),) = before.items()
    at = info.sentence.start + said.start()
    return [(Mention(at, at + len(said.group(0)), said.group(0), (eid,), m.types), eid)]


def _list_of_heading(info: SentenceInfo, types: frozenset[str]) -> list[tuple[Mention, str]]:
    """ "## FATF grey list in 2024 / ### February 2024 plenary / - **Added:** Kenya and
    Namibia": a list item labelled by a change of listing, under a heading that names one
    list, is a change of that list (the label stands for the list in the claim)."""
    lay = info.layout
    if lay.kind != "list_item" or lay.label_end is None:
        return []
    word = lay.label.strip(" *_:")
    if not _CHANGE_LABEL.fullmatch(word):
        return []
    for mentions in info.heading_mentions:
        named = {e: m for m in mentions if (e := m.of_type(types))}
        if len(named) > 1:
            return []
        if named:
            ((eid, m),) = named.items()
            at = info.sentence.start + info.text.rfind(word, 0, lay.label_end - info.sentence.start)
            return [(Mention(at, at + len(word), word, (eid,), m.types), eid)]
    return []


# a list item's label that states a change of listing: "Added", "Newly added", "Off the list"
_CHANGE_LABEL = re.compile(
    r"(?P<added>(?:newly\s+)?added|new\s+(?:additions?|entr(?:y|ies|ants?))|additions?)|"
    r"(?P<removed>removed|off\s+the\s+list|removals?|exits?|exited|delisted|came\s+off)",
    re.I,
)


def _local_hub(
    info: SentenceInfo, subjects: list[tuple[Mention, str]], om: Mention, oid: str
) -> tuple[Mention, str] | None:
    base = info.sentence.start
    a, b = clause_at(info.text, om.start - base)
    return next(
        (
            s
            for s in subjects
            if s[1] != oid and s[0].end <= om.start and a <= s[0].start - base < b
        ),
        None,
    )


def _hubs_for(
    info: SentenceInfo, subjects: list[tuple[Mention, str]], om: Mention
) -> list[tuple[Mention, str]]:
    base = info.sentence.start
    named = [
        s
        for s in subjects
        if (s[0].end <= om.start or s[0].start >= om.end)
        and _CLAUSE_INITIAL.search(info.text[: s[0].start - base])
    ]  # "Losartan is an ACE inhibitor used for ...": the class is a complement, not a subject
    if len({eid for _, eid in named}) < 2:
        return [subjects[0]]
    before = [s for s in named if s[0].end <= om.start]
    near = before[-1] if before else min(named, key=lambda s: s[0].start)
    hubs = [near]
    # widen over every subject, not only clause-initial ones: "removed Mali, Croatia and
    # Tanzania" (the first follows its verb)
    ordered = sorted(
        (s for s in subjects if s[0].end <= om.start or s[0].start >= om.end),
        key=lambda s: s[0].start,
    )
    i = ordered.index(near)
    for step in (-1, 1):  # widen to a plain list around the nearest subject
        j = i
        while 0 <= j + step < len(ordered):
            a, b = sorted((ordered[j], ordered[j + step]), key=lambda s: s[0].start)
            if not _LIST_GAP.fullmatch(info.text[a[0].end - base : b[0].start - base]):
                break
            j += step
            hubs.append(ordered[j])
    return sorted(hubs, key=lambda s: s[0].start)


_CLAUSE_INITIAL = re.compile(
    r"(?:^|[;:,.(–—]|\b(?:and|or|but|while|whereas|also|then)\b)[\s*_\-•]*"
    r"(?:(?:the|a|an|also|then|both|either)\s+)?$",
    re.I,
)
_LIST_GAP = re.compile(r"\s*(?:,\s*)?(?:(?:and|or|&|as well as)\s+)?(?:the\s+)?|\s*,\s*", re.I)


def _entity_claim(info, cr, hub, om, oid, objects, kb, domain):  # type: ignore[no-untyped-def]
    base = info.sentence.start
    hub_clause = clause_at(info.text, hub[0].start - base) if hub[0].start >= base else None
    if hub_clause is not None and (m := _APPOSITION.match(info.text, hub[0].end - base)):
        # "Mesalamine (Lialda) is used to treat ...": the name's clause goes on after its
        # parenthetical (another name, a class, an abbreviation)
        hub_clause = (hub_clause[0], clause_at(info.text, m.end())[1])
    if hub_clause is not None:
        hub_clause = _across_asides(info.text, hub_clause)
    if oid == hub[1] or (om.start == hub[0].start and om.end == hub[0].end):
        return None
    conditional = _conditional_party(info, cr, hub[0], om)
    if (
        hub_clause is not None
        and not hub_clause[0] <= om.start - base < hub_clause[1]
        and not _joined(info, hub[0], om)
        and not _is_header(info, hub[0])
        and not _elliptical(info, om, hub[0])
        and not conditional
        and not (
            cr.rule.applies_to.relation == "fatfListed"
            and om.end <= hub[0].start
            and _verb_led_list(info, hub[0])
        )  # "added X to its grey list, and removed Mali, Croatia and Tanzania"
    ):
        return None  # "Bulgaria uses the lev, although it aims to join the euro area in 2026"
    if _is_former(info, om, objects):
        return None  # "switched from the litas to the euro": the litas is not claimed current
    if cr.rule.applies_to.relation == "fatfListed" and any(
        e != oid and min(hub[0].end, om.end) <= m.start and m.end <= max(hub[0].start, om.start)
        for m, e in objects
    ):
        return None  # "added Kenya to its grey list ... and removed Jamaica from the black list"
    gap = info.text[hub[0].end - base : om.start - base]
    membership = (
        om.of_type(frozenset({"DrugClass"}))
        and (_COPULA_ARTICLE.fullmatch(gap) or _BELONGS.fullmatch(gap))
        and (not _RELATION_WORD.search(gap) or _CLASSED.search(gap) or _BELONGS.fullmatch(gap))
    )
    if membership:
        return None  # "Sertraline is an SSRI": class membership, not an interaction
    if hub[0].of_type(frozenset({"DrugClass"})) and _EXAMPLE_OF.fullmatch(gap):
        return None  # "Loop diuretics like furosemide": an example of the class
    # "You can safely take ibuprofen while on warfarin": the clause that says what is allowed
    # is the hub's; "while on warfarin" only names the other party
    anchor = hub[0].start if hub[0].end <= om.start and _WHILE_ON.search(gap) else om.start
    if conditional:
        anchor = max(hub[0].start, om.start)  # the main clause says what is allowed
    c = base_claim(
        info,
        cr,
        hub,
        kb,
        domain,
        oid,
        kb.entity(oid).label if kb.entity(oid) else om.text,
        anchor,
    )
    c.date = claim_date(info, om.start)
    if c.date is None and cr.rule.applies_to.relation == "fatfListed":
        # "### February 2024 plenary" / "- **Added:** Kenya and Namibia": the heading dates it
        c.date = _heading_month(info)
    if (
        (anchor != om.start or conditional)
        and not c.negated
        and "asserts" not in c.qualifiers
        and _MAY_TAKE.search(
            lead := info.text[clause_at(info.text, anchor - base)[0] : anchor - base]
        )
        and not _NEGATOR.search(lead)
    ):
        # "You can take acetaminophen while on warfarin", "If you take sildenafil, you can
        # take nitroglycerin": a permission to take both
        c.negated = True
        c.qualifiers["asserts"] = "absence"
    if (
        c.negated
        and cr.rule.applies_to.relation in _STATE_RELATIONS
        and hub[0].end <= om.start
        and not _NEGATOR.search(
            info.text[clause_at(info.text, hub[0].start - base)[0] : om.start - base]
        )
    ):
        c.negated = False  # "Myanmar is on the black list, not the grey list": "not" is the other's
    if cr.rule.applies_to.relation == "fatfListed":
        change = _list_change(info, hub[0], om)
        if change is not None:
            c.qualifiers["list_change"] = change
    if (
        c.frame is not None
        and cr.rule.applies_to.relation in _STATE_RELATIONS
        and _PROSPECTIVE.search(info.text[hub[0].end - base : om.start - base])
    ):
        c.frame.not_asserted = (
            "a state the subject is obliged or expected to reach, not one it is in"
        )
    return c


# "South Africa was removed from the grey list", "Kenya was added to the grey list": a change
# of listing, checked against the snapshots around its date, not membership
_LIST_CHANGE = {
    "removed": re.compile(
        r"\b(?:removed|delisted|de-listed|taken|came|come|dropped|struck|exited|graduated|"
        r"released)\s+(?:off|from|out\s+of)\b|\b(?:exited|left)\s+(?:the\s+)?$",
        re.I,
    ),
    "added": re.compile(
        r"\b(?:added|placed|put|moved|returned|re-?added)\s+(?:back\s+)?(?:on|onto|to)\b", re.I
    ),
}
# the change verb before the countries, its preposition right before the list: "FATF also
# removed Jamaica and Turkey from the grey list", "the plenary added Kenya and Namibia to it"
_CHANGE_VERB = {
    "removed": re.compile(
        r"\b(?:removed|removes|delisted|de-listed|took|taken|dropped|struck|released)\b", re.I
    ),
    "added": re.compile(r"\b(?:added|adds|placed|put|moved|returned|re-?added)\b", re.I),
}
_CHANGE_PREP = {
    "removed": re.compile(
        r"\b(?:off|from|out\s+of)\s+(?:the\s+|its\s+)?(?:FATF['’]?s?\s+)?[\"“‘']?$", re.I
    ),
    "added": re.compile(r"\b(?:on|onto|to)\s+(?:the\s+|its\s+)?(?:FATF['’]?s?\s+)?[\"“‘']?$", re.I),
}
# "... added Bolivia to its grey list, and removed Mali, Croatia and Tanzania.": the change verb
# right before a list of countries that closes the clause, the list named earlier
_VERB_BEFORE_LIST = {
    "removed": re.compile(r"\b(?:removed|removes|delisted|de-listed|dropped)\s+(?:the\s+)?$", re.I),
    "added": re.compile(r"\b(?:added|adds)\s+(?:the\s+)?$", re.I),
}
_CLOSES_CLAUSE = re.compile(r"[\s*_]*(?:[,.;]|$)")
# between the list and a country named after it, the countries are the ones changed only when
# no other predicate intervenes ("..., while Nigeria remains on it")
_OTHER_PREDICATE = re.compile(
    r"\b(?:remain\w*|is|are|was|were|stays?|stayed|still|while|but|whereas|although|"
    r"added|placed|removed|listed|kept|includ\w*|now)\b|[;.]",
    re.I,
)
_LIST_END = r"\s+(?:the\s+|its\s+)?(?:FATF['’]?s?\s+)?$"
_CHANGED_LIST = {  # "were removed from the", "was added to the": the change ends at the list
    "removed": re.compile(
        r"\b(?:removed|delisted|de-listed|taken|came|come|dropped|struck|exited|graduated|"
        r"released)\s+(?:off|from|out\s+of)" + _LIST_END,
        re.I,
    ),
    "added": re.compile(
        r"\b(?:added|placed|put|moved|returned|re-?added)\s+(?:back\s+)?(?:on|onto|to)" + _LIST_END,
        re.I,
    ),
}
_LIST_TAIL = re.compile(r"^[\s,]*(?:(?:and|&)\s+)?(?:the\s+)?$", re.I)


def _list_change(info: SentenceInfo, hub: Mention, om: Mention) -> str | None:
    """The change of listing a sentence states about a country (``removed`` / ``added``), or
    None when it states membership. Three shapes: the change between the country and the list
    ("South Africa was removed from the grey list"); the change verb before the country and its
    preposition before the list ("FATF removed Jamaica and Turkey from the grey list"); and the
    change stated of the list before the countries ("Four countries were removed from the grey
    list ... – Barbados, Gibraltar, Uganda and the UAE")."""
    base = info.sentence.start
    text = info.text
    if (
        info.layout.label_end is not None
        and om.end <= info.layout.label_end <= hub.start
        and (label := _CHANGE_LABEL.fullmatch(om.text))
    ):
        return "added" if label.group("added") else "removed"  # "- **Added:** Kenya"
    if hub.end <= om.start:
        between = text[hub.end - base : om.start - base]
        for change, pat in _LIST_CHANGE.items():
            if pat.search(between):
                return change
        first = _listed_with_hub(info, hub)[0]  # "added Bolivia and the British Virgin Islands"
        a, _ = clause_at(text, first.start - base)
        lead = text[max(a, first.start - base - 60) : hub.start - base]
        for change, prep in _CHANGE_PREP.items():
            if (
                prep.search(between)
                and _CHANGE_VERB[change].search(lead)
                and not (_OTHER_PREDICATE.search(between))
            ):
                return change
        return None
    before = text[max(0, om.start - base - 80) : om.start - base]
    after = text[om.end - base : hub.start - base]
    verb_led = _verb_led_list(info, hub)
    if verb_led is not None:
        return verb_led
    last = _listed_with_hub(info, hub)[1]
    if re.match(r"[\s*_]*;", after) and not text[last.end - base :].strip(" .*_\n"):
        after = after.replace(";", ":", 1)  # "were added to this list; Kenya and Namibia."
    if len(after) > 120 or _OTHER_PREDICATE.search(after):
        return None
    others = [m for m in info.mentions if om.end <= m.start < hub.start and m.types == hub.types]
    if others and not _LIST_TAIL.match(text[others[-1].end - base : hub.start - base]):
        return None  # not one list of countries after the list
    for change, pat in _CHANGED_LIST.items():
        if pat.search(before):
            return change
    return None


def _verb_led_list(info: SentenceInfo, hub: Mention) -> str | None:
    """The change of a country in a list led by a change verb and closing its clause ("and
    removed Mali, Croatia and Tanzania."), the list named before it."""
    base = info.sentence.start
    text = info.text
    first, last = _listed_with_hub(info, hub)
    if not _CLOSES_CLAUSE.match(text, last.end - base):
        return None
    lead = text[max(0, first.start - base - 30) : first.start - base]
    for change, pat in _VERB_BEFORE_LIST.items():
        if pat.search(lead):
            return change
    return None


def _listed_with_hub(info: SentenceInfo, hub: Mention) -> tuple[Mention, Mention]:
    """The first and last mention of the plain list ("A, B and the C") ``hub`` belongs to."""
    base = info.sentence.start
    text = info.text
    same = sorted((m for m in info.mentions if m.types == hub.types), key=lambda m: m.start)
    i = next((k for k, m in enumerate(same) if m.start == hub.start), None)
    if i is None:
        return hub, hub
    lo = hi = i
    while lo > 0 and _LIST_GAP.fullmatch(text, same[lo - 1].end - base, same[lo].start - base):
        lo -= 1
    while hi + 1 < len(same) and _LIST_GAP.fullmatch(
        text, same[hi].end - base, same[hi + 1].start - base
    ):
        hi += 1
    return same[lo], same[hi]


_NEGATOR = re.compile(r"\b(?:not|never|no\s+longer|neither|nor|none)\b|n't\b|n’t\b", re.I)
_STATE_RELATIONS = frozenset({"currency", "fatfListed"})  # a state a country is in at a date
# "Sweden ... are obliged to adopt the euro", "Bulgaria is due to switch to the euro", "X will
# join the euro area": an obligation, plan or prospect names a future object, not the current one
_PROSPECTIVE = re.compile(
    r"\b(?:(?:obliged|obligated|required|expected|due|set|scheduled|planning|plans?|aims?|aiming|"
    r"intends?|intending|committed|commits?|seeks?|seeking|hopes?|hoping|wants?|prepares?|"
    r"preparing|candidates?|bound|on\s+track)\s+to|will|shall|would|is\s+to|are\s+to)\s+"
    r"(?:[\w-]+\s+){0,2}?(?:adopt|join|switch|introduce|move|use|replace|become|enter)\w*\b",
    re.I,
)


def _across_asides(text: str, span: tuple[int, int]) -> tuple[int, int]:
    """ "Ibuprofen at OTC doses (up to 1,200 mg a day) is fine with warfarin": a parenthetical
    aside inside the hub's clause does not end it."""
    a, b = span
    for _ in range(3):
        close = text.find(")", b) if b < len(text) and text[b] == "(" else -1
        if close < 0 or close + 1 >= len(text) or not re.match(r"\s*\w", text[close + 1 :]):
            break
        b = clause_at(text, close + 1)[1]
    return a, b


_APPOSITION = re.compile(r"\s*\([^()\n]{1,60}\)\s*(?=\w)")
_HEADER_LEAD = re.compile(r"[\s\-*•#>]*(?:\d{1,2}[.)]\s*)?[\s*_]*")
_HEADER_TAIL = re.compile(r"[^:;.!?]{0,40}?[*_]*\s*:\s")


def _is_header(info: SentenceInfo, m: Mention) -> bool:
    """The mention is a list item's label ("3. **Aspirin**: ...", "- Ibuprofen (Advil):"):
    the topic of everything after the colon, whatever the clauses."""
    base = info.sentence.start
    start, end = m.start - base, m.end - base
    return bool(_HEADER_LEAD.fullmatch(info.text[:start]) and _HEADER_TAIL.match(info.text, end))


_EXAMPLE_OF = re.compile(
    r"[\s*_]*(?:,\s*|\(\s*)?(?:like|such\s+as|including|e\.g\.,?|for\s+example,?)[\s*_]*"
    r"(?:the\s+)?",
    re.I,
)
_COPULA_ARTICLE = re.compile(
    r"\s*(?:is|are|was|were|isn['’]t|aren['’]t|wasn['’]t)\s+(?:a|an|the)?\s*(?:[\w-]+\s+){0,2}",
    re.I,
)  # "is a long-acting nitrate", "isn't an SSRI"
# "is contraindicated with nitrates", "is used with MAOIs": a participle or a preposition
# before the class names a relation to it, not membership in it
_CLASSED = re.compile(  # "is grouped with the SSRIs", "is classed with nitrates": membership
    r"\b(?:grouped|classed|classified|categori[sz]ed|listed|counted|considered|known|regarded|"
    r"referred|related|similar|ranked|lumped)\b",
    re.I,
)
_BELONGS = re.compile(
    r"\s*(?:,\s*)?(?:belongs?\s+to|is\s+(?:one\s+of\s+the|part\s+of\s+the|classified\s+as|"
    r"categori[sz]ed\s+as|known\s+as)|falls?\s+under)\s+(?:(?:an?|the)\s+)?(?:(?:class|category|"
    r"group|family|type)\s+of\s+(?:drugs|medications|medicines|antidepressants)?\s*"
    r"(?:(?:called|known\s+as)\s+)?(?:the\s+)?)?[*_(]*",
    re.I,
)
_RELATION_WORD = re.compile(
    r"(?<!-)\b[a-z]+ed\b(?!-)|\b(?:with|alongside|together|to|by|and|or|plus)\b", re.I
)
_ELLIPTICAL = re.compile(
    r"^[\s,]*(?:and\s+|but\s+|so\s+)?(?:avoid|do\s+not|don'?t|never|not|no|should\s+not"
    r"|shouldn'?t|must\s+not)\b[^,;:]*$",
    re.I,
)
# "X is a long-acting nitrate, so it's safe to take with Y": "it" is the hub in a consequence
# ("so"), not in a concession ("although it's aiming to join the euro")
_SO_IT = re.compile(r"^\s*(?:it|it's|it’s)\b[^,;:]*$", re.I)
_SO_BEFORE = re.compile(r"\bso\s*$", re.I)


def _elliptical(info: SentenceInfo, om: Mention, hub: Mention) -> bool:
    """ "Clopidogrel 75 mg daily; avoid omeprazole": a subjectless imperative clause (or one
    whose subject is "it") right after the hub's clause continues the hub's topic."""
    base = info.sentence.start
    a, _ = clause_at(info.text, om.start - base)
    lead = info.text[a : om.start - base]
    gap = info.text[hub.end - base : a]
    return (
        hub.end - base <= a
        and len(gap) <= 60
        and bool(
            _ELLIPTICAL.match(lead)
            or (_SO_IT.match(lead) and _SO_BEFORE.search(gap))
            # "Loop diuretics like furosemide are the exception: they don't affect lithium"
            or (_PRONOUN_LEAD.match(lead) and _COLON_BEFORE.search(gap))
        )
        and not any(a <= m.start - base < om.start - base for m in info.mentions if m is not om)
    )


_PRONOUN_LEAD = re.compile(r"^\s*(?:it|they|these|both)\b[^,;:]*$", re.I)
_COLON_BEFORE = re.compile(r"[:;]\s*$")


def _conditional_party(info: SentenceInfo, cr: CompiledRule, hub: Mention, om: Mention) -> bool:
    """ "If you use apomorphine, ondansetron is not a problem as long as you space them": a
    condition naming one drug, then a main clause that allows the other (a denial or a
    mitigated permission) — one claim about the pair. A main clause that says anything else
    ("If you take warfarin, ibuprofen works well for pain") makes no claim of the pair."""
    if cr.rule.applies_to.relation != "interactsWith":
        return False
    base = info.sentence.start
    first, second = sorted((hub, om), key=lambda m: m.start)
    a1, _ = clause_at(info.text, first.start - base)
    if not _IF_USING.search(info.text[min(a1, _intro_start(info, first)) : first.start - base]):
        return False
    between = _ASIDE.sub(" ", info.text[first.end - base : second.start - base])
    if not _CONDITION_GAP.fullmatch(between):
        return False
    a2, b2 = clause_at(info.text, second.start - base)
    main = info.text[a2:b2]
    return cr.polarity(main) != "affirmed" or bool(
        _MAY_TAKE.search(info.text[a2 : second.start - base])
    )


def _intro_start(info: SentenceInfo, m: Mention) -> int:
    """Where the sentence-level clause holding ``m`` starts, read back past asides only."""
    text = info.text[: m.start - info.sentence.start]
    cut = max(text.rfind(c) for c in ",;.!?")
    colon = text.rfind(": ")
    return max(cut, colon) + 1


# "if you use", "if you only take", "when you're on", "if someone is taking": the condition
_IF_USING = re.compile(
    r"\b(?:if|when|whenever)\s+(?:you(?:'re|’re)?|your\s+\w+|someone|a\s+patient|patients|they)\s+"
    r"(?:\w+\s+){0,3}?(?:use|uses|using|take|takes|taking|are\s+on|is\s+on|on|need|needs|"
    r"have|has|been\s+prescribed|are\s+prescribed|are\s+given)\b[^,;:.!?]{0,60}$",
    re.I,
)
_ASIDE = re.compile(r"\([^()\n]{0,80}\)")
# the rest of the condition, its comma, and the main clause's lead up to the other drug
_CONDITION_GAP = re.compile(r"[^,;:.!?()]{0,80},[^,;:.!?()]{0,60}", re.S)


def _joined(info: SentenceInfo, a: Mention, b: Mention) -> bool:
    """Two mentions in one clause, or split only by a list ("with ibuprofen, naproxen or aspirin")."""
    base = info.sentence.start
    between = _WHILE_ON.sub(" with ", info.text[a.end - base : b.start - base])
    return len(between) <= 40 and not re.search(
        r"[;:]|\b(?:but|although|though|while|whereas|because)\b", between, re.I
    )


_MAY_TAKE = re.compile(
    r"\b(?:can|could|may)\s+(?:still\s+|usually\s+|generally\s+|also\s+|safely\s+)?(?:take|use|"
    r"have|continue(?:\s+taking)?|keep\s+taking)\s+(?:the\s+|your\s+|an?\s+)?$",
    re.I,
)
# "take ibuprofen while on warfarin", "while you're taking X": the two are taken together —
# "while" here joins, it does not contrast
_WHILE_ON = re.compile(
    r"\bwhile\s+(?:you(?:'re|’re|\s+are)\s+|also\s+|still\s+)?(?:also\s+)?(?:on|taking|using|"
    r"receiving|being\s+treated\s+with)\s*$",
    re.I,
)


def _is_former(info: SentenceInfo, om: Mention, objects: list[tuple[Mention, str]]) -> bool:
    base = info.sentence.start
    before = info.text[max(0, om.start - base - 12) : om.start - base].lower()
    later = [m for m, _ in objects if m.start > om.end]
    return bool(
        re.search(r"\b(?:from|replac\w*|instead of|formerly|previously)\s+(?:the\s+)?$", before)
    ) and bool(later)


def _overrule_claims(info, cr, subjects, kb, domain, from_context):  # type: ignore[no-untyped-def]
    """ "A was overruled by B" / "B overruled A (and C)" / "It overruled A": the overruled
    case is the subject, the overruling one the object."""
    base = info.sentence.start
    cue = next((m for m in _OVERRULE.finditer(info.text) if not _mentioned(info.text, m)), None)
    if cue is None:
        return []
    pos = base + cue.start()
    named = [s for s in info.mentions_of(cr.subject_types)]
    before = [s for s in named if s[0].end <= pos]
    after = [s for s in named if s[0].start >= base + cue.end()]
    stop = _CONTRAST.search(info.text, cue.end())
    if stop is not None:  # "overruled Roe's scheme but left Casey's test in place"
        after = [s for s in after if s[0].start < base + stop.start()]
    recalled = subjects[0] if from_context else None
    after_all = [s for s in info.mentions_of(cr.subject_types) if s[0].start >= base + cue.end()]
    pronoun_pair = (
        (recalled, after_all[0])
        if recalled is not None
        and after_all
        and _OVERRULED_IT_IN.match(info.text[cue.end() : after_all[0][0].start - base])
        else None
    )
    if recalled is not None and not _CASE_REFERENCE.search(
        info.text[_clause_start(info.text, cue.start()) : cue.start()]
    ):
        # "The Court has overturned Roe and Casey in its decision in the Dobbs case": the
        # pronoun after the verb is the Court's; a recalled case takes part only when the
        # overruling verb's own subject points back to it ("It was overruled by ...")
        recalled = None
    passive = bool(
        re.match(r"\w*\s+by\b", info.text[cue.start() : cue.start() + 20], re.I)
    ) or bool(
        re.search(
            # "was later / formally / expressly / in part overruled"
            r"\b(?:was|were|been|be|is|are)\s+(?:(?:\w+ly|later|since|then|now|in\s+part)\s+){0,2}$",
            info.text[max(0, cue.start() - 30) : cue.start()],
            re.I,
        )
    )
    out = []
    overruling_list: list = []  # type: ignore[type-arg]
    if passive:
        overruled = before or ([recalled] if recalled else [])
        overruling = after[:1]
        if overruling and not _BY_OR_IN.fullmatch(
            info.text, cue.end(), overruling[0][0].start - base
        ):
            overruling = []  # "Austin is overruled, along with McConnell": not the overruler
        pairs = [(a, overruling[0]) for a in overruled] if overruling else []
    else:
        overruling_list = _overruler(info, before, cue.start()) or ([recalled] if recalled else [])
        pairs = [(a, overruling_list[0]) for a in after] if overruling_list else []
        if not before and (split := _overruled_in(info, after)) is not None:
            # "the Court overturned Plessy v. Ferguson in Brown v. Board of Education"
            overruling_list = [after[split]]
            pairs = [(a, after[split]) for a in after[:split]]
    if pronoun_pair is not None:
        pairs, recalled = [pronoun_pair], pronoun_pair[0]
    if not pairs:
        out += _unnamed_overrulings(info, cr, kb, domain, cue, passive, before, after, recalled)
    for overruled_case, overruling_case in pairs:
        if overruled_case[1] == overruling_case[1]:
            continue
        c = base_claim(
            info,
            cr,
            overruled_case,
            kb,
            domain,
            overruling_case[1],
            _case_label(kb, overruling_case),
            pos,
        )
        if recalled is not None and recalled in (overruled_case, overruling_case):
            c.qualifiers["_from_context"] = "true"
        if c.frame is not None:
            c.frame.trigger = cue.group(0)
        lead = info.text[_clause_start(info.text, cue.start()) : cue.start()]
        if _DECLINED.search(lead):  # "Casey declined to overrule Roe": it was not overruled
            c.negated = True
        elif c.frame is not None and not c.frame.not_asserted and _ASKED.search(lead):
            c.frame.not_asserted = "a request, an argument or a possibility, not a holding"
        out.append(c)
    if not passive and stop is not None and overruling_list:
        out += _kept_claims(info, cr, named, kb, domain, stop, overruling_list[0], recalled)
    return out


# the overruling's contrast clause says a case survived it: "but left Casey's test in place",
# "while keeping Chevron intact", "but preserved Skidmore"
_KEPT = re.compile(
    r"(?:but|while|whereas|yet)?\s*"
    r"(?P<verb>left|leaving|kept|keeping|retained|retaining|preserved|preserving)\b",
    re.I,
)
_LEFT_STANDING = re.compile(
    r"\b(?:in\s+place|intact|standing|undisturbed|untouched|alone|unchanged|alive|"
    r"(?:still\s+)?good\s+law|in\s+force|in\s+effect)\b",
    re.I,
)


def _case_label(kb: KnowledgeBase, case: tuple[Mention, str]) -> str:
    ent = kb.entity(case[1])
    return ent.label if ent else case[0].text


def _kept_claims(info, cr, named, kb, domain, stop, overruler, recalled):  # type: ignore[no-untyped-def]
    """ "It overruled Roe's trimester scheme but left Casey's undue-burden test in place": the
    case the contrast clause keeps is said *not* to be overruled by the same decision (a denied
    overruledBy claim). "left"/"leaving" needs a word that says the case stands ("in place",
    "intact", "good law"); "kept", "retained", "preserved" say it themselves. A clause that
    names no case ("left the question to the states") claims nothing."""
    base = info.sentence.start
    verb = _KEPT.match(info.text, stop.start())
    if verb is None:
        return []
    nxt = _CONTRAST.search(info.text, verb.end())
    end = nxt.start() if nxt else len(info.text)
    word = verb.group("verb")
    if word.lower() in {"left", "leaving"} and not _LEFT_STANDING.search(
        info.text, verb.end(), end
    ):
        return []
    out = []
    for case in named:
        if not base + verb.end() <= case[0].start < base + end or case[1] == overruler[1]:
            continue
        c = base_claim(
            info,
            cr,
            case,
            kb,
            domain,
            overruler[1],
            _case_label(kb, overruler),
            base + verb.start(),
        )
        c.negated = True
        c.qualifiers["asserts"] = "absence"
        if c.frame is not None:
            c.frame.trigger = word
        if recalled is not None and recalled is overruler:
            c.qualifiers["_from_context"] = "true"
        out.append(c)
    return out


# the end of the overruling verb's own clause: a case after it is not overruled with the
# others ("overruled Roe's trimester scheme but left Casey's test in place")
_CONTRAST = re.compile(
    r";|\b(?:but|while|whereas|although|though|yet|except|leaving|left|kept|retained|preserved)\b",
    re.I,
)
# the agent of a passive overruling: "was overruled by Lawrence", "was overruled in 2003 in
# Lawrence v. Texas", "was overturned by the Court's decision in Dobbs"
_BY_OR_IN = re.compile(
    r"[\w\s]*?\b(?:by|in)\s+(?:the\s+|a\s+|its\s+)?(?:(?:Court|Supreme\s+Court)(?:'s|’s)\s+)?"
    r"(?:\d{4}\s+)?(?:landmark\s+)?(?:(?:decision|ruling|opinion|holding|case)\s+(?:in|of)\s+)?[*_]*",
    re.I,
)
_WORD_NAMED = re.compile(r"\b(?:word|term|phrase|verb|label|language)s?\s+[\"“'‘*_]*$", re.I)


def _mentioned(text: str, cue: re.Match[str]) -> bool:
    """The cue word is named, not used: 'never used the word "overrule"', '"overruled"'."""
    before, after = text[: cue.start()], text[cue.end() : cue.end() + 2]
    if _WORD_NAMED.search(before[-40:]):
        return True
    return bool(before) and before[-1] in "\"“'‘" and bool(after) and after[0] in "\"”'’,"


# "... <case> (1914) [to the states] and overruled": the verb is coordinated with an earlier
# one of the same clause
_COORDINATED_VERB = re.compile(
    r"[^;:]*?\b(?:and|but)\s+(?:then\s+|also\s+|thereby\s+|expressly\s+|explicitly\s+|"
    r"effectively\s+|formally\s+|in\s+effect\s+)?",
    re.I,
)
# the case is that earlier verb's object: a lowercase word (verb or preposition) right before
# it ("extended ... from Weeks", "applied Weeks"), not "the decision in Lawrence"
_OBJECT_LEAD = re.compile(
    r"(?<!decision )(?<!case )(?<!ruling )(?<!opinion )(?<!holding )\b[a-z]{2,}\s+(?:the\s+)?[*_]*$"
)


# "the Supreme Court overturned Roe v. Wade", "Roe v. Wade was overturned in 2022": an
# overruling whose overruling decision is not named — by the Court, or by no one the text names
_BY_THE_COURT = re.compile(
    r"(?:^|[\s,])(?:the\s+)?(?:U\.\s?S\.\s+|United\s+States\s+|US\s+)?(?:Supreme\s+)?Court"
    r"(?:'s|’s)?(?:\s+\w+){0,2}\s*$|\bthe\s+justices(?:\s+\w+){0,2}\s*$",
    re.I,
)
_BY_AGENT = re.compile(r"\s*(?:\w+\s+){0,3}?by\s+(?P<agent>[^,;.]{0,40})", re.I)
_COURT_AGENT = re.compile(
    r"^(?:the\s+)?(?:U\.\s?S\.\s+|United\s+States\s+)?(?:Supreme\s+)?Court\b|^the\s+justices\b",
    re.I,
)


_CASE_REFERENCE = re.compile(
    r"\b(?:it|(?:this|that|the|its)\s+(?:same\s+)?(?:case|decision|ruling|opinion|holding|"
    r"precedent))\b",
    re.I,
)
# "the Court overruled it in Lawrence v. Texas": the pronoun right after the verb is the
# overruled case, the case after "in" the overruling one
_OVERRULED_IT_IN = re.compile(
    r"\s+it\s+in\s+(?:the\s+|its\s+)?(?:(?:decision|ruling|case)\s+(?:in\s+|of\s+)?)?[*_]*$", re.I
)


def _unnamed_overrulings(info, cr, kb, domain, cue, passive, before, after, recalled):  # type: ignore[no-untyped-def]
    """Claims that a case was overruled (at the one date the sentence gives, if any) when the
    text names no overruling decision: "X was overturned in 2022" (a passive with no agent,
    or "by the Court"), "In 2022, the Supreme Court overturned X" (the Court as subject). Not
    for an agent that is not the Court ("by Congress", "by statute"), a recalled case, or a
    denied or non-asserted overruling (read by the caller)."""
    base = info.sentence.start
    text = info.text
    if recalled is not None:
        return []
    if passive:
        agent = _BY_AGENT.match(text, cue.end())
        if agent and not _COURT_AGENT.match(agent.group("agent").strip()):
            return []  # "overturned by Congress", "by the Civil Rights Act"
        # the case is the verb's subject: "X (1973) was overturned", "X, which was overturned"
        targets = [
            c
            for c in before[-1:]
            if _SUBJECT_GAP.fullmatch(_gap(info, c[0].end, base + cue.start()))
        ]
    else:
        lead = text[_clause_start(text, cue.start()) : cue.start()]
        if before or not _BY_THE_COURT.search(lead):
            return []
        # the case is the verb's object: "overturned Roe v. Wade", not "overturned Texas's ban
        # in Roe v. Wade" (the decision that did the overturning)
        targets = [
            c for c in after[:1] if _OBJECT_GAP.fullmatch(_gap(info, base + cue.end(), c[0].start))
        ]
    if not targets:
        return []
    day = _overruling_date(info, cue)
    if day is False:
        return []  # two dates: which one the overruling has is not said
    out = []
    for case in targets:
        c = base_claim(
            info, cr, case, kb, domain, None, "an overruling decision", base + cue.start()
        )
        c.qualifiers["overruler"] = "unnamed"
        if isinstance(day, DateRef):
            c.date = day
        if c.frame is not None:
            c.frame.trigger = cue.group(0)
        lead = text[_clause_start(text, cue.start()) : cue.start()]
        if _DECLINED.search(lead) or c.negated:
            continue  # "declined to overrule X", "X was never overturned": other rules' claims
        if c.frame is not None and not c.frame.not_asserted and _ASKED.search(lead):
            c.frame.not_asserted = "a request, an argument or a possibility, not a holding"
        out.append(c)
    return out


_SUBJECT_GAP = re.compile(
    r"[\s,*_]*(?:\([^()]{0,40}\)[\s,*_]*)?(?:which\s+|that\s+)?(?:was|were|has\s+been|had\s+been|"
    r"have\s+been|is|got)\s+(?:\w+ly\s+)?",
    re.I,
)
_OBJECT_GAP = re.compile(
    r"\s*(?:both\s+|the\s+|its\s+(?:own\s+)?|(?:an?\s+)?(?:earlier|prior)\s+)?(?:\d{4}\s+)?"
    r"(?:landmark\s+)?(?:(?:decision|ruling|precedent|case)\s+(?:in|of)\s+)?[*_]*",
    re.I,
)


def _gap(info: SentenceInfo, lo: int, hi: int) -> str:
    """The text between two offsets, with any case citation's reporter part taken out
    ("Roe v. Wade, 410 U.S. 113 (1973), was overturned")."""
    base = info.sentence.start
    out = info.text[lo - base : hi - base]
    for c in info.citations:
        if c.kind == "case" and c.start < hi and lo < c.end <= hi:
            out = info.text[c.end - base : hi - base]
    return out


def _overruling_date(info: SentenceInfo, cue: re.Match[str]) -> DateRef | bool | None:
    """The one date the sentence gives besides its citations' and case names' years (None:
    none; False: more than one)."""
    base = info.sentence.start
    cited = [(c.start, c.end) for c in info.citations if c.kind == "case"]
    named = [(m.start, m.end) for m in info.mentions if "Case" in m.types]
    found = []
    for d in info.dates:
        if d.role == "current" or any(a <= d.start and d.end <= b for a, b in cited):
            continue
        gap = [info.text[b - base : d.start - base] for a, b in named if b <= d.start]
        if d.text.lstrip().startswith("(") and gap and not gap[-1].strip(" *_"):
            continue  # "Roe v. Wade (1973)": the case's own year
        found.append(d)
    years = {(d.first, d.last) for d in found}
    if len(years) > 1:
        return False
    return found[0] if found else None


# the overruling verb is refused ("declined to overrule", "refused to overturn") or only asked
# for, argued or weighed ("asked the Court to overrule", "should overrule", "whether to
# overrule", "considered overruling"): no holding that the case was overruled
_DECLINED = re.compile(
    r"\b(?:declin\w*|refus\w*|reject\w*\s+(?:the\s+)?(?:calls?|requests?|invitations?|"
    r"arguments?|attempts?)\s+to|stopp\w*\s+short\s+of)\s+(?:to\s+)?(?:expressly\s+|"
    r"formally\s+|explicitly\s+)?[*_]*$",
    re.I,
)
_ASKED = re.compile(
    r"\b(?:ask\w*|urg\w*|invit\w*|petition\w*|sought|seek\w*|argu\w*|contend\w*|"
    r"should|would|could|may|might|whether|consider\w*|threaten\w*|propos\w*|call\w*\s+for|"
    r"wants?|want\w*|hop\w*|likely|poised|expected|if|unless|predict\w*|"
    r"could\s+have|push\w*|lobb\w*|campaign\w*)\b",
    re.I,
)


def _clause_start(text: str, at: int) -> int:
    """Where the sentence's clause holding ``at`` begins (after the last ';' or ':')."""
    return max(text.rfind(";", 0, at), text.rfind(":", 0, at)) + 1


# "overturned Plessy v. Ferguson in Brown v. Board of Education", "overruled Austin and part
# of McConnell in its decision in Citizens United": the case after "in" is the overruling one
_IN_CASE = re.compile(
    r"[\s*_]*(?:\(\d{4}\)[\s*_]*)?(?:\s+(?:rulings?|decisions?|cases|precedents?|holdings?))?"
    r",?\s+in\s+(?:the\s+|its\s+|a\s+)?(?:\d{4}\s+)?(?:landmark\s+)?"
    r"(?:(?:decision|ruling|opinion|case)\s+(?:in\s+|of\s+)?(?:the\s+)?)?[*_]*$",
    re.I,
)


def _overruled_in(info: SentenceInfo, after: list) -> int | None:  # type: ignore[type-arg]
    """Where the overruling case begins in "overruled A [and C] in B" (a sentence whose
    overruling verb has no case before it): the index of B, when the text right before B is
    "in" (or "in the decision in") after the other cases."""
    for j in range(1, len(after)):
        # "Austin, 494 U.S. 652 (1990), in Citizens United": the reporter part is left out
        if _IN_CASE.fullmatch(_gap(info, after[j - 1][0].end, after[j][0].start)):
            return j
    return None


def _overruler(info: SentenceInfo, before: list, cue: int) -> list:  # type: ignore[type-arg]
    """The overruling case of "B overruled A": the case named last before the verb, unless
    that case is the object of an earlier verb the overruling is coordinated with ("In
    Mapp, the Court extended Weeks and overruled Wolf"): then the first case named earlier
    in the clause (its subject), or none when the clause names no other."""
    if not before:
        return []
    base = info.sentence.start
    last = before[-1][0]
    lead = info.text[max(0, last.start - base - 40) : last.start - base]
    if not _COORDINATED_VERB.fullmatch(info.text, last.end - base, cue) or not (
        _OBJECT_LEAD.search(lead)
    ):
        return before[-1:]
    clause = info.text.rfind(";", 0, last.start - base)
    return [s for s in before[:-1] if s[0].start - base > clause][:1]


def _date_claims(info, cr, subjects, kb, domain, from_context):  # type: ignore[no-untyped-def]
    cited = [(c.start, c.end) for c in info.citations if c.kind == "case"]
    # a year inside a linked name is part of the name, not a date the sentence states:
    # "the Anti-Money Laundering Act of 2020 was adopted on 1 January 2021"
    cited += [(m.start, m.end) for m in info.mentions if m.candidates]
    base = info.sentence.start
    cues = [base + m.start() for m in cr.any_cue.finditer(info.text)] if cr.any_cue else []
    out = []
    decided = cr.rule.applies_to.relation == "decided"

    def dated(case, d):  # type: ignore[no-untyped-def]
        c = base_claim(info, cr, case, kb, domain, d.text, None, d.start)
        c.date = d
        return c

    dates = (
        sorted([*info.dates, *_bare_years(info)], key=lambda d: d.start) if decided else info.dates
    )
    for d in dates:
        if d.role == "current" or any(s <= d.start and d.end <= e for s, e in cited):
            continue
        if decided and (linked := _case_linked(info, d, subjects)) is not None:
            out.append(dated(linked, d))  # "the 1977 case, Abood", "since Abood in 1977", ...
            continue
        if cues and not _same_clause(info, d.start, cues):
            continue  # "adopted in June 2019 and compliance was required by June 2020"
        family = _date_family(info.text[max(0, d.start - base - 80) : d.start - base])
        if family is not None and family != cr.rule.applies_to.relation:
            continue  # "adopted ... applicable from 2014": the year is the application's
        if decided and _other_subject_clause(info, d, subjects):
            continue  # "Plessy (1896) upheld it; Brown rejected it in 1954": Brown's event
        if decided:
            named = _case_before_parenthesis(info, d, subjects)
            if named is None and family != "decided":
                continue  # "Reading Law 167 (2012)", "committed in 1998": not a decision year
            if named is not None and _OTHER_COURT_AFTER.match(info.text, d.end - base):
                continue  # "Baker v. Nelson (1971), a Minnesota Supreme Court case": not the
                # U.S. Supreme Court's decision the graph holds under that name
            if named is not None:
                out.append(dated(named, d))
                continue
        if (
            _PARTIAL_SCOPE.search(_parenthetical_around(info.text, d.start - base))
            or _partial_after(info.text, d.end - base)
            or _partial_before(info.text, d.start - base)
        ):
            continue  # "(titles on asset-referenced tokens from 30 June 2024)": a partial date
        paired = _paired_subject(info, d, subjects)
        if paired is False:
            continue  # a list of dates after a list of names the graph does not all know
        subj = paired or subject_for(info, d.start, d.end, subjects, from_context)
        if from_context and _other_jurisdiction(info.text, kb, subj[1]):
            continue  # "The SEC adopted the rule on 5 June 2019" after a row about MiCA
        c = base_claim(
            info,
            cr,
            subj,
            kb,
            domain,
            d.first.isoformat() if d.precision == "day" else d.text,
            None,
            d.start,
        )
        c.date = d
        out.append(c)
    return out


_DATE_FAMILIES = {
    "adopted": r"\b(?:adopt\w*|enact\w*|sign\w*(?:\s+into\s+law)?|passed|finali[sz]ed)\b",
    "applicationDate": r"\b(?:appl(?:y|ies|ied|icable|ication)|(?:entry|entered|enters|came|come|comes)\s+"
    r"(?:fully\s+)?into\s+(?:full\s+)?(?:force|effect)|in\s+force|took\s+effect|takes\s+effect|effective|enforce\w*|"
    r"compliance|phase[sd]?\s+in)\b",
    "decided": r"\b(?:decided|decision|ruled|handed\s+down|came\s+down|opinion\s+(?:issued|came)|struck\s+down|"
    r"upheld|invalidated|established|recognized|announced)\b",
    "overruled": r"\b(?:overrul\w+|overturn\w+|abrogat\w+|reversed)\b",
    "other_event": r"\b(?:committed|enacted|amended|published|born|died|filed|argued|written)\b",
}
_DATE_FAMILY_RE = re.compile("|".join(f"(?P<{k}>{v})" for k, v in _DATE_FAMILIES.items()), re.I)
_PARTIAL_SCOPE = re.compile(
    r"\b(?:titles?|articles?|provisions?|parts?|chapters?|sections?|certain|some|most|remaining)\b",
    re.I,
)


# an apposition right after "<case> (<year>)" that makes it another court's decision: "a
# Minnesota Supreme Court case", "decided by the Ninth Circuit", "a state-court ruling"
_OTHER_COURT = (
    r"(?!(?:U\.\s?S\.|US|United\s+States|[Ff]ederal|[Hh]igh)\s+[Ss]upreme\b)(?![Ss]upreme\b|[Hh]igh\b)"
    r"(?:(?:[A-Z][\w.]*|state|appellate|appeals|federal|district|circuit|trial|lower|"
    r"intermediate|supreme)[\s-]+){1,4}(?:court|Court|Circuit|Tribunal)(?:\s+of\s+(?:Criminal\s+)?Appeals)?"
)
_OTHER_COURT_AFTER = re.compile(
    rf"\s*\)?[\s*_]*,?\s+(?:(?:a|an|the)\s+{_OTHER_COURT}(?:'s|’s)?\s+"
    r"(?:case|decision|ruling|opinion|judgment|holding)\b|(?:decided|handed\s+down|ruled\s+on)"
    rf"\s+by\s+(?:the|a|an)\s+{_OTHER_COURT})"
)


def _case_before_parenthesis(info: SentenceInfo, d, subjects):  # type: ignore[no-untyped-def]
    """ "Roe v. Wade (1973)": a year in parentheses right after a case's name."""
    base = info.sentence.start
    if not re.match(r"\(\s*\d{4}\s*\)", info.text[d.start - base : d.end - base + 2]) and not (
        d.start - base > 0 and info.text[d.start - base - 1] == "("
    ):
        return None
    for m, eid in subjects:
        if m.start < base or m.end > d.start:
            continue  # a case recalled from an earlier sentence is not "right before" the year
        if re.fullmatch(r"[\s*_,]*\(?", info.text[m.end - base : d.start - base]):
            return m, eid
    return None


# how a date names a case's decision without a verb before it (the verb-led and "(1973)"
# forms are read above). Each link is syntactic: the year modifies the decision noun next to
# the case's name, or is the sentence's leading date of a clause whose verb is a decision's.
_DECISION_NOUN = r"(?:case|decision|ruling|opinion|judgment)"
# "the 1977 case, Abood", "In the 2018 case of Janus", "The famous 1966 Supreme Court case
# of Miranda": <determiner> <year> [up to three modifiers] <noun> [of|in|,] <case>
_YEAR_BEFORE_NOUN = re.compile(
    r"(?:\b(?:the|a|an|its|their|this|that)|[Cc]ourt(?:'s|’s))\s+(?:[a-z]+\s+)?$", re.I
)
_NOUN_THEN_CASE = re.compile(
    rf"\s+(?:(?!{_DECISION_NOUN}\b)[\w.-]+\s+){{0,3}}?{_DECISION_NOUN}(?:\s+of|\s+in|\s*,)?\s*[*_]*$",
    re.I,
)
# "Bowers v. Hardwick, a 1986 case": <case>, <determiner> <year> [modifiers] <noun>
# ... or a copula: "Gideon v. Wainwright was a 1963 case"
_CASE_COMMA_DET = re.compile(r"[*_]*\s*(?:,\s+|\s+(?:was|is|remains)\s+)(?:a|an|the|its)\s+$", re.I)
_NOUN_AFTER_YEAR = re.compile(
    rf"\s+(?:(?!{_DECISION_NOUN}\b)[\w.-]+\s+){{0,3}}?{_DECISION_NOUN}\b", re.I
)
# "since Abood v. Detroit Board of Education in 1977", "in Twombly in 2007": the case is the
# object of a preposition of time or authority ("reaffirmed Roe in 1992", "relied on Roe in
# 1992" are other events and stay unread)
_LIST_ITEM_LEAD = re.compile(r"(?:[,:;]|\band)\s*[*_]*$", re.I)
_DECISIONS_NOUN = re.compile(r"\b(?:decisions|cases|rulings|opinions)\b", re.I)
_PREP_BEFORE_CASE = re.compile(
    r"\b(?:since|in|after|before|until|following)\s+(?:the\s+)?[*_]*$", re.I
)
# "On June 13, 1966, the Supreme Court decided ... Miranda", "In 1842, the Supreme Court held
# in Swift v. Tyson": the sentence opens with the date; the first case of its clause is the
# decision when the words up to just after that case hold a decision verb and no overruling
_LEADING_DATE = re.compile(r"^\W*(?:(?:On|In|By)\s+)?$", re.I)
_DECISION_VERB = re.compile(
    r"\b(?:decided|held|ruled|handed\s+down|issued|announced|found|upheld|struck\s+down|"
    r"established|recognized|decision|ruling|opinion)\b",
    re.I,
)
_OVERRULING = re.compile(_DATE_FAMILIES["overruled"], re.I)
# another court decided it: "In 2019, the Ninth Circuit held in ...", "the Minnesota Supreme
# Court ruled in ..."
_LOWER_COURT = re.compile(
    r"\b(?:Circuit|Court\s+of\s+(?:Criminal\s+)?Appeals|[Dd]istrict\s+[Cc]ourt|[Aa]ppellate|"
    r"[Tt]rial\s+court|[Ss]tate\s+(?:[Ss]upreme\s+|high\s+)?[Cc]ourt|"
    r"(?!(?:The|the|United|States|U|US|Federal|High|Our|This|That)\b)[A-Z][a-z]+\s+Supreme\s+Court)"
)


_BARE_YEAR = re.compile(r"(?<![\w$€£.,/-])(?:1[6-9]\d\d|20\d\d)(?![\w%/-]|[.,]\d)")


def _bare_years(info: SentenceInfo) -> list[DateRef]:
    """Years that :func:`find_dates` leaves alone (no preposition or parentheses) where they
    modify a decision noun: "the 1977 case", "a 1986 decision" — decision years only."""
    base = info.sentence.start
    out = []
    for m in _BARE_YEAR.finditer(info.text):
        if not _YEAR_BEFORE_NOUN.search(info.text[max(0, m.start() - 30) : m.start()]):
            continue
        if not _NOUN_AFTER_YEAR.match(info.text, m.end()):
            continue
        if any(d.start <= base + m.start() < d.end for d in info.dates):
            continue
        y = int(m.group(0))
        out.append(
            DateRef(
                base + m.start(), base + m.end(), m.group(0), date(y, 1, 1), date(y, 12, 31), "year"
            )
        )
    return out


def _case_linked(info: SentenceInfo, d, subjects):  # type: ignore[no-untyped-def]
    """The case whose decision ``d`` dates by the syntax around it (see the patterns above),
    or None. Each form needs the case's name right at the link: a year near a case is not
    its decision year otherwise ("Casey reaffirmed Roe in 1992")."""
    base = info.sentence.start
    text = info.text
    ds, de = d.start - base, d.end - base
    own = [(m, eid) for m, eid in subjects if m.start >= base and m.end <= base + len(text)]
    if d.precision == "year" and _YEAR_BEFORE_NOUN.search(text[max(0, ds - 30) : ds]):
        for m, eid in own:
            if m.start - base > de and _NOUN_THEN_CASE.fullmatch(text[de : m.start - base]):
                return m, eid
    if d.precision == "year" and _NOUN_AFTER_YEAR.match(text, de):
        lead = text[:ds]
        for m, eid in own:
            if m.end - base < ds and _CASE_COMMA_DET.fullmatch(lead[m.end - base :]):
                return m, eid
    if d.text[:3].lower() == "in ":  # "in 1977": find_dates keeps the preposition
        for m, eid in own:
            if m.end - base <= ds and re.fullmatch(r"[*_]*\s*", text[m.end - base : ds]):
                lead = text[max(0, m.start - base - 16) : m.start - base]
                if _PREP_BEFORE_CASE.search(lead) or (
                    # "a pair of decisions, Bell Atlantic v. Twombly in 2007 and Ashcroft v.
                    # Iqbal in 2009": items of a list the sentence calls decisions
                    _LIST_ITEM_LEAD.search(lead) and _DECISIONS_NOUN.search(text[: m.start - base])
                ):
                    return m, eid
    if _LEADING_DATE.match(text[:ds]) and re.match(r"\s*,", text[de:]):
        after = [(m, eid) for m, eid in own if m.start - base > de]
        if after:
            m, eid = min(after, key=lambda x: x[0].start)
            clause_end = text.find(";", de)
            if clause_end < 0 or m.start - base < clause_end:
                window = text[de : m.end - base + 30]
                between = text[de : m.start - base]
                if (
                    _DECISION_VERB.search(window)
                    and not _OVERRULING.search(text[de:])
                    and not _LOWER_COURT.search(between)
                ):
                    return m, eid
    return None


_OWN_SUBJECT = re.compile(
    r"^[\s;,:*_]*(?:(?:and|but|while|whereas)\s+)?(?:the\s+)?[A-Z][\w.'’-]*(?:\s+[A-Z][\w.'’-]*)*"
    r"(?:\s+(?:v\.?|vs\.?)\s+[A-Z][\w.'’-]*(?:\s+[A-Z][\w.'’-]*)*)?\s+[a-z]"
)


def _other_subject_clause(info: SentenceInfo, d: DateRef, subjects) -> bool:  # type: ignore[no-untyped-def]
    """The date's clause names none of the sentence's cases and opens with a subject of its
    own (a capitalised name, not a pronoun): "...; Brown rejected it in 1954"."""
    base = info.sentence.start
    a, b = clause_at(info.text, d.start - base)
    if any(a <= m.start - base < b for m, _ in subjects):
        return False
    lead = info.text[a : d.start - base]
    return bool(_OWN_SUBJECT.match(lead)) and not re.match(
        r"^[\s;,:*_]*(?:(?:and|but)\s+)?(?:it|they|this|that|the\s+(?:(?:Supreme\s+)?Court|"
        r"justices|decision|case|ruling|opinion))\b",
        lead,
        re.I,
    )


def _date_family(lead: str) -> str | None:
    """Which kind of date the closest date verb before a date makes it."""
    last = None
    for m in _DATE_FAMILY_RE.finditer(lead):
        last = m
    return last.lastgroup if last is not None else None


_SCOPE_AFTER = re.compile(r"\s*(?:\(([^()]{1,60})\)|for\s+([^,;.()]{1,60}))")
_REST = re.compile(r"\b(?:rest|remainder|everything\s+else|all\s+other|other\s+provisions)\b", re.I)


_LISTED_BEFORE = re.compile(r"(?:[*_][^*_]{2,60}[*_]|[A-Z][\w.'’]+)[\s*_]*(?:,|\band\b)[\s*_]*$")
_DATE_LIST_GAP = re.compile(r"\s*(?:,\s*(?:and\s+)?|\s(?:and|or)\s)\s*(?:in\s+|on\s+)?", re.I)
_NAME_LIST_GAP = re.compile(r"[\s*_]*(?:,\s*(?:and\s+)?|\s(?:and|or)\s)[\s*_]*", re.I)


def _paired_subject(info: SentenceInfo, d: DateRef, subjects):  # type: ignore[no-untyped-def]
    """ "*Bowers* and *Lawrence* were decided in 1986 and 2003": as many years in one list as
    subjects in one list before them pair in order. False when the names before the list are
    more than the graph knows (whose year is which cannot be told); None when there is no list."""
    base = info.sentence.start
    text = info.text
    years = list(_YEAR_TOKEN.finditer(text))
    at = next((k for k, y in enumerate(years) if d.start - base <= y.start() < d.end - base), None)
    if at is None:
        return None
    lo = hi = at
    while lo > 0 and _DATE_LIST_GAP.fullmatch(text, years[lo - 1].end(), years[lo].start()):
        lo -= 1
    while hi + 1 < len(years) and _DATE_LIST_GAP.fullmatch(
        text, years[hi].end(), years[hi + 1].start()
    ):
        hi += 1
    n = hi - lo + 1
    if n < 2:
        return None
    named = sorted((s for s in subjects if s[0].start >= base and s[0].end - base <= years[lo].start()),
                   key=lambda s: s[0].start)  # fmt: skip
    for k in range(len(named) - n, -1, -1):
        group = named[k : k + n]
        if len({e for _, e in group}) == n and all(
            _NAME_LIST_GAP.fullmatch(text, a[0].end - base, b[0].start - base)
            for a, b in itertools.pairwise(group)
        ):
            return group[at - lo]
    if named and _LISTED_BEFORE.search(text, 0, named[-1][0].start - base):
        return False  # "*United States v. Windsor* and *Obergefell*": whose year is which?
    return None


_AUTHORITIES = {
    "US": re.compile(
        r"\b(?:SEC|CFTC|FinCEN|FINRA|OCC|FDIC|Federal\s+Reserve|the\s+Fed|Congress|"
        r"Treasury|IRS)\b"
    ),
    "EU": re.compile(
        r"\b(?:European\s+(?:Commission|Parliament)|Council\s+of\s+the\s+EU|ESMA|EBA|"
        r"EIOPA|ECB|AMLA)\b"
    ),
}


def _other_jurisdiction(text: str, kb: KnowledgeBase, eid: str) -> bool:
    """A recalled act of one jurisdiction, in a sentence whose actor is another's authority."""
    ent = kb.entity(eid)
    own = str((ent.attrs or {}).get("jurisdiction", "")) if ent is not None else ""
    return bool(own) and any(
        place != own and pat.search(text) and not _AUTHORITIES.get(own, pat).search(text)
        for place, pat in _AUTHORITIES.items()
    )


_YEAR_TOKEN = re.compile(r"(?<!\d)(?:1[789]|20)\d\d(?!\d)")


def _partial_after(text: str, end: int) -> bool:
    """ "30 June 2024 (stablecoin titles)", "30 June 2024 for titles III-IV": the date's own
    scope, written right after it, is part of the act; "(rest)" or "for the rest" is the act's
    general date."""
    m = _SCOPE_AFTER.match(text, end)
    if m is None:
        return False
    scope = m.group(1) or m.group(2) or ""
    return bool(_PARTIAL_SCOPE.search(scope)) and not _REST.search(scope)


# "MiCA's provisions on stablecoins applied from 30 June 2024": the subject of the date's
# clause is a part of the act
_PART_SUBJECT = re.compile(
    r"\b(?:titles?|articles?|provisions?|parts?|chapters?|sections?|rules?|requirements?|"
    r"obligations?)\s+(?:on|for|covering|governing|about|relating\s+to|concerning|of\s+"
    r"(?:title|part|chapter))\b[^,;]*$",
    re.I,
)


def _partial_before(text: str, start: int) -> bool:
    a, _ = clause_at(text, start)
    # the clause, or the sentence's subject before its verb when an aside cut the clause ("The
    # rules on asset-referenced tokens (Titles III and IV) applied from 30 June 2024")
    subject = re.split(r"[.;:!?]\s|\*\*", text[:start])[-1]
    return any(
        bool(_PART_SUBJECT.search(lead)) and not _REST.search(lead)
        for lead in (text[a:start], subject)
    )


def _parenthetical_around(text: str, pos: int) -> str:
    open_at = text.rfind("(", 0, pos)
    if open_at < 0 or text.rfind(")", 0, pos) > open_at:
        return ""
    close = text.find(")", pos)
    return text[open_at : close if close > 0 else len(text)]


def _same_clause(info: SentenceInfo, pos: int, cue_positions: list[int]) -> bool:
    """A date belongs to the cue in its clause (or to the one just before it)."""
    base = info.sentence.start
    a, b = clause_at(info.text, pos - base)
    if any(a <= c - base < b for c in cue_positions):
        return True
    preceding = [c for c in cue_positions if c < pos]
    return bool(preceding) and not _CLAUSE_JOIN.search(
        info.text[max(preceding) - base : pos - base]
    )


def _frequency_claims(info, cr, subjects, kb, domain, from_context):  # type: ignore[no-untyped-def]
    out = []
    for f in info.frequencies:
        subj = subject_for(info, f.start, f.end, subjects, from_context)
        if not kb.facts_about(subj[1], cr.rule.applies_to.relation or ""):
            # the rule checks labelled schedules with a classic error (weekly methotrexate);
            # "200 mg daily" of a drug without one is a dose period, not a schedule claim
            continue
        c = base_claim(info, cr, subj, kb, domain, f.canonical, None, f.start)
        c.qualifiers["frequency_period"] = f.period
        said = info.text[f.start - info.sentence.start : f.end - info.sentence.start]
        if f.canonical == "daily" and not _COUNTED.search(said):
            c.qualifiers["count"] = "unstated"  # "a daily medication", "every day"
        # only a negation right before the schedule denies it ("once a week, never every day")
        c.negated = bool(_DENIED_SCHEDULE.search(info.text[: f.start - info.sentence.start]))
        dose = _dose_before(info, f.start)
        if dose is not None:
            c.qualifiers["dose_mg"] = f"{dose:g}"  # "one 70 mg tablet every day"
        conds = [eid for _, eid in info.mentions_of(frozenset({"Condition"}))]
        if conds:
            c.qualifiers["conditions"] = "|".join(conds)
        out.append(c)
    return out


_COUNTED = re.compile(r"\b(?:once|one\s+time|1\s*x|single|q\.?d\.?)\b", re.I)
_DENIED_SCHEDULE = re.compile(
    r"\b(?:not|never|no|rather\s+than|instead\s+of)\s+(?:\w+\s+)?[*_]*$|n't\s+(?:\w+\s+)?$", re.I
)


def _dose_before(info: SentenceInfo, pos: int) -> float | None:
    """The amount a schedule is given for: a mass right before it in the same clause."""
    base = info.sentence.start
    a, _ = clause_at(info.text, pos - base)
    # the quantity may run over the schedule ("70 mg once daily" is read as 70 mg per day)
    near = [q for q in info.quantities if q.dimension == "mass" and a <= q.start - base
            and q.start < pos and pos - q.end <= 40 and q.value_max is None]  # fmt: skip
    return near[-1].value if near else None


def _status_claims(info, cr, subjects, kb, domain, from_context):  # type: ignore[no-untyped-def]
    m = cr.cue_match(info.cue_text)
    anchor = info.sentence.start + (m.start() if m and not info.header else 0)
    subj = subject_for(info, anchor, anchor, subjects, from_context)
    c = base_claim(info, cr, subj, kb, domain, m.group(0).lower() if m else None, None, anchor)
    c.date = claim_date(info, anchor)
    return [c]


def _literal_claims(info, cr, subjects, kb, domain, from_context):  # type: ignore[no-untyped-def]
    """ "the CRR, Regulation (EU) No 575/2013": an identifier in apposition with a named
    regulation. An identifier the graph does not know is not judged; one that belongs to a
    known regulation is a claim about the name it is put next to."""
    out = []
    base = info.sentence.start
    relation = cr.rule.applies_to.relation or ""
    for ref in (c for c in info.citations if c.kind == "regulation"):
        if _ANOTHER_ACT.search(info.text[max(0, ref.start - base - 40) : ref.start - base]):
            continue  # "... and repealing Directive 95/46/EC": the identifier of another act
        owner = _identifier_owner(kb, relation, ref.section or ref.text)
        named = [s for s in (_before(x, ref.start) for x in subjects)
                 if not (s[0].start < ref.end and ref.start < s[0].end)
                 and _in_apposition(info, s[0], ref.start - base, ref.end - base,
                                    tight=owner is None)]  # fmt: skip
        if not named:
            continue  # no name next to the identifier: nothing is claimed about it
        subj = min(named, key=lambda s: abs(s[0].start - ref.start))
        c = base_claim(info, cr, subj, kb, domain, ref.section, None, ref.start)
        c.citation = ref
        out.append(c)
    return out


# an identifier right after a verb of one act acting on another ("and repealing Directive
# 95/46/EC", "amending Regulation (EU) No 1093/2010", "which replaced Directive 2004/39/EC")
# names the act acted on, not the one the sentence is about
_ANOTHER_ACT = re.compile(
    r"\b(?:repeal\w*|amend\w*|replac\w*|supersed\w*|supplement\w*|implement\w*|"
    r"transpos\w*|modif\w*|correct\w*|recast\w*|derogat\w*|pursuant\s+to|under|"
    r"(?:laid\s+down|provided\s+for|referred\s+to)\s+in)\s+(?:by\s+)?(?:the\s+)?(?:Council\s+)?"
    r"[*_]*$",
    re.I,
)


def _before(s: tuple[Mention, str], at: int) -> tuple[Mention, str]:
    """A fuzzy mention that ran on into the identifier ("Corporate Transparency Act (Pub.")
    cut back to the name before it."""
    m = s[0]
    if m.fuzzy_score is None or not m.start < at < m.end:
        return s
    end = m.start + len(m.text[: at - m.start].rstrip(" (,"))
    return replace(m, end=end, text=m.text[: end - m.start]), s[1]


_APPOSED = re.compile(
    r"^[\s*_]*(?:,|\(|—|–|-|:|\||is|was|=)?[\s*_]*(?:the\s+|i\.e\.\s+)?[\s*_]*$", re.I
)


def _one_act(info: SentenceInfo) -> bool:
    """The line names one act only."""
    return len({x for m in info.mentions if (x := m.of_type(_ACT))}) == 1


_ACT = frozenset({"Regulation"})


def _in_apposition(
    info: SentenceInfo, m: Mention, ref_start: int, ref_end: int, *, tight: bool = False
) -> bool:
    """The name is right before the identifier ("the CRR, Regulation ..."), right after it in
    parentheses, or in the same table row. An identifier the graph does not know is judged
    only in a name's own parenthesis ("the GDPR (Regulation (EU) 2016/678)")."""
    base = info.sentence.start
    s, e = m.start - base, m.end - base
    if re.match(r"\s+(?:I{1,3}|IV|VI{0,3}|\d)\b", info.text[e : e + 5]):
        return False  # "Capital Requirements Regulation III": a longer name than the one linked
    lay = info.layout
    if tight:
        own = lay.cell_index(m.start) if lay.kind == "table_row" else None
        if own is not None and (own == 0 or _one_act(info)):
            # "| MiCA | Regulation (EU) 2023/1114 |", "| Fund managers | AIFMD | Directive
            # 2011/16/EU |": a cell that is the identifier alone, in the row of one act
            cell = lay.cell_index(ref_start + base)
            if cell is not None and cell != own:
                a, b = lay.cells[cell]
                return (
                    info.text[a - base : b - base].strip(" *_|")
                    == info.text[ref_start:ref_end].strip()
                )
        # "the SFDR (Regulation ...)", "SFDR = Regulation ...", "**SFDR** — Regulation ...",
        # "AIFMD is Directive ..."
        return e <= ref_start and bool(
            re.fullmatch(
                r"[\s*_]*(?:[(,=:]|[\u2014\u2013]|\s-|\s(?:is|was)\s)[\s*_]*",
                info.text[e:ref_start],
            )
        )
    if (
        e <= ref_start
        and len(info.text[e:ref_start]) <= 12
        and _APPOSED.match(info.text[e:ref_start])
    ):
        return True
    if s >= ref_end and re.fullmatch(r"[\s*_]*\((?:the\s+)?[\s*_]*", info.text[ref_end:s]):
        return True
    return lay.kind == "table_row" and lay.cell_index(m.start) == 0


def _identifier_owner(kb: KnowledgeBase, relation: str, ident: str) -> str | None:
    from auditor.extract.identifiers import same_identifier

    for f in kb.facts_with(relation):
        if f.literal and same_identifier(ident, f.literal):
            return f.subject
    return None


def _none_claims(info, cr, subjects, kb, domain, from_context):  # type: ignore[no-untyped-def]
    """Claims with no value, e.g. "the Fed cut rates in March 2020" (direction + date)."""
    if any(q.start not in info.change_quantities for q in info.quantities):
        return []
    direction = rate_direction(info.text)
    dates = [d for d in info.dates if d.role != "current"]
    if not direction or not dates:
        return []
    subj = subject_for(info, dates[0].start, dates[0].end, subjects, from_context)
    c = base_claim(info, cr, subj, kb, domain, direction, None, dates[0].start)
    c.qualifiers["direction"] = direction
    c.date = dates[0]
    if _DENIED_MOVE.search(info.text):
        c.negated = True  # "The Fed did not raise rates in 2020"
    return [c]


_BUILDERS = {
    "quantity": _quantity_claims,
    "entity": _entity_claims,
    "date": _date_claims,
    "frequency": _frequency_claims,
    "status": _status_claims,
    "literal": _literal_claims,
    "none": _none_claims,
}


def _dedupe(claims: list[Claim]) -> list[Claim]:
    seen: set[tuple[object, ...]] = set()
    out = []
    for c in claims:
        key = (
            c.rule_id,
            c.subject,
            c.object,
            c.start,
            c.quantity.start if c.quantity else None,
            c.qualifiers.get("dose_mg"),
        )  # "10 mg once daily or 70 mg once daily": two claims
        if key not in seen:
            seen.add(key)
            out.append(c)
    return out
