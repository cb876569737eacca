"""``kgaudit bench engine``: the engine against ``transformers`` on one checkpoint, same run.

For each batch size both backends generate ``new_tokens`` greedy tokens after a random
``prompt_tokens``-token prompt, ``repeats`` times, alternating; the median run is reported:

- TTFT: from the call to the first new token (prefill + one sampling step);
- prefill tokens/s: B·P / TTFT;
- decode tokens/s: B·(N − 1) / (time of the last token − time of the first), on the wall clock
  and per second of the process's CPU time (robust when other jobs share the CPU);
- peak memory: CUDA ``max_memory_allocated``; on CPU the peak resident set (Linux VmHWM) above
  the resident set after imports, in a fresh process (``measure.bench.engine_memory``) that
  loads the model and generates; and the same for generating alone, above the loaded model.

On CUDA it also reports the share of the memory-bandwidth roofline reached in decode: bytes
read per step (all non-expert weights, the experts the batch selects — expected distinct
experts E·(1 − (1 − K/E)^B) per layer — and the KV cache) ÷ step time ÷ peak bandwidth.

On CPU it adds rows for the engine with fp16 weights (``engine.model.quantize_weights_``:
fbgemm GEMMs with fp16 weights, fp32 activations and accumulation), timed in the same
alternation against the same transformers runs, with their logit drift from the fp32 engine:
both engines decode the fp32 engine's greedy continuation of the prompt (teacher forcing,
prefill + one decode step per token), and the table gives the largest and mean absolute
difference of their logits and how often their top-1 tokens agree.
"""

from __future__ import annotations

import json
import tempfile
from dataclasses import asdict
from pathlib import Path
from typing import Any

import click
import torch

from engine.cli_common import KV_CHOICES, device_for, user_errors
from engine.config import ModelConfig, named_config
from knowledge_graphs.errors import UsageError
from measure.bench.engine_memory import peak_memory
from measure.bench.engine_runs import (
    Run,
    load_engine,
    load_hf,
    logit_drift,
    median_run,
    run_engine,
    run_transformers,
)

# Peak HBM bandwidth (bytes/s) by device-name fragment; override with --peak-bandwidth.
PEAK_BANDWIDTH = {
    "H200": 4.8e12,
    "H100 SXM": 3.35e12,
    "H100 PCIe": 2.0e12,
    "H100": 3.35e12,
    "A100-SXM4-80GB": 2.04e12,
    "A100": 1.555e12,
    "L40S": 0.864e12,
    "L4": 0.3e12,
    "A10": 0.6e12,
    "4090": 1.008e12,
}


def build_bench_checkpoint(path: Path, size: str = "bench-20m", seed: int = 0) -> Path:
    """A random ~20M-parameter Mixtral saved by ``transformers`` itself (per-expert names)."""
    from transformers import MixtralConfig, MixtralForCausalLM

    c = named_config(size)
    hf = MixtralConfig(
        vocab_size=c.vocab_size,
        hidden_size=c.dim,
        intermediate_size=c.intermediate_size,
        num_hidden_layers=c.n_layers,
        num_attention_heads=c.n_heads,
        num_key_value_heads=c.n_kv_heads,
        num_local_experts=c.n_experts,
        num_experts_per_tok=c.top_k,
        max_position_embeddings=c.max_seq_len,
        rope_parameters={"rope_type": "default", "rope_theta": c.rope_theta},
        bos_token_id=None,
        eos_token_id=None,
        pad_token_id=0,
    )
    torch.manual_seed(seed)
    MixtralForCausalLM(hf).save_pretrained(path)
    return path


def weight_kinds(device: torch.device) -> tuple[str, ...]:
    """The engine weight formats benchmarked on ``device``: fp, plus fp16 on an fbgemm CPU."""
    from engine.model import fp16_weights_supported

    return ("fp", "fp16") if device.type == "cpu" and fp16_weights_supported() else ("fp",)


