"""Kernel benchmark: `kgaudit bench kernels` (click) and `python -m measure.bench.kernels`.

On CUDA: each kernel's Triton time against its reference (speed-up) and against the memory
roofline (bytes moved ÷ time vs the device's peak bandwidth). On CPU: reference timings only.
`python -m measure.bench.kernels` adds the Triton-vs-reference parity check (fp16/bf16/fp32 on GPU).
torch and triton are imported inside the command, not when this module is imported.
"""

from __future__ import annotations

import sys

import click

__all__ = ["PEAK_BANDWIDTH_GBPS", "bench_kernels_command", "main", "peak_bandwidth_for"]

# Peak HBM bandwidth in GB/s, keyed by a substring of torch.cuda.get_device_name().
PEAK_BANDWIDTH_GBPS: dict[str, float] = {
    "H200": 4800.0,
    "H100 SXM": 3350.0,
    "H100 80GB HBM3": 3350.0,
    "H100 NVL": 3900.0,
    "H100 PCIe": 2000.0,
    "GH200": 4000.0,
    "B200": 8000.0,
    "A100-SXM4-80GB": 2039.0,
    "A100 80GB PCIe": 1935.0,
    "A100-SXM4-40GB": 1555.0,
    "A100-PCIE-40GB": 1555.0,
    "L40S": 864.0,
    "L4": 300.0,
    "A10G": 600.0,
    "RTX 4090": 1008.0,
    "T4": 320.0,
}


def peak_bandwidth_for(device_name: str) -> float | None:
    """Peak GB/s for a CUDA device name (longest matching key wins), or None if unknown."""
    for key in sorted(PEAK_BANDWIDTH_GBPS, key=len, reverse=True):
        if key.lower() in device_name.lower():
            return PEAK_BANDWIDTH_GBPS[key]
    return None


def _run(
    peak: float | None,
    dtype_name: str,
    quick: bool,
    parity: bool,
    threads: int | None = None,
    echo=click.echo,
) -> bool:
    import torch

    if threads:
        torch.set_num_threads(threads)
    from kernels import HAS_TRITON
    from measure.bench.kernel_cases import make_cases, time_ms

    cuda = torch.cuda.is_available()
    device = torch.device("cuda" if cuda else "cpu")
    dtype = {"fp16": torch.float16, "bf16": torch.bfloat16, "fp32": torch.float32}[dtype_name]
    if not cuda and dtype != torch.float32:
        dtype = torch.float32  # CPU half-precision matmuls are not representative
    name = torch.cuda.get_device_name() if cuda else "CPU"
    peak = peak or (peak_bandwidth_for(name) if cuda else None)
    with_triton = cuda and HAS_TRITON
    echo(
        f"device: {name}; dtype: {str(dtype).removeprefix('torch.')}; torch {torch.__version__}; "
        f"{torch.get_num_threads()} CPU threads"
        + (f"; peak bandwidth {peak:.0f} GB/s" if peak else "")
    )
    if not with_triton:
        echo(
            "Triton timings need a CUDA device with triton installed; showing reference timings only."
        )
    header = f"{'kernel':<22} {'shape':<40} {'ref ms':>9}"
    if with_triton:
        header += f" {'triton ms':>10} {'speed-up':>9} {'GB/s':>8} {'% peak':>7}"
    echo(header)
    for case in make_cases(device, dtype, quick):
        ref = time_ms(lambda c=case: c.run("reference"), device)
        line = f"{case.name:<22} {case.shape:<40} {ref:>9.3f}"
        if with_triton:
            tri = time_ms(lambda c=case: c.run("triton"), device)
            gbps = case.nbytes / (tri * 1e-3) / 1e9
            pct = f"{100 * gbps / peak:>6.1f}%" if peak else f"{'?':>7}"
            line += f" {tri:>10.3f} {ref / tri:>8.2f}x {gbps:>8.0f} {pct}"
        echo(line)
    if not parity:
        return True
    if not with_triton:
        echo("parity check skipped: it compares Triton with the reference on a CUDA device.")
        return True
    from measure.kernel_parity import run_parity

    results = run_parity(device)
    echo(f"{'parity check':<55} {'dtype':<9} {'error':>9} {'tol':>9}  result")
    for r in results:
        echo(
            f"{r.name:<55} {r.dtype:<9} {r.error:>9.2e} {r.tolerance:>9.1e}  {'ok' if r.ok else 'FAIL'}"
        )
    return all(r.ok for r in results)


@click.command("kernels")
@click.option(
    "--peak-bandwidth",
    type=float,
    default=None,
    metavar="GB/S",
    help="Peak memory bandwidth for the roofline (default: from the device name).",
)
@click.option(
    "--dtype",
    "dtype_name",
    type=click.Choice(["fp16", "bf16", "fp32"]),
    default="fp16",
    show_default=True,
    help="Weights/activation dtype on CUDA (CPU always uses fp32).",
)
@click.option("--quick", is_flag=True, help="Fewer, smaller cases.")
@click.option(
    "--threads",
    type=click.IntRange(min=1),
    default=None,
    help="torch CPU threads (default: torch's choice; 1 is steadier on a shared machine).",
)
@click.option(
    "--parity/--no-parity",
    default=False,
    show_default=True,
    help="Also check Triton against the reference (CUDA only).",
)
def bench_kernels_command(
    peak_bandwidth: float | None, dtype_name: str, quick: bool, threads: int | None, parity: bool
) -> None:
    """Time each kernel against its reference and the memory-bandwidth roofline."""
    if peak_bandwidth is not None and peak_bandwidth <= 0:
        raise click.BadParameter("must be positive", param_hint="--peak-bandwidth")
    if not _run(peak_bandwidth, dtype_name, quick, parity, threads):
        click.echo("parity check failed: a Triton kernel disagrees with its reference.", err=True)
        sys.exit(1)


def main(argv: list[str] | None = None) -> None:
    """`python -m measure.bench.kernels`: the benchmark plus the GPU parity check."""
    args = list(sys.argv[1:] if argv is None else argv)
    if not any(a.startswith("--parity") or a == "--no-parity" for a in args):
        args.append("--parity")
    bench_kernels_command.main(args=args, prog_name="python -m measure.bench.kernels")


if __name__ == "__main__":
    main()
