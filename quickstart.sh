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
