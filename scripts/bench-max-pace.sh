#!/usr/bin/env bash
# Persisted commands per second at `max` pace, with and without group commit, in one run:
# prints both figures and their ratio. The second figure is the one issue 7 asks for.
#
# usage: scripts/bench-max-pace.sh [postgres|sqlite] [matches] [seconds]
# env: as scripts/load-run.sh (BIN, LOAD_BIN, PG_ADMIN, PORT).
set -euo pipefail
backend=${1:-postgres}
matches=${2:-300}
seconds=${3:-30}
here=$(dirname "$0")
rate() {
  CREASE_GROUP_COMMIT=$1 "$here/load-run.sh" "$backend" --matches "$matches" --pace max \
    --duration "$seconds" --setup-concurrency 128 --json |
    python3 -c 'import json, sys; print(json.load(sys.stdin)["acks_per_second"])'
}
off=$(rate off)
on=$(rate on)
python3 - "$backend" "$off" "$on" <<'PY'
import sys
backend, off, on = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
print(f"{backend}, max pace: {off:,.0f} persisted commands/s one commit per command; "
      f"{on:,.0f}/s with group commit; ratio {on / off:.2f}x")
PY
