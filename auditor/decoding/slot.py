"""The answer slot of a question: its subject, the predicate it asks about, the graph's values.

1. **Subject candidates**: the entities the auditor's linker finds in the question (every
   candidate of every mention), in order of mention.
2. **Predicate**: among the relations the domain's rule packs check that the candidates have
   facts for (valid on ``as_of``), the one the question's words point to
   (:mod:`auditor.decoding.predicates`); with no cue, all of them.
3. **Facts**: those of the subject candidates for that predicate. When the question also
   names an object of one of them ("Does warfarin interact with aspirin?"), only the facts
   between the named entities stay, and of a symmetric pair the one whose subject is named
   first.
4. **Forms**: the subjects' names (``SUBJECT``); the facts' values — the object's names, the
   number with its unit, the literal, the date (``VALUE``); what an answer may repeat next to
   them — population, indication, product, severity, validity dates (``EXTRA``); and the
   "I don't know" phrases (``IDK``). Each with case and leading-space variants.

They compile into an :class:`engine.constraint.SlotAutomaton` (see docs/constrained.md).
Without a linked subject or a fact for the predicate, the slot is empty and the automaton
allows only the "I don't know" path (fail closed).
"""

from __future__ import annotations

import itertools
import re
import time
from dataclasses import dataclass, field, replace
from datetime import date
from typing import TYPE_CHECKING, Any

from auditor.decoding.builder import BuiltConstraint, ConstraintBuilder
from auditor.decoding.predicates import default_cues
from auditor.decoding.surface import (
    ECHOED_QUALIFIERS,
    all_variants,
    date_forms,
    edge_value_forms,
    entity_names,
    main_value_forms,
)

if TYPE_CHECKING:
    from auditor.pipeline import Auditor
    from knowledge_graphs.model import Fact

IDK_PHRASES = ("I don't know", "I do not know")
SYMMETRIC = frozenset({"interactsWith"})


@dataclass
class AnswerSlot:
    """What an answer to one question must name: subject forms and the graph's values."""

    domains: list[str]
    seeds: list[str]  # linked entity ids, in order of mention
    subjects: list[str]  # entity ids
    predicates: list[str]
    facts: list[str]  # fact ids
    subject_forms: set[str] = field(default_factory=set)  # before case/space variants
    value_forms: set[str] = field(default_factory=set)
    extra_forms: set[str] = field(default_factory=set)
    preferred_forms: set[str] = field(default_factory=set)  # the names span intent forces
    objects: list[str] = field(default_factory=list)  # entity ids among the values
    frame: str = ""  # the trained answer's opening, up to the subject's name (may be empty)

    @property
    def empty(self) -> bool:
        return not (self.subject_forms and self.value_forms)

    def summary(self) -> dict[str, Any]:
        return {
            "subjects": self.subjects,
            "predicates": self.predicates,
            "facts": len(self.facts),
            "values": sorted(self.value_forms)[:20],
            "frame": self.frame,
        }