def decode_bytes_per_step(
    cfg: ModelConfig, batch: int, context: int, dtype_bytes: int, kv_bytes: float
) -> float:
    """Bytes a decode step must read: weights touched by the batch plus its KV cache."""
    expert = 3 * cfg.dim * cfg.intermediate_size * dtype_bytes
    E, K = cfg.n_experts, cfg.top_k
    hit = E * (1 - (1 - K / E) ** batch)
    head_dim = cfg.head_dim or 0
    attn = (
        cfg.dim * (cfg.n_heads + 2 * (cfg.n_kv_heads or 0)) * head_dim
        + cfg.n_heads * head_dim * cfg.dim
    )
    per_layer = attn * dtype_bytes + hit * expert + cfg.dim * E * dtype_bytes
    lm_head = cfg.vocab_size * cfg.dim * dtype_bytes
    return cfg.n_layers * per_layer + lm_head + batch * context * kv_bytes


def run_bench(
    model_dir: Path,
    *,
    batch_sizes: tuple[int, ...] = (1, 8),
    prompt_tokens: int = 64,
    new_tokens: int = 64,
    repeats: int = 3,
    device: str = "auto",
    kv_cache: str = "fp",
    memory: bool = True,
    peak_bandwidth: float | None = None,
    weights: tuple[str, ...] | None = None,
    log: Any = print,
) -> dict[str, Any]:
    """Measure both backends; return rows of absolute figures and engine/transformers ratios.

    ``rows`` hold the engine in the bench dtype; ``quantized_rows`` the engine with other
    weight formats (``weights``; default: fp16 too on CPU), each with its logit drift.
    """
    dev = torch.device(
        "cuda"
        if device == "auto" and torch.cuda.is_available()
        else ("cpu" if device == "auto" else device)
    )
    kinds = tuple(weights) if weights is not None else weight_kinds(dev)
    if "fp" not in kinds:
        kinds = ("fp", *kinds)
    engines = {kind: load_engine(model_dir, dev, kind) for kind in kinds}
    model = engines["fp"]
    hf, cfg = load_hf(model_dir, dev)
    n_params = sum(p.numel() for p in model.parameters())
    name = torch.cuda.get_device_name(dev) if dev.type == "cuda" else "cpu"
    peak_bw = peak_bandwidth or next((v for k, v in PEAK_BANDWIDTH.items() if k in name), None)
    result: dict[str, Any] = {
        "model": str(model_dir),
        "parameters": n_params,
        "device": name,
        "dtype": str(model.dtype),
        "torch_threads": torch.get_num_threads(),
        "prompt_tokens": prompt_tokens,
        "new_tokens": new_tokens,
        "repeats": repeats,
        "kv_cache": kv_cache,
        "weights": list(kinds),
        "rows": [],
        "quantized_rows": [],
    }
    for B in batch_sizes:
        for eng in engines.values():  # warm-up
            run_engine(eng, B, prompt_tokens, 4, kv_cache)
        run_transformers(hf, cfg, B, prompt_tokens, 4)
        eng_runs: dict[str, list[Run]] = {kind: [] for kind in kinds}
        ref = []
        for _ in range(repeats):  # alternate: every engine format, then transformers
            for kind, eng in engines.items():
                eng_runs[kind].append(run_engine(eng, B, prompt_tokens, new_tokens, kv_cache))
            ref.append(run_transformers(hf, cfg, B, prompt_tokens, new_tokens))
        r = median_run(ref)
        for kind in kinds:
            row = _row(B, kind, median_run(eng_runs[kind]), r)
            kv_bytes = (
                2
                * cfg.n_layers
                * (cfg.n_kv_heads or 0)
                * (cfg.head_dim or 0)
                * model.dtype.itemsize
            )
            weight_bytes = 2 if kind == "fp16" else model.dtype.itemsize
            step_bytes = decode_bytes_per_step(
                cfg, B, prompt_tokens + new_tokens // 2, weight_bytes, kv_bytes
            )
            row["engine"]["decode_bandwidth_gb_s"] = step_bytes / row["engine"]["step_s"] / 1e9
            if peak_bw:
                row["engine"]["roofline_share"] = step_bytes / row["engine"]["step_s"] / peak_bw
            if kind != "fp":
                row["drift"] = logit_drift(
                    model, engines[kind], B, prompt_tokens, min(new_tokens, 32)
                )
            if memory:
                _add_memory(row, model_dir, B, prompt_tokens, new_tokens, dev, kv_cache, kind)
            result["rows" if kind == "fp" else "quantized_rows"].append(row)
            log(format_row(row))
    return result


