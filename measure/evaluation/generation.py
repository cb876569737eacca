"""``kgaudit eval generation``: the measured effect of KG-constrained decoding.

Generates held-out questions from the graphs (``measure.generation.questions``), answers them
with the default model under each configuration (unconstrained / neighbourhood-constrained at
radius 1 and 2 / answer-slot constrained, top-1 vs top-2 experts, fp / int8 / int4 KV cache),
audits every answer, grades it against the asked fact (answer accuracy, wrong answers,
non-answers; ``measure.generation.grading``), scores its fluency, and writes to ``--out``:
``results.json`` (figures per configuration and domain, Pareto front, overhead), ``table.md``,
``pareto.png`` (accuracy vs throughput), ``outcomes.png``, ``answers.jsonl``. ``--overhead`` (on by default) adds the per-step cost of the
constraint against XGrammar at batch 1 and 8. torch is imported only when the command runs.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import click

from auditor.errors import UsageError


def _configs(names: str) -> list[Any]:
    from measure.generation.evaluate import CONFIGS

    wanted = [n.strip() for n in names.split(",") if n.strip()]
    unknown = [n for n in wanted if n not in CONFIGS]
    if unknown or not wanted:
        raise UsageError(
            f"unknown configuration {', '.join(unknown) or '(none given)'}; "
            f"choose from {', '.join(CONFIGS)}"
        )
    return [CONFIGS[n] for n in wanted]


@click.command("generation")
@click.option("--per-domain", default=80, show_default=True, help="Questions per domain.")
@click.option("--seed", default=0, show_default=True, help="Seed of the question sample.")
@click.option(
    "--configs",
    "config_names",
    default="base,slot-frame,slot,slot-mask,kg-r1,kg-r2,kg-r1-intent,top1,kg-r1-top1,int8,"
    "kg-r1-int8,int4,kg-r1-int4",
    show_default=True,
    help="Comma-separated configurations.",
)
@click.option("--model", "model_name", default="default", show_default=True)
@click.option("--batch-size", default=8, show_default=True, type=click.IntRange(1, 64))
@click.option("--max-new-tokens", default=40, show_default=True, type=click.IntRange(1, 200))
@click.option("--as-of", default="2025-06-30", show_default=True, help="Date of the audits.")
@click.option("--threads", default=1, show_default=True, type=click.IntRange(1, 64))
@click.option("--common-words", default=0, show_default=True, help="Extra free words (wordfreq).")
@click.option(
    "--primary",
    default="slot-frame",
    show_default=True,
    help="The constrained configuration the targets judge (against base).",
)
@click.option("--overhead/--no-overhead", default=True, show_default=True)
@click.option(
    "--out",
    "out_dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path("generation-eval"),
    show_default=True,
)
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text")
def generation_cli(
    per_domain: int,
    seed: int,
    config_names: str,
    model_name: str,
    batch_size: int,
    max_new_tokens: int,
    as_of: str,
    threads: int,
    common_words: int,
    primary: str,
    overhead: bool,
    out_dir: Path,
    fmt: str,
) -> None:
    """Answer held-out questions unconstrained and KG-constrained, audit, report."""
    if per_domain < 1:
        raise UsageError("--per-domain must be at least 1")
    configs = _configs(config_names)
    import torch

    from auditor import get_auditor
    from auditor.stages import parse_as_of
    from engine import load_model
    from measure.generation import evaluate as ev
    from measure.generation import report, report_views
    from measure.generation.questions import held_out_questions

    torch.set_num_threads(threads)
    log = (lambda m: click.echo(m, err=True)) if fmt == "text" else (lambda _: None)
    t0 = time.perf_counter()
    auditor = get_auditor()
    model = load_model(model_name, device="cpu")
    if model.tokenizer is None:
        raise UsageError(f"the model {model_name} has no tokenizer.json")
    questions = held_out_questions(
        auditor.kb, per_domain=per_domain, seed=seed, as_of=parse_as_of(as_of)
    )
    evaluator = ev.Evaluator(
        model, auditor, max_new_tokens=max_new_tokens, as_of=as_of, common_words=common_words
    )
    warm = questions[0]  # build the lexicon, load the linker, warm the auditor before timing
    evaluator.builder(1).build(warm.question, warm.domain)
    auditor.audit("Warm-up: 1 mg of aspirin.", domain="medical", as_of=as_of)
    log(f"{len(questions)} questions, {len(configs)} configurations")
    answers, timings = evaluator.run(questions, configs, batch_size=batch_size, log=log)
    rows = report.summarise(answers, timings)
    front = report.pareto(rows)
    out_dir.mkdir(parents=True, exist_ok=True)
    plot = report_views.plot(rows, front, out_dir / "pareto.png")
    report_views.plot_outcomes(rows, out_dir / "outcomes.png")
    result: dict[str, Any] = {
        "questions": len(questions),
        "per_domain": per_domain,
        "seed": seed,
        "model": model_name,
        "batch_size": batch_size,
        "max_new_tokens": max_new_tokens,
        "threads": threads,
        "configs": rows,
        "pareto": front,
        "targets": targets(rows, primary),
    }
    if overhead:
        from measure.generation.overhead import measure_overhead, overhead_table

        result["overhead"] = measure_overhead(
            model, evaluator.builder(1), questions, slot_builder=evaluator.slot_builder, log=log
        )
        (out_dir / "overhead.md").write_text(overhead_table(result["overhead"]) + "\n")
    result["seconds"] = round(time.perf_counter() - t0, 1)
    (out_dir / "results.json").write_text(json.dumps(result, indent=2) + "\n")
    md = "\n\n".join(
        [
            report_views.answer_table(rows, front),
            report_views.domain_table(rows),
            report_views.table(rows),
        ]
    )
    (out_dir / "table.md").write_text(md + "\n")
    with (out_dir / "answers.jsonl").open("w") as fh:
        for a in answers:
            fh.write(json.dumps(a.to_dict()) + "\n")
    if fmt == "json":
        click.echo(json.dumps(result, indent=2))
        return
    click.echo(md)
    click.echo(f"\nplot: {plot}")
    if overhead:
        click.echo("\n" + overhead_table(result["overhead"]))
    for line in result["targets"]["lines"]:
        click.echo(line)
    click.echo(f"\n{result['seconds']} s · results in {out_dir}")


def targets(rows: list[dict[str, Any]], primary: str = "slot-frame") -> dict[str, Any]:
    """Issue 16's targets for ``primary`` against ``base``: answer accuracy >= 80 % and >= 3x
    the unconstrained model's, wrong answers <= 5 %, non-answers <= 10 %, decode step <= +10 %;
    and every entity span of a constrained configuration graph-valid."""
    by = {r["name"]: r for r in rows}
    kg = [r for r in rows if r["name"] != "base" and r.get("constrained")]
    spans = sum(r["entity_spans"] for r in kg)
    valid = sum(round((r["entity_valid"] or 0) * r["entity_spans"]) for r in kg)
    out: dict[str, Any] = {"constrained_entity_spans": spans, "graph_valid": valid, "lines": []}
    out["lines"].append(
        f"constrained entity spans graph-valid: {valid}/{spans}"
        + (f" ({100 * valid / spans:.1f}%)" if spans else "")
    )
    if primary not in by and kg:  # not run: judge the first constrained configuration run
        primary = kg[0]["name"]
    base, best = by.get("base"), by.get(primary)
    if not (base and best):
        return out
    # each batch's decode step against base's on the same batch (run right before it), the
    # median over batches: the pooled mean moves with the machine's load between batches
    step = best.get("step_vs_base_median")
    if step is None and base.get("step_ms"):
        step = best["step_ms"] / base["step_ms"] - 1
    ratio = best["accuracy"] / base["accuracy"] if base["accuracy"] else None
    checks = [
        ("answer accuracy >= 80%", best["accuracy"] >= 0.8, f"{100 * best['accuracy']:.1f}%"),
        (
            "accuracy >= 3x unconstrained",
            ratio is None or ratio >= 3,
            "base has none" if ratio is None else f"{ratio:.1f}x",
        ),
        ("wrong answers <= 5%", best["wrong"] <= 0.05, f"{100 * best['wrong']:.1f}%"),
        ("non-answers <= 10%", best["non_answer"] <= 0.10, f"{100 * best['non_answer']:.1f}%"),
        (
            "decode step <= +10%",
            step is not None and step <= 0.10,
            "–" if step is None else f"{100 * step:+.1f}%",
        ),
    ]
    out.update(primary=primary, accuracy_ratio=ratio, step_cost=step)
    out["checks"] = {name: {"met": ok, "value": v} for name, ok, v in checks}
    out["met"] = all(ok for _, ok, _ in checks)
    for name, ok, v in checks:
        out["lines"].append(f"{primary} vs base — {name}: {v} {'MET' if ok else 'NOT MET'}")
    return out


def main(args: list[str]) -> None:
    """Entry point used by ``kgaudit eval generation`` (``measure/eval_cmd.py``)."""
    generation_cli.main(args=args, prog_name="kgaudit eval generation", standalone_mode=False)