class SlotBuilder(ConstraintBuilder):
    """Builds answer-slot constraints (a :class:`ConstraintBuilder` for the lexicon and the
    linking; ``radius`` is unused)."""

    def __init__(
        self,
        auditor: Auditor,
        tokenizer: Any,
        vocab_size: int,
        *,
        as_of: date | None = None,
        common_words: int = 0,
        idk_phrases: tuple[str, ...] = IDK_PHRASES,
    ) -> None:
        super().__init__(auditor, tokenizer, vocab_size, radius=0, common_words=common_words)
        self.as_of = as_of
        self.idk_phrases = idk_phrases

    def slot(self, question: str, domain: str = "auto", as_of: date | None = None) -> AnswerSlot:
        """The answer slot of ``question`` (see the module docstring), with the facts valid on
        ``as_of`` (default: the builder's date, else today)."""
        from knowledge_graphs.verbalise import Names

        kb, day = self.auditor.kb, as_of or self.as_of or date.today()
        domains, seeds = self.link(question, domain)
        relations: set[str] = set()
        for d in domains:
            relations |= self.relations(d)
        by_pred: dict[str, list[Fact]] = {}
        for s in seeds:
            for f in kb.facts_about(s):
                if f.predicate in relations and f.valid_at(day):
                    by_pred.setdefault(f.predicate, []).append(f)
        names = [n for s in seeds if s in kb.entities for n in kb.entities[s].names()]
        preds = default_cues().rank(question, sorted(by_pred), drop=names) if by_pred else []
        facts = _dose_focus(_focus([f for p in preds for f in by_pred[p]], seeds), question)
        display = Names(kb.entities)
        slot = AnswerSlot(
            domains=domains,
            seeds=seeds,
            subjects=sorted({_ends(f, seeds)[0] for f in facts}, key=seeds.index),
            predicates=preds,
            facts=[f.id for f in facts],
        )
        brands = "brandName" not in preds  # a brand name is then not a name of the drug
        for s in slot.subjects:
            slot.subject_forms |= self._names(kb.entities[s], display, brands)
            slot.preferred_forms |= {display(s), kb.entities[s].label}
        for f in facts:
            if f.object:
                other = _ends(f, seeds)[1]
                obj = kb.entities.get(other) if other is not None else None
                if obj is not None:
                    slot.value_forms |= self._names(obj, display, brands)
                    slot.preferred_forms |= {display(obj.id), obj.label}
                    slot.objects.append(obj.id)
                slot.extra_forms |= edge_value_forms(f)
            else:
                slot.value_forms |= main_value_forms(f)
                slot.preferred_forms |= main_value_forms(f)
            for key in ECHOED_QUALIFIERS:
                q = f.qualifiers.get(key)
                if q and len(q) <= 60:
                    slot.extra_forms.add(q)
            for edge in (f.valid_from, f.valid_to):
                if edge is not None:
                    slot.extra_forms |= date_forms(edge)
        values = {v.lower() for v in slot.value_forms}  # "Valoid": the value, not the subject
        slot.subject_forms = {n for n in slot.subject_forms if n.lower() not in values}
        slot.preferred_forms &= slot.subject_forms | slot.value_forms
        slot.extra_forms -= slot.value_forms | slot.subject_forms
        if len(preds) == 1 and facts:
            framed = [
                replace(f, subject=_ends(f, seeds)[0], object=_ends(f, seeds)[1]) for f in facts
            ]  # of a symmetric pair, the subject named first
            slot.frame = answer_frame(framed, display, slot.value_forms)
        return slot

    def _names(self, entity: Any, display: Any, drop_brands: bool) -> set[str]:
        """The entity's names; with ``drop_brands`` not its brand names (an answer about a
        drug's dose or interactions names the drug, and a brand name would lead a small
        model to the brand-name frame)."""
        names = entity_names(entity, display)
        if not drop_brands:
            return names
        brands = {
            (f.literal or "").lower() for f in self.auditor.kb.facts_about(entity.id, "brandName")
        }
        return {n for n in names if n.lower() not in brands}

    def build(
        self,
        text: str,
        domain: str = "auto",
        *,
        start_ws: bool = True,
        as_of: date | None = None,
    ) -> BuiltConstraint:
        """The answer-slot constraint for an answer to ``text`` (a question)."""
        from engine.constraint import SlotAutomaton

        t0 = time.perf_counter()
        slot = self.slot(text, domain, as_of)
        automaton = SlotAutomaton(
            self.lexicon(),
            all_variants(slot.subject_forms),
            all_variants(slot.value_forms),
            extra_forms=all_variants(slot.extra_forms),
            idk_forms=all_variants(self.idk_phrases),
            preferred_forms=all_variants(slot.preferred_forms),
            echo_forms=all_variants(v for v in slot.value_forms if _states(text, v)),
            start_ws=start_ws,
        )
        entities = dict.fromkeys(slot.subjects, 0) | dict.fromkeys(slot.objects, 1)
        forms = slot.subject_forms | slot.value_forms | slot.extra_forms
        ms = (time.perf_counter() - t0) * 1000
        return BuiltConstraint(
            slot.domains,
            slot.seeds,
            entities,
            sorted(all_variants(forms)),
            automaton,
            ms,
            sorted(slot.value_forms),
            slot=slot.summary(),
        )


