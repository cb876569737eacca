"""Backend choice: keyword, environment variable, device, and a missing triton."""

from __future__ import annotations

import pytest
import torch

import kernels
from kernels import _triton, dispatch


@pytest.mark.parametrize(
    ("keyword", "env", "expected"),
    [
        (None, None, "reference"),
        ("reference", None, "reference"),
        ("triton", None, "triton"),
        (None, "triton", "triton"),
        (None, "reference", "reference"),
        ("reference", "triton", "reference"),
        ("auto", "triton", "reference"),
    ],
    ids=[
        "cpu-default",
        "keyword-reference",
        "keyword-triton",
        "env-triton",
        "env-reference",
        "keyword-beats-env",
        "keyword-auto-on-cpu",
    ],
)
def test_resolution_on_cpu(
    keyword, env, expected, monkeypatch: pytest.MonkeyPatch, triton_backend: str
) -> None:
    if env:
        monkeypatch.setenv("KGAUDIT_KERNELS", env)
    assert dispatch.resolve_backend(keyword, torch.zeros(1)) == expected


def test_env_var_routes_public_calls(monkeypatch: pytest.MonkeyPatch, triton_backend: str) -> None:
    calls = []
    monkeypatch.setattr(
        "kernels.bitmask.apply_token_bitmask_triton_", lambda lg, m: calls.append(1) or lg
    )
    monkeypatch.setenv("KGAUDIT_KERNELS", "triton")
    kernels.apply_token_bitmask_(torch.zeros(1, 8), torch.zeros(1, 1, dtype=torch.int32))
    assert calls == [1]


@pytest.mark.parametrize("source", ["keyword", "env"])
def test_unknown_backend_is_a_value_error(source: str, monkeypatch: pytest.MonkeyPatch) -> None:
    if source == "env":
        monkeypatch.setenv("KGAUDIT_KERNELS", "cuda")
    with pytest.raises(ValueError, match="not a kernel backend"):
        dispatch.resolve_backend("cuda" if source == "keyword" else None, torch.zeros(1))


def test_missing_triton_gives_a_clear_error_and_reference_still_works(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(_triton, "HAS_TRITON", False)
    monkeypatch.setattr(dispatch, "HAS_TRITON", False)
    logits = torch.randn(2, 40)
    assert kernels.sample_tokens(logits, torch.rand(2)).tolist() == logits.argmax(1).tolist()
    with pytest.raises(RuntimeError, match=r"kgaudit\[engine\]"):
        kernels.sample_tokens(logits, torch.rand(2), backend="triton")


def test_cpu_triton_without_interpreter_is_explained(
    monkeypatch: pytest.MonkeyPatch, triton_backend: str
) -> None:
    monkeypatch.setattr(_triton, "interpreting", lambda: False)
    with pytest.raises(RuntimeError, match="TRITON_INTERPRET=1 before triton is first imported"):
        kernels.apply_token_bitmask_(
            torch.zeros(1, 8), torch.zeros(1, 1, dtype=torch.int32), backend="triton"
        )


@pytest.mark.slow
def test_import_without_triton(tmp_path) -> None:
    """`import kernels` in a fresh interpreter where `import triton` fails."""
    import subprocess
    import sys

    blocker = tmp_path / "triton.py"
    blocker.write_text("raise ImportError('triton blocked for this test')\n")
    code = (
        "import kernels, torch; assert not kernels.HAS_TRITON; "
        "print(kernels.fused_moe(torch.randn(2, 16), torch.randn(2, 8, 16), torch.randn(2, 16, 4), "
        "torch.ones(2, 1), torch.zeros(2, 1, dtype=torch.long)).shape)"
    )
    root = __import__("pathlib").Path(kernels.__file__).parents[1]
    env = {"PYTHONPATH": f"{tmp_path}:{root}", "PATH": "/usr/bin:/bin"}
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120
    )
    assert result.returncode == 0, result.stderr
    assert "torch.Size([2, 16])" in result.stdout


def test_public_names_resolve() -> None:
    assert set(kernels.__all__) == set(kernels._EXPORTS)
    for name in kernels.__all__:
        assert getattr(kernels, name) is not None
