#!/usr/bin/env bash
# Set up kgaudit from nothing and run the main job on the embedded defaults:
# SQLite audit trail, bundled knowledge graphs, the project's own small model.
set -euo pipefail
cd "$(dirname "$0")"
PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$PY" -m venv .venv
fi
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet -e ".[engine,pdf,ray,dev]"
export KGAUDIT_HOME=${KGAUDIT_HOME:-$PWD/var}
KG=.venv/bin/kgaudit
$KG kg build
$KG kg stats
for d in medical finance legal; do
  echo "== auditing examples/${d}_answer.txt"
  $KG audit "examples/${d}_answer.txt" --domain "$d" --as-of 2025-01-15 || true
done
echo "== batch audit of stored chatbot transcripts, recorded in the SQLite audit trail"
$KG batch examples/transcripts.jsonl --out "$KGAUDIT_HOME/results.jsonl" --workers 2 --no-progress
$KG trail verify
TODAY=$(date -u +%F)
$KG report --from "$TODAY" --to "$TODAY" --out "$KGAUDIT_HOME/report.html"
echo "== the embedded MoE model (trained by 'kgaudit engine train')"
$KG generate --model default --max-new-tokens 32 --stats \
  --prompt "Q: What is the maximum daily dose of ibuprofen for adults? A:"
echo "== its answers to held-out questions, unconstrained vs answer-slot constrained: answer accuracy (small sample)"
$KG eval generation --per-domain 4 --configs base,slot-frame --no-overhead \
  --out "$KGAUDIT_HOME/generation-eval"
echo "done: results in $KGAUDIT_HOME/results.jsonl, report in $KGAUDIT_HOME/report.html"
