"""``kgaudit bench constraint``: per-step host cost of KG-constrained decoding against XGrammar
on the same model, questions and allowed strings, and of the answer slot, as a share of the
model's decode step (measured in the same run). See :mod:`measure.generation.overhead`.
"""

from __future__ import annotations

import json

import click

from auditor.errors import UsageError


@click.command("constraint")
@click.option("--model", "model_name", default="default", show_default=True)
@click.option("--batch", "batches", default="1,8", show_default=True, help="Batch sizes.")
@click.option("--steps", default=48, show_default=True, type=click.IntRange(2, 200))
@click.option("--rounds", default=3, show_default=True, type=click.IntRange(1, 50))
@click.option("--per-domain", default=8, show_default=True, type=click.IntRange(1, 200))
@click.option("--threads", default=1, show_default=True, type=click.IntRange(1, 64))
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text")
def bench_constraint_command(
    model_name: str, batches: str, steps: int, rounds: int, per_domain: int, threads: int, fmt: str
) -> None:
    """µs per decode step of the KG constraint vs XGrammar (same allowed strings)."""
    try:
        sizes = [int(b) for b in batches.split(",") if b.strip()]
    except ValueError:
        raise UsageError(f"--batch must list integers, got {batches!r}") from None
    if not sizes or min(sizes) < 1:
        raise UsageError("--batch must list batch sizes >= 1")
    import torch

    from auditor import get_auditor
    from auditor.decoding import ConstraintBuilder, SlotBuilder
    from engine import load_model
    from measure.generation.overhead import measure_overhead, overhead_table
    from measure.generation.questions import held_out_questions

    torch.set_num_threads(threads)
    auditor = get_auditor()
    model = load_model(model_name, device="cpu")
    builder = ConstraintBuilder(auditor, model.tokenizer, model.config.vocab_size)
    questions = held_out_questions(auditor.kb, per_domain=per_domain)
    builder.build(questions[0].question, questions[0].domain)  # lexicon, linker: not timed
    slots = SlotBuilder(auditor, model.tokenizer, model.config.vocab_size)
    rows = measure_overhead(
        model,
        builder,
        questions,
        slot_builder=slots,
        batch_sizes=sizes,
        steps=steps,
        rounds=rounds,
    )
    if fmt == "json":
        click.echo(json.dumps(rows, indent=2))
        return
    click.echo(
        f"KG constraint vs XGrammar, model {model_name}, {threads} thread(s), {rounds} rounds x "
        f"{steps} steps per batch size; medians (wall and thread CPU time)"
    )
    click.echo(overhead_table(rows))
