"""Answer held-out questions under several engine configurations and audit every answer.

Configurations differ in the KG constraint (off, the neighbourhood at radius 1 or 2, the
answer slot with or without span intent), the experts used per token
(the model's top-2, or top-1) and the KV cache (fp, int8, int4). Batches of questions are run
through every configuration in turn (interleaved), so the load of a shared machine affects
them alike. Per answer it records the text, the audit counts, the linked entity mentions and
the numbers it contains (with whether each lies in the question's graph neighbourhood), the
generated tokens, decode time and time to first token (constraint build + prefill).
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import date
from typing import TYPE_CHECKING, Any

from auditor.decoding.builder import ConstraintBuilder
from auditor.decoding.slot import SlotBuilder
from measure.generation.fluency import answer_nll
from measure.generation.grading import grade
from measure.generation.questions import Question

if TYPE_CHECKING:
    from auditor.pipeline import Auditor

STOP_STRINGS = ("\n", " Q:", " A:")
_NUMBER = re.compile(r"\d+(?:[.,/]\d+)*")


@dataclass(frozen=True)
class EvalConfig:
    name: str
    radius: int | None = None  # None = unconstrained
    top_k: int | None = None  # experts per token; None = the model's own
    kv_cache: str = "fp"
    intent: float | None = None  # span-intent threshold of the constraint (None: plain mask)
    slot: bool = False  # the answer-slot constraint (subject + the graph's value)
    frame: bool = False  # the answer opens with the relation's trained frame up to the subject

    @property
    def constrained(self) -> bool:
        return self.radius is not None or self.slot


CONFIGS: dict[str, EvalConfig] = {
    c.name: c
    for c in [
        EvalConfig("base"),
        EvalConfig("kg-r1", radius=1),
        EvalConfig("kg-r2", radius=2),
        EvalConfig("kg-r1-intent", radius=1, intent=0.5),
        EvalConfig("top1", top_k=1),
        EvalConfig("kg-r1-top1", radius=1, top_k=1),
        EvalConfig("int8", kv_cache="int8"),
        EvalConfig("kg-r1-int8", radius=1, kv_cache="int8"),
        EvalConfig("int4", kv_cache="int4"),
        EvalConfig("kg-r1-int4", radius=1, kv_cache="int4"),
        EvalConfig("slot", slot=True, intent=0.3),  # the answer slot (chat's default)
        EvalConfig("slot-mask", slot=True),  # the answer slot without span intent
        EvalConfig("slot-frame", slot=True, intent=0.3, frame=True),  # ... opened by its frame
    ]
}


@dataclass
class Answer:
    question: Question
    config: str
    text: str
    new_tokens: int
    decode_s: float
    ttft_s: float
    build_ms: float
    counts: dict[str, int]
    entity_spans: list[tuple[str, bool]] = field(default_factory=list)  # (text, graph-valid)
    value_spans: list[tuple[str, bool]] = field(default_factory=list)
    seeds: int = 0
    outcome: str = "non_answer"  # measure.generation.grading.OUTCOMES
    claims: list[dict[str, Any]] = field(default_factory=list)  # subject/predicate/object/verdict
    nll: float = 0.0  # of the answer under the unconstrained model (nats)
    answer_tokens: int = 0  # tokens the nll is over

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.question.id,
            "config": self.config,
            "domain": self.question.domain,
            "subject": self.question.subject,
            "predicate": self.question.predicate,
            "prompt": self.question.prompt,
            "answer": self.text,
            "outcome": self.outcome,
            "claims": self.claims,
            "nll": round(self.nll, 4),
            "answer_tokens": self.answer_tokens,
            "counts": self.counts,
            "entity_spans": self.entity_spans,
            "value_spans": self.value_spans,
            "new_tokens": self.new_tokens,
            "seeds": self.seeds,
        }


@contextmanager
def experts_per_token(model: Any, k: int | None) -> Iterator[None]:
    """Temporarily route every token to ``k`` experts (MoE layers' ``top_k``)."""
    layers = [m for m in model.modules() if hasattr(m, "top_k") and hasattr(m, "route")]
    saved = [m.top_k for m in layers]
    try:
        for m in layers if k is not None else ():
            m.top_k = k
        yield
    finally:
        for m, s in zip(layers, saved, strict=True):
            m.top_k = s


def clean_answer(text: str) -> str:
    """The answer up to the first stop string, stripped."""
    for s in STOP_STRINGS:
        text = text.split(s, 1)[0]
    return text.strip()


class Evaluator:
    """Runs configurations over questions with one model and one auditor."""

    def __init__(
        self,
        model: Any,
        auditor: Auditor,
        *,
        max_new_tokens: int = 40,
        as_of: str = "2025-06-30",
        common_words: int = 0,
    ) -> None:
        self.model, self.tok, self.auditor = model, model.tokenizer, auditor
        self.max_new_tokens, self.as_of = max_new_tokens, as_of
        V = model.config.vocab_size
        self.builders = {
            r: ConstraintBuilder(auditor, self.tok, V, radius=r, common_words=common_words)
            for r in (1, 2)
        }
        self.slot_builder = SlotBuilder(
            auditor, self.tok, V, as_of=date.fromisoformat(as_of), common_words=common_words
        )

    def builder(self, radius: int) -> ConstraintBuilder:
        if radius not in self.builders:
            self.builders[radius] = ConstraintBuilder(
                self.auditor, self.tok, self.model.config.vocab_size, radius=radius
            )
        return self.builders[radius]

    def run(
        self,
        questions: Sequence[Question],
        configs: Sequence[EvalConfig],
        *,
        batch_size: int = 8,
        log: Callable[[str], None] = lambda _: None,
    ) -> tuple[list[Answer], list[dict[str, Any]]]:
        """(answers, one timing record per batch and configuration)."""
        answers: list[Answer] = []
        timings: list[dict[str, Any]] = []
        for start in range(0, len(questions), batch_size):
            batch = list(questions[start : start + batch_size])
            for cfg in configs:
                got, timing = self._batch(batch, cfg)
                answers += got
                timings.append(timing)
            log(f"{min(start + batch_size, len(questions))}/{len(questions)} questions")
        return answers, timings

    def _batch(self, batch: list[Question], cfg: EvalConfig) -> tuple[list[Answer], dict[str, Any]]:
        from engine import generate
        from engine.constraint import KGConstraint
        from engine.tokenizer import left_pad

        t0 = time.perf_counter()
        constraint = built = None
        if cfg.constrained:
            builder = self.slot_builder if cfg.slot else self.builder(cfg.radius)  # type: ignore[arg-type]
            built = [builder.build(q.question, q.domain) for q in batch]
            constraint = KGConstraint([b.automaton for b in built], intent_threshold=cfg.intent)
            constraint.profile = True
        frames = [""] * len(batch)  # the answer frame of each row ("slot-frame" only)
        if cfg.frame and built:
            frames = [(b.slot or {}).get("frame", "") for b in built]
        rows = [self.tok.encode(q.prompt) for q in batch]
        for b, frame in enumerate(frames):
            if frame:  # the frame is given, not generated: the automaton reads it first
                opening = self.tok.encode(" " + frame, add_bos=False)
                rows[b] = rows[b] + opening
                constraint.prefill(b, opening)  # type: ignore[union-attr]
        build_s = time.perf_counter() - t0
        ids, mask = left_pad(rows, self.tok.pad_id)
        with experts_per_token(self.model, cfg.top_k):
            new, stats = generate(
                self.model,
                ids,
                self.max_new_tokens,
                attention_mask=mask,
                tokenizer=self.tok,
                stop_strings=STOP_STRINGS,
                kv_cache=cfg.kv_cache,
                kg_constraint=constraint,
                return_stats=True,
            )
        if constraint is not None:
            constraint.advance(new)
        answers = []
        texts = []
        for b in range(len(batch)):
            n = stats[b].new_tokens
            if constraint is not None:  # drop a span cut short by max_new_tokens
                n -= constraint.open_span_tokens(b)
            opening = " " + frames[b] if frames[b] else ""
            texts.append(clean_answer(opening + self.tok.decode(new[b, :n].tolist())))
        fluency = answer_nll(self.model, [q.prompt for q in batch], texts)
        for b, q in enumerate(batch):
            answer = self._judge(q, cfg, texts[b], stats[b], build_s, built[b] if built else None)
            answer.nll, answer.answer_tokens = fluency[b]
            answers.append(answer)
        ttft = stats[0].ttft_s if stats else 0.0
        timing = {
            "config": cfg.name,
            "rows": len(batch),
            "decode_tokens": sum(max(0, st.new_tokens - 1) for st in stats),
            "decode_steps": max((max(0, st.new_tokens - 1) for st in stats), default=0),
            "decode_s": max((st.total_s for st in stats), default=ttft) - ttft,
            "ttft_s": ttft + build_s,
            "build_s": build_s,
            "mask_s": (constraint.update_ns + constraint.apply_ns) / 1e9 if constraint else 0.0,
        }
        return answers, timing

    def _judge(
        self, q: Question, cfg: EvalConfig, text: str, st: Any, build_s: float, built: Any
    ) -> Answer:
        result = self.auditor.audit(text, domain=q.domain, as_of=self.as_of) if text else None
        claims = [
            {k: c.get(k) for k in ("subject", "predicate", "object", "verdict")}
            for c in (result.to_dict()["claims"] if result is not None else [])
        ]
        counts = dict(result.counts) if result is not None else {}
        counts["claims"] = len(claims)
        builder = self.builder(cfg.radius or 1)
        if built is None:
            domains, seeds = builder.link(q.question, q.domain)
            entities, names, values = builder.allowed(seeds, domains)
            forms = names | values
        else:
            seeds, entities, forms = built.seeds, built.entities, set(built.forms)
        numbers = {m for v in forms for m in _NUMBER.findall(v)}  # values and names ("3-...")
        ents = [
            (m.text, any(c in entities for c in m.candidates))
            for m in self.auditor.linker().link(text, domains=[q.domain])
        ]
        vals = [(m, m in numbers) for m in _NUMBER.findall(text)]
        return Answer(
            q,
            cfg.name,
            text,
            st.new_tokens,
            max(0.0, st.total_s - st.ttft_s),
            st.ttft_s + build_s,
            built.build_ms if built is not None else 0.0,
            counts,
            ents,
            vals,
            len(seeds),
            outcome=grade(claims, q.subject, q.predicate),
            claims=claims,
        )
