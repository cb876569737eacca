"""``kgaudit bench engine``: the engine against ``transformers`` on one checkpoint, same run.

For each batch size both backends generate ``new_tokens`` greedy tokens after a random
``prompt_tokens``-token prompt, ``repeats`` times, alternating; the median run is reported:

- TTFT: from the call to the first new token (prefill + one sampling step);
- prefill tokens/s: B·P / TTFT;
- decode tokens/s: B·(N − 1) / (time of the last token − time of the first), on the wall clock
  and per second of the process's CPU time (robust when other jobs share the CPU);
- peak memory: CUDA ``max_memory_allocated``; on CPU the peak resident set (Linux VmHWM) above
  the resident set after imports, in a fresh process (``engine.bench_memory``) that
  loads the model and generates; and the same for generating alone, above the loaded model.

On CUDA it also reports the share of the memory-bandwidth roofline reached in decode: bytes
read per step (all non-expert weights, the experts the batch selects — expected distinct
experts E·(1 − (1 − K/E)^B) per layer — and the KV cache) ÷ step time ÷ peak bandwidth.
"""

from __future__ import annotations

import statistics
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import torch

from engine.config import ModelConfig, named_config

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


@dataclass
class Run:
    ttft_s: float
    decode_tokens_per_s: float
    prefill_tokens_per_s: float
    step_s: float  # mean decode step, wall clock
    decode_tokens_per_cpu_s: float  # the same per second of this process's CPU time

    @classmethod
    def from_stamps(
        cls,
        start: tuple[float, float],
        stamps: list[tuple[float, float]],
        batch: int,
        prompt_tokens: int,
    ) -> Run:
        """Figures from (wall, cpu) clock readings at the call and at each new token."""
        (w0, _), (w1, c1), (wn, cn) = start, stamps[0], stamps[-1]
        steps = len(stamps) - 1
        return cls(
            ttft_s=w1 - w0,
            decode_tokens_per_s=batch * steps / (wn - w1),
            prefill_tokens_per_s=batch * prompt_tokens / (w1 - w0),
            step_s=(wn - w1) / steps,
            decode_tokens_per_cpu_s=batch * steps / max(cn - c1, 1e-9),
        )


def _clock() -> tuple[float, float]:
    return time.perf_counter(), time.process_time()


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


def _prompt(cfg: ModelConfig, batch: int, prompt_tokens: int, device: torch.device) -> torch.Tensor:
    g = torch.Generator().manual_seed(batch * 1000 + prompt_tokens)
    return torch.randint(3, cfg.vocab_size, (batch, prompt_tokens), generator=g).to(device)


def _sync(device: torch.device) -> None:
    if device.type == "cuda":
        torch.cuda.synchronize()


def run_engine(model: Any, batch: int, prompt_tokens: int, new_tokens: int, kv_cache: str) -> Run:
    from engine.generation import stream

    ids = _prompt(model.config, batch, prompt_tokens, model.device)
    _sync(model.device)
    start = _clock()
    stamps = []
    for _ in stream(model, ids, new_tokens, stop_token_ids=[], kv_cache=kv_cache):
        stamps.append(_clock())  # the step's tokens are on the host: the loop synchronised
    return Run.from_stamps(start, stamps, batch, prompt_tokens)


def run_transformers(
    hf: Any, cfg: ModelConfig, batch: int, prompt_tokens: int, new_tokens: int
) -> Run:
    from transformers.generation.streamers import BaseStreamer

    ids = _prompt(cfg, batch, prompt_tokens, hf.device)

    class Clock(BaseStreamer):  # generate() hands it the prompt, then each step's tokens
        def __init__(self) -> None:
            self.stamps: list[tuple[float, float]] = []

        def put(self, value: torch.Tensor) -> None:
            self.stamps.append(_clock())

        def end(self) -> None:
            pass

    clock = Clock()
    _sync(hf.device)
    start = _clock()
    with torch.inference_mode():
        hf.generate(
            ids,
            attention_mask=torch.ones_like(ids),
            max_new_tokens=new_tokens,
            min_new_tokens=new_tokens,
            do_sample=False,
            pad_token_id=0,
            streamer=clock,
        )
    return Run.from_stamps(start, clock.stamps[1:], batch, prompt_tokens)


def _median(runs: list[Run]) -> Run:
    return Run(*(statistics.median(getattr(r, f) for r in runs) for f in asdict(runs[0])))


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


def _dtype(device: torch.device) -> torch.dtype:
    return torch.bfloat16 if device.type == "cuda" else torch.float32


