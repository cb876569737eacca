"""The default model's training corpus: knowledge-graph facts verbalised in several phrasings,
plus question -> answer pairs.

The verbalisations (prompt + completion around the fact's value, the ``key``) come from
:mod:`knowledge_graphs.verbalise`, which the KG-constrained generation shares; this module
splits them into the training and held-out sets.
"""

from __future__ import annotations

import hashlib
import random
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from knowledge_graphs.model import Entity, Fact
from knowledge_graphs.verbalise import Names, Verbalisation, paraphrased_questions, verbalise


@dataclass
class Corpus:
    train: list[Verbalisation] = field(default_factory=list)
    held_out: list[Verbalisation] = field(default_factory=list)  # unseen phrasings of seen facts

    @property
    def facts(self) -> int:
        return len({v.fact_id for v in self.train})


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
    each question (``knowledge_graphs.verbalise.paraphrases``) precede the same answer in training.
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