def _row(batch: int, weights: str, e: Run, r: Run) -> dict[str, Any]:
    return {
        "batch": batch,
        "weights": weights,
        "engine": asdict(e),
        "transformers": asdict(r),
        "ratio": {
            "decode_tokens_per_s": e.decode_tokens_per_s / r.decode_tokens_per_s,
            "decode_tokens_per_cpu_s": e.decode_tokens_per_cpu_s / r.decode_tokens_per_cpu_s,
            "prefill_tokens_per_s": e.prefill_tokens_per_s / r.prefill_tokens_per_s,
            "ttft": e.ttft_s / r.ttft_s,
        },
    }


def _add_memory(
    row: dict[str, Any],
    model_dir: Path,
    batch: int,
    prompt_tokens: int,
    new_tokens: int,
    dev: torch.device,
    kv_cache: str,
    weights: str,
) -> None:
    me = peak_memory(
        "engine", model_dir, batch, prompt_tokens, new_tokens, str(dev), kv_cache, weights
    )
    mr = peak_memory(
        "transformers", model_dir, batch, prompt_tokens, new_tokens, str(dev), kv_cache
    )
    row["engine"]["peak_memory_bytes"] = me["peak_bytes"]
    row["transformers"]["peak_memory_bytes"] = mr["peak_bytes"]
    row["engine"]["generate_peak_memory_bytes"] = me["generate_peak_bytes"]
    row["transformers"]["generate_peak_memory_bytes"] = mr["generate_peak_bytes"]
    row["ratio"]["peak_memory"] = me["peak_bytes"] / mr["peak_bytes"]
    row["ratio"]["generate_peak_memory"] = me["generate_peak_bytes"] / max(
        mr["generate_peak_bytes"], 1
    )


def _weights_label(row: dict[str, Any], dtype: str) -> str:
    return dtype.removeprefix("torch.") if row.get("weights", "fp") == "fp" else row["weights"]


def format_row(row: dict[str, Any]) -> str:
    e, r, x = row["engine"], row["transformers"], row["ratio"]
    mem = f" | peak mem {x['peak_memory']:.2f}x" if "peak_memory" in x else ""
    roof = f" | roofline {e['roofline_share']:.1%}" if "roofline_share" in e else ""
    drift = (
        f" | logit drift max {row['drift']['max_abs_logit_drift']:.2g} "
        f"mean {row['drift']['mean_abs_logit_drift']:.2g}, "
        f"top-1 agreement {row['drift']['top1_agreement']:.1%}"
        if "drift" in row
        else ""
    )
    return (
        f"batch {row['batch']} ({row.get('weights', 'fp')} weights): decode "
        f"{e['decode_tokens_per_s']:.0f} vs {r['decode_tokens_per_s']:.0f} tok/s "
        f"({x['decode_tokens_per_s']:.2f}x; per CPU-second {x['decode_tokens_per_cpu_s']:.2f}x) | "
        f"prefill {x['prefill_tokens_per_s']:.2f}x | "
        f"TTFT {e['ttft_s'] * 1e3:.1f} vs {r['ttft_s'] * 1e3:.1f} ms{mem}{roof}{drift}"
    )


def _mib(side: dict[str, Any], key: str = "peak_memory_bytes") -> str:
    return f"{side[key] / 2**20:.0f}" if key in side else "-"


