"""The kernel benchmark command runs on CPU and says Triton timings need CUDA."""

from __future__ import annotations

import subprocess
import sys

import pytest
from click.testing import CliRunner

from measure.bench.kernels import bench_kernels_command, peak_bandwidth_for


def test_bench_module_does_not_import_torch() -> None:
    code = (
        "import sys, measure.bench.kernels; print('torch' in sys.modules, 'triton' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False"]


@pytest.mark.parametrize(
    ("name", "peak"),
    [
        ("NVIDIA H200", 4800.0),
        ("NVIDIA H100 80GB HBM3", 3350.0),
        ("NVIDIA A100-SXM4-80GB", 2039.0),
        ("NVIDIA GH200 480GB", 4000.0),
        ("Mystery GPU", None),
    ],
    ids=["h200", "h100-sxm", "a100-80gb", "gh200-not-h200", "unknown"],
)
def test_peak_bandwidth_table(name: str, peak: float | None) -> None:
    assert peak_bandwidth_for(name) == peak


def test_cpu_run_prints_reference_timings(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(
        "measure.bench.kernel_cases.time_ms", lambda fn, device, budget_s=0.5: (fn(), 0.0)[1]
    )
    result = CliRunner().invoke(bench_kernels_command, ["--quick"])
    assert result.exit_code == 0, result.output
    assert "Triton timings need a CUDA device" in result.output
    for kernel in ("fused_moe", "apply_token_bitmask_", "sample_tokens", "decode_attention"):
        assert kernel in result.output


def test_bad_peak_bandwidth_is_a_usage_error() -> None:
    result = CliRunner().invoke(bench_kernels_command, ["--peak-bandwidth", "-1"])
    assert result.exit_code == 2
