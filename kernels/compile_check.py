"""Compile every Triton kernel ahead of time for a CUDA target, without a GPU.

Triton ships ptxas, so `triton.compile` can lower a kernel to a cubin on a CPU-only machine.
This catches what the interpreter lets through (tl.dot tiles < 16, loop-carried type changes,
bf16 lowering) and reports registers / spills per kernel, with the block sizes, warps and
stages the launchers use. Run: `TRITON_INTERPRET=0 python -m kernels.compile_check [sm] [dtype…]`.
"""

from __future__ import annotations

import re
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field

__all__ = ["KernelSpec", "compile_all", "kernel_specs"]

_PTR = {"fp16": "*fp16", "bf16": "*bf16", "fp32": "*fp32"}


@dataclass(frozen=True)
class KernelSpec:
    name: str
    kernel: object
    signature: dict[str, str]
    constexprs: dict[str, object]
    options: dict[str, int] = field(default_factory=dict)


def _spec(name: str, kernel: object, args: dict[str, object], blocks: object = None) -> KernelSpec:
    """Arguments given as type strings ("*fp16", "i32") are runtime, others constexpr."""
    sig = {k: ("constexpr" if not isinstance(v, str) else v) for k, v in args.items()}
    consts = {k: v for k, v in args.items() if not isinstance(v, str)}
    opts = {k: getattr(blocks, k) for k in ("num_warps", "num_stages") if hasattr(blocks, k)}
    return KernelSpec(name, kernel, sig, consts, opts)


def kernel_specs(dtypes: tuple[str, ...] = ("fp16", "bf16", "fp32")) -> list[KernelSpec]:
    """One spec per kernel × dtype × variant, with the block sizes the launchers pick."""
    from kernels.bitmask import _apply_bitmask_kernel
    from kernels.block_sizes import (
        attention_blocks,
        bitmask_block,
        moe_decode_blocks,
        moe_grouped_blocks,
        next_power_of_2,
        sampling_block,
    )
    from kernels.decode_attention import _decode_reduce_kernel, _decode_split_kernel
    from kernels.moe_decode import _moe_decode_down_kernel, _moe_decode_gate_up_kernel
    from kernels.moe_grouped import _moe_down_kernel, _moe_gate_up_kernel
    from kernels.sampling import _NUM_BISECT, _ONE_KEY_PLUS_1, _sample_kernel

    i32 = "i32"
    specs = []
    # fmt: off
    for dt in dtypes:
        p = _PTR[dt]
        for m in (moe_grouped_blocks(64, 64, 2048, 1024), moe_grouped_blocks(8192, 8, 4096, 14336)):
            tiles = {"BLOCK_M": m.block_m, "BLOCK_N": m.block_n, "BLOCK_K": m.block_k}
            common = {"num_pairs": i32, "D": i32, "F": i32}
            specs.append(_spec(f"moe_gate_up {dt} BM={m.block_m}", _moe_gate_up_kernel, {
                "x_ptr": p, "w13_ptr": p, "act_ptr": p, "sorted_ptr": "*i32",
                "block_expert_ptr": "*i32", **common, "stride_xt": i32, "stride_we": i32,
                "stride_wn": i32, "stride_act": i32, "TOP_K": 8, **tiles}, m))
            specs.append(_spec(f"moe_down {dt} BM={m.block_m}", _moe_down_kernel, {
                "act_ptr": p, "w2_ptr": p, "y_ptr": "*fp32", "weights_ptr": "*fp32",
                "sorted_ptr": "*i32", "block_expert_ptr": "*i32", **common, "stride_act": i32,
                "stride_we": i32, "stride_wn": i32, "stride_y": i32, **tiles}, m))
        m = moe_decode_blocks(4096, 14336)
        specs.append(_spec(f"moe_decode_gate_up {dt}", _moe_decode_gate_up_kernel, {
            "x_ptr": p, "w13_ptr": p, "ids_ptr": "*i64", "act_ptr": p, "D": i32, "F": i32,
            "stride_xt": i32, "stride_we": i32, "stride_wn": i32, "TOP_K": 2,
            "BLOCK_N": m.block_n, "BLOCK_K": m.block_k}, m))
        specs.append(_spec(f"moe_decode_down {dt}", _moe_decode_down_kernel, {
            "act_ptr": p, "w2_ptr": p, "ids_ptr": "*i64", "weights_ptr": "*fp32", "y_ptr": "*fp32",
            "D": i32, "F": i32, "stride_we": i32, "stride_wn": i32,
            "BLOCK_N": m.block_n, "BLOCK_K": m.block_k}, m))
        specs.append(_spec(f"apply_bitmask {dt}", _apply_bitmask_kernel, {
            "logits_ptr": p, "mask_ptr": "*i32", "V": i32, "stride_lb": i32, "stride_mb": i32,
            "BLOCK_V": bitmask_block(152064)}))
        for has_mask in (True, False):
            specs.append(_spec(f"sample mask={has_mask} {dt}", _sample_kernel, {
                "logits_ptr": p, "mask_ptr": "*i32", "u_ptr": "*fp32", "temp_ptr": "*fp32",
                "top_p_ptr": "*fp32", "top_k_ptr": "*i32", "e_ptr": "*fp32", "out_ptr": "*i64",
                "V": i32, "stride_l": i32, "stride_m": i32, "fallback": i32,
                "HAS_MASK": has_mask, "BLOCK_V": sampling_block(152064),
                "NUM_BISECT": _NUM_BISECT, "KEY_HI": _ONE_KEY_PLUS_1}))
        a = attention_blocks(4096, 128, 4, 64, 4 if dt == "fp32" else 2)
        sdt = "*fp32" if dt == "fp32" else "*fp16"
        for kind, code in (("fp", 0), ("int8", 8), ("int4", 4)):
            kv = p if kind == "fp" else "*u8"
            specs.append(_spec(f"decode_split {kind} {dt}", _decode_split_kernel, {
                "q_ptr": p, "k_ptr": kv, "v_ptr": kv, "ks_ptr": sdt, "km_ptr": sdt, "kr_ptr": p,
                "vs_ptr": sdt, "vm_ptr": sdt, "lens_ptr": "*i32", "starts_ptr": "*i32",
                "o_ptr": "*fp32", "lse_ptr": "*fp32", "scale": "fp32", "stride_qb": i32,
                "stride_qh": i32, "HKV": i32, "S": i32, "D": i32, "GK": i32, "GV": i32,
                "GROUP": 4, "KIND": code, "NUM_SPLITS": a.num_splits, "BLOCK_N": a.block_n,
                "BLOCK_H": a.block_h, "BLOCK_D": a.block_d}, a))
        specs.append(_spec(f"decode_reduce {dt}", _decode_reduce_kernel, {
            "o_ptr": "*fp32", "lse_ptr": "*fp32", "out_ptr": p, "D": i32, "stride_ob": i32,
            "stride_oh": i32, "HQ": 32, "NUM_SPLITS": a.num_splits,
            "BLOCK_S": next_power_of_2(a.num_splits), "BLOCK_D": a.block_d}))
    # fmt: on
    return specs


