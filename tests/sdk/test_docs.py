"""The ``python`` blocks of docs/sdk.md and of the README's "Python SDK" section run as
written, in a fresh interpreter, against a live API and a fake OpenAI server."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from .conftest import MEDICAL_OK, serve, stop
from .fake_openai import fake_openai_app

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.slow
RUNNER = """
import sys
namespace = {"__name__": "__docs__"}
for path in sys.argv[1:]:
    code = open(path, encoding="utf-8").read()
    exec(compile(code, path, "exec"), namespace)
"""


def python_blocks(markdown: str) -> list[str]:
    return re.findall(r"^```python\n(.*?)^```", markdown, flags=re.S | re.M)


def readme_sdk_section() -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = re.search(r"^## Python SDK\n(.*?)(?=^## )", text, flags=re.S | re.M)
    assert section, "the README has no '## Python SDK' section"
    return section.group(1)


@pytest.fixture(scope="module")
def env(api_server) -> Iterator[dict[str, str]]:
    served = serve(fake_openai_app([MEDICAL_OK]))
    yield {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "KGAUDIT_URL": api_server.url,
        "KGAUDIT_KEY": api_server.key,
        "OPENAI_BASE_URL": f"{served.url}/v1",
        "OPENAI_API_KEY": "sk-test",
    }
    stop(served)


def _run(blocks: list[str], env: dict[str, str], tmp_path: Path) -> str:
    files = []
    for i, block in enumerate(blocks):
        if block.startswith("# tests/"):  # a test file: run it with pytest
            f = tmp_path / f"test_block_{i}.py"
            f.write_text(block, encoding="utf-8")
            done = subprocess.run(
                [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(f)],
                env=env,
                capture_output=True,
                text=True,
                cwd=tmp_path,
                timeout=300,
            )
            assert done.returncode == 0, done.stdout + done.stderr
            continue
        f = tmp_path / f"block_{i}.py"
        f.write_text(block, encoding="utf-8")
        files.append(str(f))
    done = subprocess.run(
        [sys.executable, "-c", RUNNER, *files],
        env=env,
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def test_docs_sdk_blocks_run(env, tmp_path) -> None:
    blocks = python_blocks((ROOT / "docs" / "sdk.md").read_text(encoding="utf-8"))
    assert len(blocks) >= 6
    out = _run(blocks, env, tmp_path)
    lines = out.splitlines()
    assert lines[0].endswith(" 1.0 1") and lines[1] == "MED-DOSE-MAX"
    assert "[0.0, None]" in lines and "True 1.0" in lines
    assert "404 not_found no audit with this id" in lines
    assert "['kgaudit.audit', 'kgaudit.extract', 'kgaudit.score', 'kgaudit.verify']" in lines


def test_readme_sdk_example_runs(env, tmp_path) -> None:
    blocks = python_blocks(readme_sdk_section())
    assert blocks
    out = _run(blocks, env, tmp_path)
    for comment in re.findall(r"#\s*→\s*(.+)$", "\n".join(blocks), flags=re.M):
        assert comment.strip() in out, comment
