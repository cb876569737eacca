"""The generation evaluation: questions, figures, Pareto front, the command, the overhead."""

from __future__ import annotations

import json
from datetime import date

import pytest

from auditor.generation.questions import held_out_questions
from auditor.generation.report import pareto, summarise, table


def test_questions_are_held_out_deterministic_and_sized(kb) -> None:
    from engine.train.corpus import verbalise

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
    {"name": "base", "fer": 0.4, "tok_s": 100.0, "ttft_ms": 10.0},
    {"name": "kg-r1", "fer": 0.1, "tok_s": 95.0, "ttft_ms": 30.0},
    {"name": "kg-r2", "fer": 0.2, "tok_s": 90.0, "ttft_ms": 40.0},
    {"name": "none", "fer": None, "tok_s": 200.0, "ttft_ms": 1.0},
]


def test_pareto_front() -> None:
    assert pareto(ROWS) == ["base", "kg-r1"]


def test_summary_and_table_from_answers() -> None:
    from auditor.generation.evaluate import Answer
    from auditor.generation.questions import Question

    q = Question("q1", "medical", "maxDose", "f1", "drug:x", "How much?")
    answers = [
        Answer(
            q,
            "base",
            "a",
            5,
            0.1,
            0.01,
            0.0,
            {"supported": 1, "contradicted": 1},
            [("x", False)],
            [("12", False)],
        ),
        Answer(
            q,
            "kg-r1",
            "b",
            5,
            0.1,
            0.02,
            3.0,
            {"supported": 2, "unverifiable": 1},
            [("x", True)],
            [("12", True)],
        ),
    ]
    timings = [
        {
            "config": c,
            "rows": 1,
            "decode_tokens": 4,
            "decode_s": 0.1,
            "ttft_s": t,
            "build_s": b,
            "mask_s": 0.0,
        }
        for c, t, b in (("base", 0.01, 0.0), ("kg-r1", 0.02, 0.003))
    ]
    rows = summarise(answers, timings)
    assert [r["fer"] for r in rows] == [0.5, 0.0]
    assert rows[1]["coverage"] == pytest.approx(2 / 3) and rows[1]["entity_valid"] == 1.0
    md = table(rows, pareto(rows))
    assert "| kg-r1 |" in md and "-100%" in md


def test_eval_generation_command_writes_its_outputs(tmp_path) -> None:
    from auditor.evaluation.generation import main

    out = tmp_path / "ev"
    main(
        [
            "--per-domain",
            "2",
            "--configs",
            "base,kg-r1",
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
    assert res["questions"] == 6 and [c["name"] for c in res["configs"]] == ["base", "kg-r1"]
    assert (out / "pareto.png").stat().st_size > 1000 and (out / "table.md").exists()
    assert len((out / "answers.jsonl").read_text().splitlines()) == 12


def test_eval_generation_rejects_unknown_configs() -> None:
    from auditor.errors import UsageError
    from auditor.evaluation.generation import main

    with pytest.raises(UsageError, match="unknown configuration"):
        main(["--configs", "base,turbo"])


def test_overhead_measures_ours_and_xgrammar(builder, model, kb) -> None:
    pytest.importorskip("xgrammar")
    from auditor.generation.overhead import measure_overhead, overhead_table

    qs = held_out_questions(kb, per_domain=2)
    rows = measure_overhead(model, builder, qs, batch_sizes=(1, 2), steps=6, rounds=1)
    assert [r["batch"] for r in rows] == [1, 2]
    for r in rows:
        assert r["kg_us_per_step"] > 0 and r["xgrammar_us_per_step"] > 0
        assert r["decode_step_ms"] > 0 and r["steps_timed"] >= 2
    assert "XGrammar" in overhead_table(rows)
