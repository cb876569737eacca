"""``kgaudit engine train|eval|info``: the default model's commands (grouped in engine.cli).

torch is imported inside the commands only.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from engine.cli_common import user_errors
from knowledge_graphs.errors import UsageError


@click.command("train")
@click.option(
    "--out",
    "out_dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Where to write the model (default: the shipped engine/default_model).",
)
@click.option(
    "--steps", type=click.IntRange(1), default=None, help="Optimizer steps (default 2000)."
)
@click.option(
    "--threads",
    type=click.IntRange(1),
    default=None,
    help="CPU threads (default 1: reproducible, and fastest when other jobs share the CPU).",
)
@click.option("--seed", type=int, default=0, show_default=True)
@click.option(
    "--max-minutes",
    type=click.FloatRange(0.1),
    default=None,
    help="Stop training past this wall time (default 11; the result then depends on speed).",
)
@click.option("--no-progress", is_flag=True, help="Hide the progress bar.")
def train_command(
    out_dir: Path | None,
    steps: int | None,
    threads: int | None,
    seed: int,
    max_minutes: float | None,
    no_progress: bool,
) -> None:
    """Train the default model on the verbalised knowledge graphs (fixed seed, CPU, <= 15 min)."""
    from engine.loader import DEFAULT_MODEL_DIR
    from engine.train.trainer import TrainConfig, train

    with user_errors():
        cfg = TrainConfig(seed=seed)
        cfg.steps = steps or cfg.steps
        cfg.threads = threads or cfg.threads
        cfg.max_minutes = max_minutes or cfg.max_minutes
        report = train(
            cfg,
            out_dir or DEFAULT_MODEL_DIR,
            progress=not no_progress,
            log=lambda m: click.echo(m, err=True),
        )
    click.echo(summary(report))


@click.command("eval")
@click.option("--model", "model_name", default="default", show_default=True)
@click.option("--json", "as_json", is_flag=True, help="Print the whole report as JSON.")
def eval_command(model_name: str, as_json: bool) -> None:
    """Held-out perplexity, facts reproduced, expert load and KV-cache quantization cost."""
    from engine.loader import load_model
    from engine.train.corpus import build_corpus
    from engine.train.evaluate import evaluate
    from knowledge_graphs import load_graphs

    with user_errors():
        model = load_model(model_name, device="cpu")
        if model.tokenizer is None:
            raise UsageError(
                f"the model {model_name} has no tokenizer.json to encode the corpus with."
            )
        kb = load_graphs()
        report = evaluate(
            model,
            model.tokenizer,
            build_corpus(kb.facts, kb.entities),
            log=lambda m: click.echo(m, err=True),
        )
    click.echo(json.dumps(report, indent=2) if as_json else summary(report))


@click.command("info")
@click.option("--model", "model_name", default="default", show_default=True)
def info_command(model_name: str) -> None:
    """Print a checkpoint's configuration and size."""
    from engine.loader import load_model

    with user_errors():
        model = load_model(model_name, device="cpu")
    cfg = model.config.to_dict()
    cfg["parameters"] = sum(p.numel() for p in model.parameters())
    cfg["tokenizer"] = model.tokenizer is not None
    click.echo(json.dumps(cfg, indent=2))


def summary(report: dict[str, Any]) -> str:
    """A few lines of the training / evaluation report."""
    lines = []
    if "parameters" in report:
        lines.append(
            f"parameters {report['parameters']:,} ({report['active_parameters_per_token']:,} active per "
            f"token), {report['size_on_disk_bytes'] / 2**20:.1f} MiB on disk, "
            f"{report['steps']} steps in {report['training_seconds']:.0f} s"
        )
    lines.append(
        f"held-out perplexity {report['held_out_perplexity']}, train {report['train_perplexity']}"
    )
    share = report["fact_reproduction"]["share"]
    lines.append(
        f"facts reproduced: question-answer {share.get('qa', 0):.1%}, statements {share.get('statement', 0):.1%}"
    )
    load = report["expert_load"]
    lines.append(
        f"expert load: max {load['max_share_over_ideal']:.2f}x / min {load['min_share_over_ideal']:.2f}x "
        f"of ideal, CV {load['coefficient_of_variation']:.3f}"
    )
    for kind, q in report.get("kv_cache_quality", {}).items():
        if isinstance(q, dict):
            lines.append(
                f"KV {kind}: perplexity {q['perplexity']}, mean |logit drift| {q['mean_abs_logit_drift']}, "
                f"top-1 agreement {q['top1_agreement']:.2%}"
            )
    return "\n".join(lines)
