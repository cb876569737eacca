"""Host cost of constraining one decode step: the KG span automaton against XGrammar, and the
answer slot.

Both constrain the same model to the same allowed strings of the same questions (one question
per batch row). Each row replays a token sequence made of allowed forms (a few leading-space
forms back to back), so every step is inside or at the edge of a span. Per step we time what a
decode loop pays: advance the state by the last token, produce the mask, apply it to the
logits [B, V] — for the KG constraint the engine's ``KGConstraint.__call__`` (plain mask, and
with span intent), for XGrammar ``accept_token`` + ``fill_next_token_bitmask`` per row and
``apply_token_bitmask_inplace``. XGrammar's grammar is ``root ::= item+`` with ``item`` the
alternation of the allowed strings. The model's own decode step is timed in the same run (fp KV
cache, unconstrained ``generate``), giving each cost as a share of a decode step.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Sequence
from typing import Any

from auditor.decoding.builder import ConstraintBuilder
from measure.generation.questions import Question


def _replay(forms: Sequence[str], tokenizer: Any, length: int, rng: random.Random) -> list[int]:
    """Token ids of allowed forms (leading-space ones) back to back, ``length`` of them."""
    spaced = sorted(f for f in forms if f.startswith(" ") and len(f) > 2)
    ids: list[int] = []
    while len(ids) < length and spaced:
        ids += tokenizer.encode(rng.choice(spaced), add_bos=False)
    return ids[:length]


def decode_step_ms(model: Any, batch_size: int, steps: int = 24, repeats: int = 3) -> float:
    """Median wall time of one unconstrained decode step of ``model`` (fp cache), in ms."""
    import torch

    from engine import generate

    ids = torch.full((batch_size, 16), 5, dtype=torch.long)
    times = []
    for _ in range(repeats):
        _, stats = generate(model, ids, steps, stop_token_ids=[], return_stats=True)
        st = stats[0]
        times.append(1000 * (st.total_s - st.ttft_s) / max(1, st.new_tokens - 1))
    return statistics.median(times)


class _Clock:
    """Wall and thread-CPU nanoseconds of each timed step (CPU time is what load on a shared
    machine distorts least)."""

    def __init__(self) -> None:
        self.wall: list[int] = []
        self.cpu: list[int] = []

    def time(self, fn: Any) -> None:
        w, c = time.perf_counter_ns(), time.thread_time_ns()
        fn()
        self.cpu.append(time.thread_time_ns() - c)
        self.wall.append(time.perf_counter_ns() - w)


def _replay_both(
    automata: list[Any],
    automata_intent: list[Any],
    grammars: list[Any],
    seqs: list[list[int]],
    logits: Any,
    clocks: dict[str, _Clock],
) -> None:
    """Replay ``seqs`` through the KG constraint (plain, and with span intent, each on its own
    freshly built automata, as a new request has) and XGrammar, alternating step by step so all
    see the same machine load."""
    import torch

    from engine.constraint import KGConstraint

    ours = KGConstraint(automata, intent_threshold=None)
    intent = KGConstraint(automata_intent, intent_threshold=0.5)
    matchers = [m for g in grammars for m in g.matchers(1)]
    bitmask = grammars[0].allocate(len(seqs))
    new = torch.tensor(seqs, dtype=torch.long)

    def xgr_step(k: int, work: Any) -> None:
        for b, m in enumerate(matchers):
            if k:
                m.accept_token(seqs[b][k - 1])
            m.fill_next_token_bitmask(bitmask, b)
        grammars[0].apply_(work, bitmask)

    for k in range(new.shape[1]):
        prefix = new[:, :k]
        for name, fn in (
            ("kg", lambda w, p=prefix: ours(p, w)),
            ("kg_intent", lambda w, p=prefix: intent(p, w)),
            ("xgrammar", lambda w, k=k: xgr_step(k, w)),
        ):
            work = logits.clone()
            clocks[name].time(lambda fn=fn, work=work: fn(work))


def _replay_slot(automata: list[Any], seqs: list[list[int]], logits: Any, clock: _Clock) -> None:
    """Replay ``seqs`` through answer-slot constraints with span intent at 0.3 (the chat's
    and the evaluation's ``slot`` configuration), fresh automata as a new request has."""
    import torch

    from engine.constraint import KGConstraint

    con = KGConstraint(automata, intent_threshold=0.3)
    new = torch.tensor(seqs, dtype=torch.long)
    for k in range(new.shape[1]):
        work = logits.clone()
        clock.time(lambda p=new[:, :k], w=work: con(p, w))


def measure_overhead(
    model: Any,
    builder: ConstraintBuilder,
    questions: Sequence[Question],
    *,
    slot_builder: ConstraintBuilder | None = None,
    batch_sizes: Sequence[int] = (1, 8),
    steps: int = 48,
    rounds: int = 3,
    seed: int = 0,
    log: Any = lambda _: None,
) -> list[dict[str, Any]]:
    """One row per batch size: µs per step and per token for both, and % of a decode step."""
    import torch

    from engine.constraint.xgrammar_baseline import XGrammarAlternation, tokenizer_info

    tok, V = model.tokenizer, model.config.vocab_size
    stops = [tok.eos_id] if tok.eos_id is not None else []
    info = tokenizer_info(tok, V, stops)
    rng = random.Random(seed)
    rows = []
    for B in batch_sizes:
        clocks = {k: _Clock() for k in ("kg", "kg_intent", "xgrammar", "slot")}
        build_ms: list[float] = []
        compile_ms: list[float] = []
        slot_ms: list[float] = []
        for r in range(rounds):
            qs = [questions[(r * B + i) % len(questions)] for i in range(B)]
            built = [builder.build(q.question, q.domain) for q in qs]
            seqs = [_replay(b.forms, tok, steps, rng) for b in built]
            n = min(len(s) for s in seqs)
            if n < 2:
                continue
            seqs = [s[:n] for s in seqs]
            t0 = time.perf_counter()
            grammars = [XGrammarAlternation(info, b.forms, repeat=True) for b in built]
            compile_ms.append(1000 * (time.perf_counter() - t0) / B)
            build_ms += [b.build_ms for b in built]
            logits = torch.randn(B, V, generator=torch.Generator().manual_seed(r))
            fresh = [
                builder.build(q.question, q.domain).automaton for q in qs
            ]  # cold, like `built`
            _replay_both([b.automaton for b in built], fresh, grammars, seqs, logits, clocks)
            if slot_builder is not None:  # the answer slot, replaying its own forms
                slots = [slot_builder.build(q.question, q.domain) for q in qs]
                own = [_replay(b.forms, tok, n, rng) for b in slots]
                slot_ms += [b.build_ms for b in slots]
                if min(len(x) for x in own) == n:
                    _replay_slot([b.automaton for b in slots], own, logits, clocks["slot"])
        step_ms = decode_step_ms(model, B)
        row: dict[str, Any] = {"batch": B, "decode_step_ms": step_ms}
        for name, clock in clocks.items():
            if not clock.wall:
                continue
            wall, cpu = statistics.median(clock.wall) / 1000, statistics.median(clock.cpu) / 1000
            row[f"{name}_us_per_step"] = wall
            row[f"{name}_cpu_us_per_step"] = cpu
            row[f"{name}_us_per_token"] = wall / B
            row[f"{name}_p99_us_per_step"] = (
                sorted(clock.wall)[int(0.99 * (len(clock.wall) - 1))] / 1000
            )
            row[f"{name}_pct_of_step"] = 100 * wall / 1000 / step_ms
        row["steps_timed"] = len(clocks["kg"].wall)
        row["kg_build_ms_per_request"] = statistics.median(build_ms) if build_ms else None
        row["slot_build_ms_per_request"] = statistics.median(slot_ms) if slot_ms else None
        row["xgrammar_compile_ms_per_request"] = (
            statistics.median(compile_ms) if compile_ms else None
        )
        rows.append(row)
        log(f"overhead batch {B}: done")
    return rows


def overhead_table(rows: Sequence[dict[str, Any]]) -> str:
    lines = [
        "| batch | decode step ms | method | µs/step (wall) | µs/step (CPU) | µs/token | % of step "
        "| p99 µs/step | build or compile ms/request |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    names = {
        "kg": "KG trie",
        "kg_intent": "KG trie + span intent",
        "slot": "answer slot + span intent 0.3",
        "xgrammar": "XGrammar",
    }
    for r in rows:
        for key, label in names.items():
            if f"{key}_us_per_step" not in r:
                continue
            prep = r.get(
                "xgrammar_compile_ms_per_request"
                if key == "xgrammar"
                else "slot_build_ms_per_request"
                if key == "slot"
                else "kg_build_ms_per_request"
            )
            lines.append(
                f"| {r['batch']} | {r['decode_step_ms']:.2f} | {label} | {r[f'{key}_us_per_step']:.1f} "
                f"| {r[f'{key}_cpu_us_per_step']:.1f} | {r[f'{key}_us_per_token']:.1f} "
                f"| {r[f'{key}_pct_of_step']:.2f}% | {r[f'{key}_p99_us_per_step']:.0f} "
                f"| {'–' if prep is None else f'{prep:.1f}'} |"
            )
    return "\n".join(lines)
