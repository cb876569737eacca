"""Knowledge-graph facts in words: the sentences and questions the default model is trained on
(:mod:`engine.train.corpus`) and the questions and answer frames the KG-constrained generation
asks and allows (:mod:`auditor.decoding`).

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

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from knowledge_graphs.model import Entity, Fact
from knowledge_graphs.verbalise.paraphrases import PARAPHRASES, paraphrased_questions
from knowledge_graphs.verbalise.templates import TEMPLATES, Names, cap, day, num


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


def verbalise(facts: Iterable[Fact], entities: Mapping[str, Entity]) -> list[Verbalisation]:
    """All verbalisations of the facts whose predicate has templates, in a stable order."""
    names = Names(entities)
    out: list[Verbalisation] = []
    for f in sorted(facts, key=lambda f: f.id):
        template = TEMPLATES.get(f.predicate)
        if template is None or f.qualifiers.get("co_medication"):
            continue  # a cap that holds only with another drug is not the drug's own fact
        for prompt, completion, key in template(f, names):
            kind = "qa" if prompt.startswith("Q: ") else "statement"
            out.append(Verbalisation(f.id, f.predicate, kind, prompt, completion, key))
    return out


__all__ = [
    "PARAPHRASES",
    "TEMPLATES",
    "Names",
    "Verbalisation",
    "cap",
    "day",
    "num",
    "paraphrased_questions",
    "verbalise",
]
