"""`kgaudit generate`, `kgaudit engine ...` and `kgaudit bench engine` through the real entry point."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

pytest.importorskip("torch")

from services.cli.main import main

QUESTION = "Q: What is the currency of Croatia? A:"


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_generate_prints_the_answer(trained, capsys):
    code, out, _ = run(
        capsys,
        "generate",
        "--model",
        str(trained[0]),
        "--prompt",
        QUESTION,
        "--max-new-tokens",
        "48",
    )
    assert code == 0 and "Euro" in out


def _generate(capsys, trained, *extra: str) -> str:
    code, out, err = run(
        capsys,
        "generate",
        "--model",
        str(trained[0]),
        "--prompt",
        QUESTION,
        "--max-new-tokens",
        "48",
        *extra,
    )
    assert code == 0, err
    return out


def test_generate_stream_prints_the_same_text_as_a_plain_run(trained, capsys):
    plain = _generate(capsys, trained)
    assert "Euro" in plain and _generate(capsys, trained, "--stream") == plain


@pytest.mark.parametrize("kv", ["int8", "int4"])
def test_generate_with_a_quantised_kv_cache_still_answers(trained, capsys, kv):
    out = _generate(capsys, trained, "--kv-cache", kv)
    assert "Euro" in out and out.count("\n") == 1  # one prompt: one answer line
    assert _generate(capsys, trained, "--kv-cache", kv) == out  # greedy: the same each time


def test_generate_sampling_is_reproducible_with_a_seed(trained, capsys):
    sampling = ("--temperature", "0.7", "--top-p", "0.9")
    out = _generate(capsys, trained, *sampling, "--seed", "1")
    assert out.strip() and out.count("\n") == 1
    assert _generate(capsys, trained, *sampling, "--seed", "1") == out


def test_generate_json_and_stats_for_a_batch(trained, capsys):
    code, out, err = run(
        capsys,
        "generate",
        "--model",
        str(trained[0]),
        "--prompt",
        QUESTION,
        "--prompt",
        "Q: What is the citation of Brown v. Board of Education? A:",
        "--max-new-tokens",
        "48",
        "--json",
        "--stats",
        "--stop",
        ".",
    )
    rows = [json.loads(line) for line in out.splitlines()]
    assert (
        code == 0
        and len(rows) == 2
        and "Euro" in rows[0]["text"]
        and not rows[0]["text"].endswith(".")
    )
    assert rows[0]["stop_reason"] in {"stop_string", "stop_token"} and "TTFT" in err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["generate", "--model", "/nonexistent/model", "--prompt", "x"], "does not exist"),
        (
            ["generate", "--model", "{model}", "--prompt", "a", "--prompt", "b", "--stream"],
            "single --prompt",
        ),
        (
            ["generate", "--model", "{model}", "--prompt", "x", "--max-new-tokens", "1000"],
            "exceeds the model's context",
        ),
        (["generate", "--model", "{model}", "--prompt", "x", "--kv-cache", "int3"], "int3"),
        (["engine", "info", "--model", "/nonexistent/model"], "does not exist"),
    ],
    ids=["missing model", "stream batch", "too long", "bad cache", "info missing"],
)
def test_user_errors_exit_2_with_one_sentence(trained, capsys, argv, message):
    code, _, err = run(capsys, *(a.replace("{model}", str(trained[0])) for a in argv))
    assert code == 2 and message in err


def test_engine_info_describes_the_checkpoint(trained, capsys):
    code, out, _ = run(capsys, "engine", "info", "--model", str(trained[0]))
    info = json.loads(out)
    assert code == 0 and info["n_experts"] == 4 and info["parameters"] > 0 and info["tokenizer"]


def test_bench_engine_reports_ratios(hf_checkpoints, capsys):
    from measure.bench.engine import bench_engine_command

    code = main(["engine", "--help"])  # the group is importable next to the bench command
    assert code == 0
    capsys.readouterr()
    result = bench_engine_command.main(
        [
            "--model",
            str(hf_checkpoints["mixtral"][1]),
            "--batch-sizes",
            "1,2",
            "--prompt-tokens",
            "4",
            "--new-tokens",
            "4",
            "--repeats",
            "1",
            "--no-memory",
            "--json",
        ],
        standalone_mode=False,
    )
    assert result is None
    report = json.loads(capsys.readouterr().out)
    assert [r["batch"] for r in report["rows"]] == [1, 2]
    assert all(r["ratio"]["decode_tokens_per_s"] > 0 for r in report["rows"])


def test_importing_the_cli_does_not_import_torch():
    code = "import sys, engine.cli, engine; assert 'torch' not in sys.modules, 'torch imported'"
    subprocess.run([sys.executable, "-c", code], check=True)


@pytest.mark.parametrize(
    "argv", [["generate"], ["engine"], ["engine", "train"], ["engine", "eval"], ["engine", "info"]]
)
def test_every_command_has_help(capsys, argv):
    assert main([*argv, "--help"]) == 0
    assert "Usage" in capsys.readouterr().out


@pytest.mark.slow
def test_memory_probe_measures_both_backends(hf_checkpoints):
    from measure.bench.engine_memory import peak_memory

    for backend in ("engine", "transformers"):
        peaks = peak_memory(backend, hf_checkpoints["mixtral"][1], 1, 4, 3, "cpu", "fp")
        assert peaks["peak_bytes"] > 0 and peaks["generate_peak_bytes"] >= 0
