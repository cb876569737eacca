"""The generation evaluation: questions, figures, Pareto front, the command, the overhead."""

from __future__ import annotations

import json
import math
from datetime import date

import pytest

from measure.generation.grading import OUTCOMES
from measure.generation.questions import held_out_questions
from measure.generation.report import pareto, summarise
from measure.generation.report_views import answer_table, domain_table, table


def test_questions_are_held_out_deterministic_and_sized(kb) -> None:
    from knowledge_graphs.verbalise import verbalise

    qs = held_out_questions(kb, per_domain=80, seed=0, as_of=date(2025, 6, 30))
    assert len(qs) >= 200 and len({q.id for q in qs}) == len(qs)
    assert qs == held_out_questions(kb, per_domain=80, seed=0, as_of=date(2025, 6, 30))
    assert qs != held_out_questions(kb, per_domain=80, seed=1, as_of=date(2025, 6, 30))
    trained = {v.prompt.split(" A:")[0] for v in verbalise(kb.facts, kb.entities) if v.kind == "qa"}
    assert not any(q.prompt.split(" A:")[0] in trained for q in qs)
    assert all(q.prompt.startswith("Q: ") and q.prompt.endswith(" A:") for q in qs)


@pytest.mark.parametrize("n", [1, 3, 80], ids=["one", "three", "eighty"])
def test_question_quotas_add_up(kb, n: int) -> None:
    qs = held_out_questions(kb, per_domain=n, domains=("medical",))
    assert len(qs) == n


ROWS = [
    {"name": "base", "accuracy": 0.1, "tok_s": 100.0, "ttft_ms": 10.0},
    {"name": "slot", "accuracy": 0.8, "tok_s": 95.0, "ttft_ms": 30.0},
    {"name": "kg-r1", "accuracy": 0.3, "tok_s": 90.0, "ttft_ms": 40.0},
    {"name": "none", "accuracy": None, "tok_s": 200.0, "ttft_ms": 1.0},
]


def test_pareto_front() -> None:
    assert pareto(ROWS) == ["base", "slot"]


def test_summary_and_table_from_answers() -> None:
    from measure.generation.evaluate import Answer
    from measure.generation.questions import Question

    q = Question("q1", "medical", "maxDose", "f1", "drug:x", "How much?")
    legal = Question("q2", "legal", "decided", "f2", "case:y", "When?")

    def answer(config, question, counts, outcome, nll=0.0, n=0, spans=False):
        return Answer(
            question, config, "a", 5, 0.1, 0.01, 0.0, counts, [("x", spans)], [("12", spans)],
            outcome=outcome, nll=nll, answer_tokens=n,
        )  # fmt: skip

    answers = [
        answer("base", q, {"supported": 1, "contradicted": 1}, "wrong", 4.0, 2),
        answer("base", legal, {}, "non_answer"),
        answer("slot", q, {"supported": 2, "unverifiable": 1}, "correct", 2.0, 2, True),
        answer("slot", legal, {"supported": 1}, "correct", 0.0, 2, True),
    ]
    timings = [
        {
            "config": c,
            "rows": 2,
            "decode_tokens": 4,
            "decode_s": 0.1,
            "ttft_s": t,
            "build_s": b,
            "mask_s": 0.0,
        }
        for c, t, b in (("base", 0.01, 0.0), ("slot", 0.02, 0.003))
    ]
    rows = summarise(answers, timings)
    assert [r["fer"] for r in rows] == [0.5, 0.0]
    assert rows[1]["coverage"] == pytest.approx(3 / 4) and rows[1]["entity_valid"] == 1.0
    base, slot = rows
    assert (base["accuracy"], base["wrong"], base["non_answer"]) == (0.0, 0.5, 0.5)
    assert base["failed_answers"] == 0.5 and slot["accuracy"] == 1.0
    assert base["perplexity"] == pytest.approx(math.exp(4.0 / 2))  # 4 nats over 2 tokens
    assert slot["domains"]["legal"]["accuracy"] == 1.0 and not base["constrained"]
    assert base["domains"]["legal"]["non_answer"] == 1.0 and slot["constrained"]
    assert "| slot |" in table(rows) and "-100%" in table(rows)
    md = answer_table(rows, pareto(rows))
    assert "| slot | 2 | 100.0% |" in md and "| legal |" in domain_table(rows)


@pytest.mark.slow
def test_eval_generation_command_writes_its_outputs(tmp_path) -> None:
    from measure.evaluation.generation import main

    out = tmp_path / "ev"
    main(
        [
            "--per-domain",
            "2",
            "--configs",
            "base,slot-frame",
            "--no-overhead",
            "--max-new-tokens",
            "12",
            "--batch-size",
            "6",
            "--out",
            str(out),
            "--format",
            "json",
        ]
    )
    res = json.loads((out / "results.json").read_text())
    assert res["questions"] == 6 and [c["name"] for c in res["configs"]] == [
        "base",
        "slot-frame",
    ]
    assert (out / "pareto.png").stat().st_size > 1000 and (out / "table.md").exists()
    assert (out / "outcomes.png").stat().st_size > 1000
    lines = [json.loads(x) for x in (out / "answers.jsonl").read_text().splitlines()]
    assert len(lines) == 12 and all(x["outcome"] in OUTCOMES for x in lines)
    assert set(res["configs"][1]["domains"]) == {"medical", "finance", "legal"}
    assert "answer accuracy >= 80%" in res["targets"]["checks"]


def test_eval_generation_rejects_unknown_configs() -> None:
    from auditor.errors import UsageError
    from measure.evaluation.generation import main

    with pytest.raises(UsageError, match="unknown configuration"):
        main(["--configs", "base,turbo"])


@pytest.mark.slow
def test_overhead_measures_ours_and_xgrammar(builder, model, kb) -> None:
    pytest.importorskip("xgrammar")
    from auditor.decoding import SlotBuilder
    from measure.generation.overhead import measure_overhead, overhead_table

    qs = held_out_questions(kb, per_domain=2)
    slots = SlotBuilder(builder.auditor, model.tokenizer, model.config.vocab_size)
    rows = measure_overhead(
        model, builder, qs, slot_builder=slots, batch_sizes=(1, 2), steps=6, rounds=1
    )
    assert [r["batch"] for r in rows] == [1, 2]
    for r in rows:
        assert r["kg_us_per_step"] > 0 and r["xgrammar_us_per_step"] > 0
        assert r["decode_step_ms"] > 0 and r["steps_timed"] >= 2
    assert "XGrammar" in overhead_table(rows)


def test_step_against_base_is_the_median_of_per_batch_ratios() -> None:
    from measure.generation.evaluate import Answer
    from measure.generation.questions import Question

    q = Question("q", "medical", "maxDose", "f", "drug:x", "Q?")
    answers = [
        Answer(q, c, "a", 5, 0.1, 0.01, 0.0, {}, [], [], outcome="non_answer")
        for c in ("base", "slot")
    ]
    timings = [  # the machine slows down 3x in batch 2: each batch is still +10%
        {"config": c, "rows": 1, "decode_tokens": 10, "decode_steps": 10, "decode_s": s,
         "ttft_s": 0.0, "build_s": 0.0, "mask_s": 0.0}
        for c, s in (("base", 0.01), ("slot", 0.011), ("base", 0.03), ("slot", 0.033),
                     ("base", 0.01), ("slot", 0.011))
    ]  # fmt: skip
    rows = {r["name"]: r for r in summarise(answers, timings)}
    assert abs(rows["slot"]["step_vs_base_median"] - 0.10) < 1e-9
    assert rows["base"]["step_vs_base_median"] == 0.0
