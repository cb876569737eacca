"""Command-line entry points of the engine (registered by ``services.cli.main``).

``kgaudit generate``, ``kgaudit engine train|eval|info`` and ``kgaudit bench engine``. torch is
imported inside the commands, never at import time, so ``kgaudit --help`` stays fast.
User errors are raised as ``UsageError`` / ``DataError`` (exit code 2, one sentence).
"""

from __future__ import annotations

import json
import sys

import click

from engine.cli_common import KV_CHOICES, device_for, user_errors
from engine.train.cli import eval_command, info_command, train_command
from knowledge_graphs.errors import UsageError


@click.command("generate")
@click.option(
    "--model",
    "model_name",
    default="default",
    show_default=True,
    help="'default' (the project's model) or a Hugging Face MoE checkpoint directory.",
)
@click.option(
    "--prompt",
    "prompts",
    required=True,
    multiple=True,
    help="Prompt text; repeat the option to generate for several prompts in one batch.",
)
@click.option("--max-new-tokens", default=64, show_default=True, type=click.IntRange(0))
@click.option(
    "--temperature",
    default=0.0,
    show_default=True,
    type=click.FloatRange(0.0),
    help="0 decodes greedily.",
)
@click.option(
    "--top-p", default=1.0, show_default=True, type=click.FloatRange(0.0, 1.0, min_open=True)
)
@click.option("--top-k", default=0, show_default=True, type=click.IntRange(0))
@click.option(
    "--repetition-penalty",
    default=1.0,
    show_default=True,
    type=click.FloatRange(0.0, min_open=True),
)
@click.option("--seed", type=int, default=None, help="Seed for sampling (reproducible output).")
@click.option(
    "--stop", "stop_strings", multiple=True, help="Stop a row once its text contains this string."
)
@click.option(
    "--kv-cache",
    type=click.Choice(KV_CHOICES),
    default="fp",
    show_default=True,
    help="KV-cache precision: the model dtype, or int8/int4 quantized (KIVI).",
)
@click.option("--stream", is_flag=True, help="Print text as it is generated (one prompt only).")
@click.option("--stats", is_flag=True, help="Print time to first token and tokens/s to stderr.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object per prompt.")
@click.option("--device", default="auto", show_default=True, help="auto, cpu or cuda[:N].")
def generate_command(
    model_name: str,
    prompts: tuple[str, ...],
    max_new_tokens: int,
    temperature: float,
    top_p: float,
    top_k: int,
    repetition_penalty: float,
    seed: int | None,
    stop_strings: tuple[str, ...],
    kv_cache: str,
    stream: bool,
    stats: bool,
    as_json: bool,
    device: str,
) -> None:
    """Generate text with the embedded MoE engine."""
    from engine.generation import stream as start
    from engine.loader import load_model

    if stream and len(prompts) > 1:
        raise UsageError("--stream prints one prompt's text as it grows; give a single --prompt.")
    with user_errors():
        model = load_model(model_name, device=device_for(device))
        tok = model.tokenizer
        if tok is None:
            raise UsageError(
                f"the model {model_name} has no tokenizer.json, so text prompts cannot be encoded."
            )
        ids, mask = tok.batch(list(prompts))
        gen = start(
            model,
            ids,
            max_new_tokens,
            attention_mask=mask,
            temperature=temperature,
            top_p=top_p,
            top_k=top_k,
            repetition_penalty=repetition_penalty,
            seed=seed,
            stop_strings=stop_strings,
            tokenizer=tok,
            kv_cache=kv_cache,
        )
        if stream:
            shown = ""
            for _ in gen:
                text = tok.decode(gen.new_ids()[0].tolist())
                if not text.endswith("\ufffd"):  # wait for the rest of a multi-byte character
                    click.echo(text[len(shown) :], nl=False)
                    sys.stdout.flush()
                    shown = text
            click.echo(tok.decode(gen.new_ids()[0].tolist())[len(shown) :])
        out = gen.result()
    texts = [
        _trim(tok.decode(row[: s.new_tokens]), stop_strings)
        for row, s in zip(out.tolist(), gen.stats, strict=True)
    ]
    if as_json:
        for p, t, s in zip(prompts, texts, gen.stats, strict=True):
            click.echo(
                json.dumps(
                    {
                        "prompt": p,
                        "text": t,
                        "new_tokens": s.new_tokens,
                        "stop_reason": s.stop_reason,
                        "ttft_s": round(s.ttft_s, 4),
                        "decode_tokens_per_s": round(s.decode_tokens_per_s, 1),
                    }
                )
            )
    elif not stream:
        for t in texts:
            click.echo(t)
    if stats:
        for i, s in enumerate(gen.stats):
            click.echo(
                f"prompt {i + 1}: {s.prompt_tokens} prompt tokens, {s.new_tokens} new, "
                f"TTFT {s.ttft_s * 1e3:.1f} ms, {s.decode_tokens_per_s:.1f} tok/s, "
                f"stopped by {s.stop_reason}",
                err=True,
            )


def _trim(text: str, stop_strings: tuple[str, ...]) -> str:
    """Cut the text before the first stop string it contains."""
    cut = min((i for i in (text.find(s) for s in stop_strings) if i >= 0), default=len(text))
    return text[:cut]


@click.group("engine")
def engine_group() -> None:
    """Train, evaluate and inspect the embedded MoE model."""


engine_group.add_command(train_command)
engine_group.add_command(eval_command)
engine_group.add_command(info_command)
