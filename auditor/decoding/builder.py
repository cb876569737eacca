"""From a prompt to the engine-level constraint: link, expand, verbalise, compile.

1. Link the entities of the prompt with the auditor's linker (the requested domain, or every
   domain for ``auto``; the domains of the linked entities are then the answer's domains).
2. Take their ``radius``-hop neighbourhood over the relations the domain's rule packs check
   (``knowledge_graphs.projection.neighbourhood``).
3. Verbalise the surface forms of the neighbourhood's entities and of its facts' values
   (``values="neighbourhood"``; ``"seeds"`` keeps only the values of the linked entities'
   own facts), with case and leading-space variants. A qualifier an answer may repeat ("for
   angina pectoris") is a value form, and the entity it names counts as allowed.
4. Compile them against the lexicon (the global forms of every domain — an entity of another
   domain still opens a span — and the free words; built once) into a
   :class:`engine.constraint.SpanAutomaton`.

With no entity in the prompt the allowed set is empty and every span is masked (fail closed).
torch is only imported when a constraint is compiled.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from auditor.decoding.surface import (
    ECHOED_QUALIFIERS,
    all_variants,
    edge_value_forms,
    entity_names,
)
from auditor.decoding.surface import fact_value_forms as value_forms
from auditor.decoding.vocabulary import free_words, global_forms, rule_relations
from auditor.decoding.vocabulary import trained_relations as _trained
from auditor.memo import IdentityCache

if TYPE_CHECKING:
    from auditor.pipeline import Auditor

VALUE_SCOPES = ("neighbourhood", "seeds")
_LEXICONS: IdentityCache[Any] = IdentityCache()  # per (kb, tokenizer), logit width, words


@dataclass
class BuiltConstraint:
    """One prompt's allowed set and its automaton (``automaton`` is an engine object)."""

    domains: list[str]
    seeds: list[str]
    entities: dict[str, int]  # allowed entity id -> hops from the seeds
    forms: list[str]  # allowed surface forms with variants
    automaton: Any
    build_ms: float
    values: list[str] = field(default_factory=list)  # allowed value forms (no variants)
    slot: dict[str, Any] | None = None  # the answer slot (subjects, predicates), if one

    def summary(self) -> dict[str, Any]:
        return {
            "domains": self.domains,
            "seeds": self.seeds,
            "allowed_entities": len(self.entities),
            "allowed_forms": len(self.forms),
            "trie_nodes": len(self.automaton.allowed),
            "build_ms": round(self.build_ms, 2),
            **({"answer_slot": self.slot} if self.slot is not None else {}),
        }


class ConstraintBuilder:
    """Builds KG constraints for one tokenizer over the auditor's graphs and rule packs."""

    def __init__(
        self,
        auditor: Auditor,
        tokenizer: Any,
        vocab_size: int,
        *,
        radius: int = 1,
        values: str = "neighbourhood",
        common_words: int = 0,
    ) -> None:
        if radius < 0:
            raise ValueError(f"radius must be >= 0, got {radius}.")
        if values not in VALUE_SCOPES:
            raise ValueError(f"values must be one of {', '.join(VALUE_SCOPES)}, not {values!r}.")
        self.auditor, self.tokenizer, self.vocab_size = auditor, tokenizer, vocab_size
        self.radius, self.values, self.common_words = radius, values, common_words
        self._facts = {f.id: f for f in auditor.kb.facts}

    def relations(self, domain: str) -> set[str]:
        return rule_relations(self.auditor.rules.for_domain(domain))

    def lexicon(self) -> Any:
        """The engine lexicon (every domain's global forms, the free words), built once per
        knowledge base, tokenizer and logit width, and shared by every builder."""
        return _LEXICONS.get(
            (self.auditor.kb, self.tokenizer),
            self._build_lexicon,
            extra=(self.vocab_size, self.common_words),
        )

    def _build_lexicon(self) -> Any:
        from engine.constraint import SpanLexicon, TokenVocab

        kb = self.auditor.kb
        forms: set[str] = set()
        for d in kb.domains:
            forms |= global_forms(kb, d, self.relations(d) | _trained())
        vocab = TokenVocab.from_tokenizer(self.tokenizer, self.vocab_size)
        return SpanLexicon(self.tokenizer, vocab, forms, free_words(kb, self.common_words))

    def link(self, text: str, domain: str = "auto") -> tuple[list[str], list[str]]:
        """(domains, seed entity ids) of ``text``; ``domain`` is one domain or ``auto``."""
        kb = self.auditor.kb
        wanted = list(kb.domains) if domain == "auto" else [domain]
        seeds: list[str] = []
        for m in self.auditor.linker().link(text, domains=wanted):
            seeds += [c for c in m.candidates if c not in seeds]
        if domain != "auto":
            return [domain], seeds
        found = sorted({kb.entities[s].domain for s in seeds if s in kb.entities})
        return found or list(kb.domains), seeds

    def allowed(
        self, seeds: list[str], domains: list[str]
    ) -> tuple[dict[str, int], set[str], set[str]]:
        """(entity id -> hops, entity names, value forms) of the seeds' neighbourhood."""
        from knowledge_graphs.projection import neighbourhood
        from knowledge_graphs.verbalise import Names

        kb = self.auditor.kb
        relations: set[str] = set()
        for d in domains:
            relations |= self.relations(d)
        nb = neighbourhood(kb, seeds, hops=self.radius, relations=relations)
        display = Names(kb.entities)
        names: set[str] = set()
        for eid in nb.entities:
            e = kb.entities.get(eid)
            if e is not None:
                names |= entity_names(e, display)
        values: set[str] = set()
        entities = dict(nb.entities)
        for fid in nb.edge_facts:
            values |= edge_value_forms(self._facts[fid])
        for fid in nb.value_facts:
            f = self._facts[fid]
            if self.values == "seeds" and f.subject not in nb.seeds:
                continue
            values |= value_forms(f)
            # a value's unit that names an entity ("3000 USD": the US dollar) joins with it
            for m in self.auditor.linker().link(f.unit, domains=domains) if f.unit else ():
                for c in m.candidates:
                    entities.setdefault(c, entities.get(f.subject, 0))
            for key in ECHOED_QUALIFIERS:  # "for angina pectoris": the entity it names joins
                q = f.qualifiers.get(key)
                for m in self.auditor.linker().link(q, domains=domains) if q else ():
                    for c in m.candidates:
                        entities.setdefault(c, entities.get(f.subject, 0))
        return entities, names, values

    def build(self, text: str, domain: str = "auto", *, start_ws: bool = True) -> BuiltConstraint:
        """The constraint for an answer to ``text`` (a question or a whole prompt)."""
        from engine.constraint import SpanAutomaton

        t0 = time.perf_counter()
        domains, seeds = self.link(text, domain)
        entities, names, values = self.allowed(seeds, domains)
        forms = sorted(all_variants(names | values))
        automaton = SpanAutomaton(self.lexicon(), forms, start_ws=start_ws)
        ms = (time.perf_counter() - t0) * 1000
        return BuiltConstraint(domains, seeds, entities, forms, automaton, ms, sorted(values))