def _load_hf(model_dir: Path, device: torch.device) -> tuple[Any, ModelConfig]:
    from transformers import AutoModelForCausalLM

    from engine.hf_config import config_from_hf, read_hf_config

    hf = AutoModelForCausalLM.from_pretrained(model_dir, dtype=_dtype(device)).to(device).eval()
    return hf, config_from_hf(read_hf_config(model_dir))


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
    log: Any = print,
) -> dict[str, Any]:
    """Measure both backends; return rows of absolute figures and engine/transformers ratios."""
    from engine.loader import load_model

    dev = torch.device(
        "cuda"
        if device == "auto" and torch.cuda.is_available()
        else ("cpu" if device == "auto" else device)
    )
    model = load_model(model_dir, device=dev, dtype=_dtype(dev))
    hf, cfg = _load_hf(model_dir, dev)
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
        "rows": [],
    }
    for B in batch_sizes:
        run_engine(model, B, prompt_tokens, 4, kv_cache)  # warm-up both
        run_transformers(hf, cfg, B, prompt_tokens, 4)
        eng, ref = [], []
        for _ in range(repeats):
            eng.append(run_engine(model, B, prompt_tokens, new_tokens, kv_cache))
            ref.append(run_transformers(hf, cfg, B, prompt_tokens, new_tokens))
        e, r = _median(eng), _median(ref)
        row: dict[str, Any] = {
            "batch": B,
            "engine": asdict(e),
            "transformers": asdict(r),
            "ratio": {
                "decode_tokens_per_s": e.decode_tokens_per_s / r.decode_tokens_per_s,
                "decode_tokens_per_cpu_s": e.decode_tokens_per_cpu_s / r.decode_tokens_per_cpu_s,
                "prefill_tokens_per_s": e.prefill_tokens_per_s / r.prefill_tokens_per_s,
                "ttft": e.ttft_s / r.ttft_s,
            },
        }
        kv_bytes = (
            2 * cfg.n_layers * (cfg.n_kv_heads or 0) * (cfg.head_dim or 0) * model.dtype.itemsize
        )
        step_bytes = decode_bytes_per_step(
            cfg, B, prompt_tokens + new_tokens // 2, model.dtype.itemsize, kv_bytes
        )
        row["engine"]["decode_bandwidth_gb_s"] = step_bytes / e.step_s / 1e9
        if peak_bw:
            row["engine"]["roofline_share"] = step_bytes / e.step_s / peak_bw
        if memory:
            from engine.bench_memory import peak_memory

            me = peak_memory("engine", model_dir, B, prompt_tokens, new_tokens, str(dev), kv_cache)
            mr = peak_memory(
                "transformers", model_dir, B, prompt_tokens, new_tokens, str(dev), kv_cache
            )
            row["engine"]["peak_memory_bytes"], row["transformers"]["peak_memory_bytes"] = (
                me["peak_bytes"],
                mr["peak_bytes"],
            )
            row["engine"]["generate_peak_memory_bytes"] = me["generate_peak_bytes"]
            row["transformers"]["generate_peak_memory_bytes"] = mr["generate_peak_bytes"]
            row["ratio"]["peak_memory"] = me["peak_bytes"] / mr["peak_bytes"]
            row["ratio"]["generate_peak_memory"] = me["generate_peak_bytes"] / max(
                mr["generate_peak_bytes"], 1
            )
        result["rows"].append(row)
        log(format_row(row))
    return result


def format_row(row: dict[str, Any]) -> str:
    e, r, x = row["engine"], row["transformers"], row["ratio"]
    mem = f" | peak mem {x['peak_memory']:.2f}x" if "peak_memory" in x else ""
    roof = f" | roofline {e['roofline_share']:.1%}" if "roofline_share" in e else ""
    return (
        f"batch {row['batch']}: decode {e['decode_tokens_per_s']:.0f} vs {r['decode_tokens_per_s']:.0f} tok/s "
        f"({x['decode_tokens_per_s']:.2f}x; per CPU-second {x['decode_tokens_per_cpu_s']:.2f}x) | "
        f"prefill {x['prefill_tokens_per_s']:.2f}x | "
        f"TTFT {e['ttft_s'] * 1e3:.1f} vs {r['ttft_s'] * 1e3:.1f} ms{mem}{roof}"
    )


def _mib(side: dict[str, Any]) -> str:
    return f"{side['peak_memory_bytes'] / 2**20:.0f}" if "peak_memory_bytes" in side else "-"


def format_table(result: dict[str, Any]) -> str:
    lines = [
        f"model {result['model']} ({result['parameters'] / 1e6:.1f}M parameters), {result['device']}, "
        f"{result['dtype']}, {result['torch_threads']} threads, prompt {result['prompt_tokens']}, "
        f"new {result['new_tokens']}, median of {result['repeats']}, KV cache {result['kv_cache']}",
        "| batch | decode tok/s engine | transformers | ratio | ratio per CPU-s | prefill ratio | "
        "TTFT engine / transformers (ms) | peak memory engine / transformers (MiB) |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for row in result["rows"]:
        e, r, x = row["engine"], row["transformers"], row["ratio"]
        lines.append(
            f"| {row['batch']} | {e['decode_tokens_per_s']:.0f} | {r['decode_tokens_per_s']:.0f} | "
            f"{x['decode_tokens_per_s']:.2f}x | {x['decode_tokens_per_cpu_s']:.2f}x | "
            f"{x['prefill_tokens_per_s']:.2f}x | {e['ttft_s'] * 1e3:.1f} / {r['ttft_s'] * 1e3:.1f} | "
            f"{_mib(e)} / {_mib(r)} ({x.get('peak_memory', float('nan')):.2f}x) |"
        )
    return "\n".join(lines)
