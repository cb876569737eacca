"""Peak memory of one backend, measured in a fresh process: ``python -m measure.bench.engine_memory``.

On CPU: the peak resident set (Linux ``VmHWM``, reset through ``/proc/self/clear_refs``) above
the resident set after imports, for loading + generating, and above the loaded model for
generating alone. On CUDA: ``torch.cuda.max_memory_allocated`` over the same spans. An engine
with converted weights (``weights`` fp16) counts the conversion in loading: it loads the fp32
checkpoint, then packs the weights and frees the fp32 copies.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import torch

from measure.bench.engine_runs import load_engine, load_hf, run_engine, run_transformers


def peak_memory(
    backend: str,
    model_dir: Path,
    batch: int,
    prompt_tokens: int,
    new_tokens: int,
    device: str,
    kv_cache: str,
    weights: str = "fp",
) -> dict[str, int]:
    """Peak memory of loading + generating and of generating alone, in bytes (module docstring)."""
    args = [
        sys.executable,
        "-m",
        "measure.bench.engine_memory",
        "--probe",
        backend,
        str(model_dir),
        str(batch),
        str(prompt_tokens),
        str(new_tokens),
        device,
        kv_cache,
        str(torch.get_num_threads()),
        weights,
    ]
    out = subprocess.run(args, capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def _probe(
    backend: str,
    model_dir: str,
    batch: str,
    prompt: str,
    new: str,
    device: str,
    kv: str,
    threads: str,
    weights: str,
) -> None:
    """Print the peak memory of loading + generating, and of generating alone (JSON)."""
    torch.set_num_threads(int(threads))
    import transformers  # noqa: F401 - import cost is not counted for either backend

    import engine.generation  # noqa: F401
    import kernels  # noqa: F401

    dev = torch.device(device)
    B, P, N = int(batch), int(prompt), int(new)
    mark = _memory_mark(dev)
    if backend == "engine":
        model = load_engine(Path(model_dir), dev, weights)
        loaded = _memory_mark(dev)
        run_engine(model, B, P, N, kv)
    else:
        hf, cfg = load_hf(Path(model_dir), dev)
        loaded = _memory_mark(dev)
        run_transformers(hf, cfg, B, P, N)
    print(
        json.dumps(
            {"peak_bytes": _peak_since(mark, dev), "generate_peak_bytes": _peak_since(loaded, dev)}
        )
    )


def _memory_mark(dev: torch.device) -> int:
    """Reset the peak counter and return the current usage (CUDA allocator, or resident set)."""
    if dev.type == "cuda":
        torch.cuda.reset_peak_memory_stats(dev)
        return torch.cuda.memory_allocated(dev)
    Path("/proc/self/clear_refs").write_text("5")  # Linux: reset VmHWM to the current VmRSS
    return _status_bytes("VmRSS")


def _peak_since(mark: int, dev: torch.device) -> int:
    peak = torch.cuda.max_memory_allocated(dev) if dev.type == "cuda" else _status_bytes("VmHWM")
    return int(peak - mark)


def _status_bytes(field: str) -> int:
    """A memory field of /proc/self/status (Linux), in bytes."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) * 1024
    raise RuntimeError(f"/proc/self/status has no {field} field.")


if __name__ == "__main__":
    if len(sys.argv) == 11 and sys.argv[1] == "--probe":
        _probe(*sys.argv[2:])
    else:
        sys.exit(
            "usage: python -m measure.bench.engine_memory --probe engine|transformers DIR B P N DEVICE KV "
            "THREADS WEIGHTS"
        )