def format_table(result: dict[str, Any]) -> str:
    """Markdown table: one line per weight format and batch size (engine / transformers)."""
    lines = [
        f"model {result['model']} ({result['parameters'] / 1e6:.1f}M parameters), {result['device']}, "
        f"{result['dtype']}, {result['torch_threads']} threads, prompt {result['prompt_tokens']}, "
        f"new {result['new_tokens']}, median of {result['repeats']}, KV cache {result['kv_cache']}",
        "| engine weights | batch | decode tok/s engine | transformers | ratio | ratio per CPU-s | "
        "prefill ratio | TTFT engine / transformers (ms) | peak memory load+generate (MiB) | "
        "generate only (MiB) | logit drift vs fp32 engine: max / mean abs, top-1 agreement |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for row in result["rows"] + result.get("quantized_rows", []):
        e, r, x = row["engine"], row["transformers"], row["ratio"]
        d = row.get("drift")
        drift = (
            f"{d['max_abs_logit_drift']:.2g} / {d['mean_abs_logit_drift']:.2g}, "
            f"{d['top1_agreement']:.1%}"
            if d
            else "-"
        )
        lines.append(
            f"| {_weights_label(row, result['dtype'])} | {row['batch']} | "
            f"{e['decode_tokens_per_s']:.0f} | {r['decode_tokens_per_s']:.0f} | "
            f"{x['decode_tokens_per_s']:.2f}x | {x['decode_tokens_per_cpu_s']:.2f}x | "
            f"{x['prefill_tokens_per_s']:.2f}x | {e['ttft_s'] * 1e3:.1f} / {r['ttft_s'] * 1e3:.1f} | "
            f"{_mib(e)} / {_mib(r)} ({x.get('peak_memory', float('nan')):.2f}x) | "
            f"{_mib(e, 'generate_peak_memory_bytes')} / {_mib(r, 'generate_peak_memory_bytes')} | "
            f"{drift} |"
        )
    return "\n".join(lines)


@click.command("engine")
@click.option(
    "--model",
    "model_dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Checkpoint directory (default: a random ~20M-parameter Mixtral built with transformers).",
)
@click.option("--batch-sizes", default="1,8", show_default=True)
@click.option("--prompt-tokens", type=click.IntRange(1), default=64, show_default=True)
@click.option("--new-tokens", type=click.IntRange(2), default=64, show_default=True)
@click.option("--repeats", type=click.IntRange(1), default=3, show_default=True)
@click.option("--device", default="auto", show_default=True)
@click.option("--kv-cache", type=click.Choice(KV_CHOICES), default="fp", show_default=True)
@click.option(
    "--no-memory",
    is_flag=True,
    help="Skip the peak-memory probes (two extra processes per batch size).",
)
@click.option(
    "--peak-bandwidth",
    type=float,
    default=None,
    help="Device peak bandwidth in GB/s for the roofline share.",
)
@click.option(
    "--threads",
    type=click.IntRange(1),
    default=None,
    help="CPU intra-op threads for both backends (default: torch's choice).",
)
@click.option("--json", "as_json", is_flag=True)
def bench_engine_command(
    model_dir: Path | None,
    batch_sizes: str,
    prompt_tokens: int,
    new_tokens: int,
    repeats: int,
    device: str,
    kv_cache: str,
    no_memory: bool,
    peak_bandwidth: float | None,
    threads: int | None,
    as_json: bool,
) -> None:
    """Decode and prefill speed, TTFT and peak memory: engine vs transformers, as ratios."""
    if threads:
        torch.set_num_threads(threads)
    try:
        sizes = tuple(int(b) for b in batch_sizes.split(","))
    except ValueError:
        raise UsageError(
            f"--batch-sizes must be comma-separated integers, got {batch_sizes!r}."
        ) from None
    try:
        import transformers  # noqa: F401
    except ModuleNotFoundError:
        raise UsageError(
            "'kgaudit bench engine' compares against transformers; install the dev extra."
        ) from None
    with tempfile.TemporaryDirectory() as tmp, user_errors():
        path = model_dir or build_bench_checkpoint(Path(tmp) / "bench-20m")
        result = run_bench(
            path,
            batch_sizes=sizes,
            prompt_tokens=prompt_tokens,
            new_tokens=new_tokens,
            repeats=repeats,
            device=str(device_for(device)),
            kv_cache=kv_cache,
            memory=not no_memory,
            peak_bandwidth=peak_bandwidth * 1e9 if peak_bandwidth else None,
            log=lambda m: click.echo(m, err=True),
        )
    click.echo(json.dumps(result, indent=2) if as_json else format_table(result))
