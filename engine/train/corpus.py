"""The default model's training corpus: knowledge-graph facts verbalised in several phrasings,
plus question -> answer pairs.

Every verbalisation is split into a ``prompt`` and a ``completion`` around the fact's value
(the ``key``), so the same records train the model and test whether it reproduces the fact:
greedy-decode from the prompt and look for the key in the output.

>>> from knowledge_graphs.model import Entity, Fact, Source
>>> ibu = Entity("drug:ibuprofen", "medical", "Drug", "Ibuprofen")
>>> f = Fact("f1", "medical", "drug:ibuprofen", "maxDose", Source("label"), value=1200.0,
...          unit="mg", qualifiers={"per": "day", "status": "otc", "population": "adult"})
>>> [v.text for v in verbalise([f], {"drug:ibuprofen": ibu}) if v.kind == "qa"][0]
'Q: What is the maximum daily dose of ibuprofen for adults? A: The maximum daily dose of ibuprofen (OTC) is 1200 mg per day.'
"""

from __future__ import annotations

import hashlib
import random
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from engine.train.paraphrases import paraphrased_questions
from engine.train.templates import TEMPLATES, Names
from knowledge_graphs.model import Entity, Fact


@dataclass(frozen=True)
class Verbalisation:
    fact_id: str
    predicate: str
    kind: str  # "statement", "qa" or "paraphrase" (the answer after another question wording)
    prompt: str  # the text before the fact's value
    completion: str  # the value and the rest of the sentence
    key: str  # the value the completion must contain

    @property
    def text(self) -> str:
        return self.prompt + self.completion


@dataclass
class Corpus:
    train: list[Verbalisation] = field(default_factory=list)
    held_out: list[Verbalisation] = field(default_factory=list)  # unseen phrasings of seen facts

    @property
    def facts(self) -> int:
        return len({v.fact_id for v in self.train})


def verbalise(facts: Iterable[Fact], entities: Mapping[str, Entity]) -> list[Verbalisation]:
    """All verbalisations of the facts whose predicate has templates, in a stable order."""
    names = Names(entities)
    out: list[Verbalisation] = []
    for f in sorted(facts, key=lambda f: f.id):
        template = TEMPLATES.get(f.predicate)
        if template is None:
            continue
        for prompt, completion, key in template(f, names):
            kind = "qa" if prompt.startswith("Q: ") else "statement"
            out.append(Verbalisation(f.id, f.predicate, kind, prompt, completion, key))
    return out


def build_corpus(
    facts: Iterable[Fact],
    entities: Mapping[str, Entity],
    *,
    held_out_share: float = 0.15,
    seed: int = 0,
    paraphrases_per_fact: int = 0,
) -> Corpus:
    """Choose each fact's training texts and hold out unseen phrasings.

    Training keeps a fact's question-answer pair and its first statement that does not already
    appear inside that answer (statements repeating the answer add tokens, not knowledge; a
    fact without a question keeps its statements). With probability ``held_out_share`` that
    statement is held out instead: held-out perplexity then measures an unseen wording of a fact
    the model learnt from its question-answer pair. ``paraphrases_per_fact`` other wordings of
    each question (``engine.train.paraphrases``) precede the same answer in training.
    """
    facts = list(facts)
    by_fact: dict[str, list[Verbalisation]] = defaultdict(list)
    for v in verbalise(facts, entities):
        by_fact[v.fact_id].append(v)
    fact_of = {f.id: f for f in facts}
    names = Names(entities)
    corpus = Corpus()
    for fid, items in by_fact.items():
        rng = random.Random(f"{seed}:{hashlib.sha256(fid.encode()).hexdigest()}")
        answers = [v for v in items if v.kind == "qa"]
        statements = [v for v in items if v.kind == "statement"]
        if not answers:
            corpus.train += statements
            continue
        fresh = [v for v in statements if not any(v.text in a.text for a in answers)]
        corpus.train += answers
        answer = answers[0].prompt.split(" A: ", 1)[1]
        para_rng = random.Random(f"{seed}:paraphrase:{fid}")  # the split does not depend on it
        for q in paraphrased_questions(fact_of[fid], names, para_rng, paraphrases_per_fact):
            a = answers[0]
            prompt = f"Q: {q} A: {answer}"
            corpus.train.append(
                Verbalisation(fid, a.predicate, "paraphrase", prompt, a.completion, a.key)
            )
        if fresh:
            held = rng.random() < held_out_share
            (corpus.held_out if held else corpus.train).append(fresh[0])
    return corpus