def answer_frame(facts: list[Fact], display: Any, values: set[str]) -> str:
    """How the default model was trained to open its answer about these facts' relation, up
    to where the value goes ("The currency of Kenya is", "Taking warfarin together with",
    "Miranda v. Arizona was decided in"): the answer of the verbaliser's question item for
    each fact, cut before the first value, and of several facts the words they share ("The
    maximum daily dose of ibuprofen", where one says "(OTC) is" and another "(prescription)
    is"). Empty when the relation has no question item or the shared opening does not name
    the subject (the frame must name the subject and must not answer)."""
    from knowledge_graphs.verbalise import TEMPLATES

    name = display(facts[0].subject).lower()
    lows = sorted({v.strip().lower() for v in values if v.strip()}, key=len, reverse=True)
    openings: list[str] = []
    for fact in facts:
        template = TEMPLATES.get(fact.predicate)
        items = template(fact, display) if template is not None else []
        answer = next(  # the trained answer, up to the value ("applies to more than")
            (p.split(" A: ", 1)[1] + r for p, r, _ in items if p.startswith("Q:") and " A: " in p),
            None,
        )
        if answer is None:
            return ""
        answer = re.sub(r"^(?:Yes|No)\.\s+", "", answer)  # the frame gives no verdict
        low = answer.lower()
        cut = min((i for v in lows if (i := _word_at(low, v)) >= 0), default=len(answer))
        openings.append(answer[:cut].rstrip())
    columns = zip(*(o.split(" ") for o in openings), strict=False)  # i-th word of each
    shared = [ws[0] for ws in itertools.takewhile(lambda ws: len(set(ws)) == 1, columns)]
    frame = " ".join(shared)  # the whole words every fact's opening starts with
    return frame if name in frame.lower() else ""


def _word_at(text: str, form: str) -> int:
    """Where ``form`` occurs in ``text`` as whole words, or -1."""
    m = re.search(rf"(?<!\w){re.escape(form)}(?!\w)", text)
    return m.start() if m else -1


_PERIODS = {
    "day": re.compile(r"\b(day|daily|24 hours)\b", re.I),
    "week": re.compile(r"\b(week|weekly)\b", re.I),
    "dose": re.compile(r"\b(one time|single|per dose|at once|each dose)\b", re.I),
}
_MAXIMUM = re.compile(r"\b(most|max|maximum|limit|exceed|highest|upper)\b", re.I)


def _dose_focus(facts: list[Fact], question: str) -> list[Fact]:
    """Of several doses, those whose period the question names (per day / week / dose), and
    the label maxima rather than usual ranges when it asks for a maximum; all of them when
    the question says nothing that tells them apart."""
    facts = [f for f in facts if not f.qualifiers.get("co_medication")]  # not the drug's own
    doses = [f for f in facts if f.predicate == "maxDose"]
    if len(doses) < 2:
        return facts
    named = [p for p, rx in _PERIODS.items() if rx.search(question)]
    keep = [f for f in doses if (f.qualifiers.get("per") or "day") in named] or doses
    if _MAXIMUM.search(question):
        keep = [f for f in keep if f.qualifiers.get("kind") != "usual_range"] or keep
    return [f for f in facts if f.predicate != "maxDose" or f in keep]


def _states(text: str, form: str) -> bool:
    """Whether ``text`` contains ``form`` as a whole word or phrase (any case)."""
    return re.search(rf"(?<!\w){re.escape(form)}(?!\w)", text, re.I) is not None


def _ends(fact: Fact, seeds: list[str]) -> tuple[str, str | None]:
    """(subject, object) of ``fact`` as the answer names them: of a symmetric relation
    between two named entities, the one the question names first is the subject."""
    s, o = fact.subject, fact.object
    if (
        fact.predicate in SYMMETRIC
        and s in seeds
        and o in seeds
        and seeds.index(o) < seeds.index(s)
    ):
        return o, s
    return s, o


def _focus(facts: list[Fact], seeds: list[str]) -> list[Fact]:
    """The facts between entities the question names, if any (of a symmetric pair, the one
    whose subject is named first); otherwise all of them."""
    named = set(seeds)
    between = [f for f in facts if f.object in named and f.subject in named]
    if not between:
        return facts
    first = min(seeds.index(f.subject) for f in between)
    keep = [f for f in between if f.predicate not in SYMMETRIC or seeds.index(f.subject) == first]
    return keep or between
