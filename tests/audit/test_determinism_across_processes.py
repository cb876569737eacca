"""The same audit (and the same greedy generation) in two fresh processes with different
``PYTHONHASHSEED`` values gives byte-identical JSON.

One process cannot show hash-order nondeterminism: set and dict-of-str iteration order only
changes between interpreters. Each child audits a text per domain plus an ``auto`` text and,
when torch is installed, decodes one prompt greedily with the shipped default model.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

CHILD = r"""
import json, sys
from auditor import audit

TEXTS = [
    ("medical", "Adults should not take more than 8,000 mg of acetaminophen per day. "
                "Ibuprofen is an NSAID; taking it with warfarin raises the risk of bleeding."),
    ("finance", "Croatia adopted the euro on 1 January 2023; before that it used the kuna. "
                "The ISIN US0378331005 belongs to Apple."),
    ("legal", "Brown v. Board of Education, 347 U.S. 483 (1954), overruled Plessy v. Ferguson. "
              "Roe v. Wade was decided in 1971."),
    ("auto", "Miranda v. Arizona, 384 U.S. 436 (1966). Ibuprofen OTC max is 1,200 mg per day. "
             "The currency of Japan is the yen."),
]
out = {"audits": [audit(t, domain=d, as_of="2025-01-15").to_dict() for d, t in TEXTS]}
try:
    import torch
except ImportError:
    torch = None
if torch is not None and "--no-engine" not in sys.argv:
    from engine import generate, load_model
    from engine.loader import DEFAULT_MODEL_DIR

    if (DEFAULT_MODEL_DIR / "model.safetensors").is_file():
        torch.set_num_threads(1)
        model = load_model("default", device="cpu")
        tok = model.tokenizer
        ids, mask = tok.batch(["What is the maximum daily dose of ibuprofen for adults?"])
        gen = generate(model, ids, 32, attention_mask=mask, tokenizer=tok)
        out["generation"] = gen[0].tolist()
sys.stdout.write(json.dumps(out, sort_keys=False, ensure_ascii=False))
"""

# keys whose values may legitimately differ between runs (the audit result has none today)
VOLATILE: frozenset[str] = frozenset({"created_at", "audit_id", "elapsed_s", "timings"})


def _strip(value: object) -> object:
    if isinstance(value, dict):
        return {k: _strip(v) for k, v in value.items() if k not in VOLATILE}
    if isinstance(value, list):
        return [_strip(v) for v in value]
    return value


@pytest.mark.slow
def test_same_audit_and_generation_in_two_processes_with_different_hash_seeds() -> None:
    import json

    procs = []
    for seed in ("0", "4242"):
        env = {
            **os.environ,
            "PYTHONHASHSEED": seed,
            "PYTHONPATH": os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")])),
            "OMP_NUM_THREADS": "1",
        }
        procs.append(
            subprocess.Popen(
                [sys.executable, "-c", CHILD],
                cwd=REPO,
                env=env,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
            )
        )
    outs = []
    for p in procs:
        stdout, stderr = p.communicate(timeout=300)
        assert p.returncode == 0, stderr.decode()[-3000:]
        outs.append(stdout)
    first, second = (json.loads(o) for o in outs)
    assert all(a["claims"] for a in first["audits"]), "every text should give claims"
    a, b = (json.dumps(_strip(r), ensure_ascii=False).encode() for r in (first, second))
    assert a == b, "the results differ between PYTHONHASHSEED=0 and 4242"