def compile_all(
    arch: int = 90, dtypes: tuple[str, ...] = ("fp16", "bf16", "fp32")
) -> list[tuple[str, float, str]]:
    """Compile every spec to a cubin for sm_`arch`; returns (name, seconds, ptxas summary or
    the error, prefixed "error:")."""
    import triton
    from triton.backends.compiler import GPUTarget
    from triton.backends.nvidia.compiler import get_ptxas
    from triton.compiler import ASTSource

    target = GPUTarget("cuda", arch, 32)
    results = []
    for spec in kernel_specs(dtypes):
        start = time.perf_counter()
        try:
            src = ASTSource(fn=spec.kernel, signature=spec.signature, constexprs=spec.constexprs)
            compiled = triton.compile(src, target=target, options=spec.options)
            report = _ptxas_report(get_ptxas(arch).path, compiled.asm["ptx"], arch)
            report += f", {compiled.metadata.shared} B shared"
        except Exception as exc:  # report every failure, keep compiling the rest
            report = f"error: {type(exc).__name__}: {str(exc).strip().splitlines()[-1][:200]}"
        results.append((spec.name, time.perf_counter() - start, report))
    return results


def _ptxas_report(ptxas: str, ptx: str, arch: int) -> str:
    with tempfile.NamedTemporaryFile("w", suffix=".ptx") as f:
        f.write(ptx)
        f.flush()
        suffix = "a" if arch >= 90 else ""
        cmd = [ptxas, f"-arch=sm_{arch}{suffix}", "-v", f.name, "-o", "/dev/null"]
        out = subprocess.run(cmd, capture_output=True, text=True, check=False)
    text = out.stderr + out.stdout
    regs = re.search(r"Used (\d+) registers", text)
    spills = re.search(r"(\d+) bytes spill stores", text)
    return f"{regs.group(1) if regs else '?'} regs, {spills.group(1) if spills else '?'} B spilled"


def main() -> None:
    from kernels._triton import interpreting

    if interpreting():
        sys.exit("run with TRITON_INTERPRET=0: the interpreter replaces the compiler.")
    arch = int(sys.argv[1]) if len(sys.argv) > 1 else 90
    dtypes = tuple(sys.argv[2:]) or ("fp16", "bf16", "fp32")
    failures = 0
    for name, seconds, report in compile_all(arch, dtypes):
        print(f"{name:<30} {seconds:5.1f}s  {report}")
        failures += report.startswith("error")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
