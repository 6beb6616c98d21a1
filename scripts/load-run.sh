#!/usr/bin/env bash
# One bounded load run: starts a release `crease serve` on a fresh database, runs
# `crease load` against it, prints the server's RSS (before, peak, end) and the load average,
# then stops the server it started (by its pid).
#
# usage: scripts/load-run.sh <sqlite|postgres> <load args...>
#   e.g. scripts/load-run.sh sqlite --matches 1000 --pace human --duration 90 --json
# env: BIN (default $CARGO_TARGET_DIR/release/crease), LOAD_BIN (the load generator's binary,
#      default $BIN: set BIN to an older build to measure that server with today's generator),
#      PG_ADMIN (default postgres://postgres@127.0.0.1:5432), SERVE_ARGS (extra flags for
#      serve), PORT.
set -euo pipefail
backend=$1; shift
BIN=${BIN:-${CARGO_TARGET_DIR:-target}/release/crease}
LOAD_BIN=${LOAD_BIN:-$BIN}
PORT=${PORT:-18080}
PG_ADMIN=${PG_ADMIN:-postgres://postgres@127.0.0.1:5432}
work=$(mktemp -d)
case $backend in
  sqlite) url="sqlite://$work/crease.db" ;;
  postgres)
    db="crease_perf_$$"
    psql "$PG_ADMIN/postgres" -qc "CREATE DATABASE $db"
    url="$PG_ADMIN/$db" ;;
  *) echo "backend must be sqlite or postgres" >&2; exit 2 ;;
esac
ulimit -n "$(ulimit -Hn)"
RUST_LOG=warn CREASE_RATE_LIMITS=off DATABASE_URL=$url "$BIN" serve --bind 127.0.0.1:$PORT ${SERVE_ARGS:-} >"$work/serve.log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true; wait $server 2>/dev/null || true' EXIT
for _ in $(seq 100); do curl -sf "http://127.0.0.1:$PORT/healthz" >/dev/null && break; sleep 0.1; done
rss() { awk '/VmRSS/ {print $2}' "/proc/$server/status"; }
echo "server rss before: $(rss) KiB; load average: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
peak=0
( while kill -0 $server 2>/dev/null; do r=$(rss); echo "$r"; sleep 1; done ) >"$work/rss.log" &
sampler=$!
"$LOAD_BIN" load --server "http://127.0.0.1:$PORT" "$@"
kill $sampler 2>/dev/null || true
peak=$(sort -n "$work/rss.log" | tail -1)
steady=$(tail -n 4 "$work/rss.log" | head -1)
echo "server rss peak: ${peak} KiB; 3 s before the load ended: ${steady} KiB; end: $(rss) KiB; load average: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
if [ "$backend" = postgres ]; then
  echo "rows in log: $(psql "$PG_ADMIN/$db" -tAc "SELECT count(*) || ' (' || count(*) FILTER (WHERE kind = 'command') || ' commands)' FROM match_event")" >&2
else
  echo "server log warnings: $(grep -c WARN "$work/serve.log" || true)" >&2
fi
kill $server; wait $server 2>/dev/null || true
trap - EXIT
[ "$backend" = postgres ] && psql "$PG_ADMIN/postgres" -qc "DROP DATABASE $db WITH (FORCE)"
rm -rf "$work"
