#!/usr/bin/env bash
# End-to-end tests of the browser client: headless Debian Chromium driven by playwright-core
# against a crease server built from this checkout, on a free port with a temporary SQLite
# database. Installs what is missing (chromium via apt, node modules via npm ci). Screenshots
# of every screen land in test-artifacts/screenshots/.
#
#   tests/e2e/run.sh                 # all tests
#   tests/e2e/run.sh ctg.test.mjs    # one file
set -euo pipefail
E2E="$(cd "$(dirname "$0")" && pwd)"
REPO="$(cd "$E2E/../.." && pwd)"
step() { printf '\n==> %s\n' "$*"; }

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

export CHROMIUM="${CHROMIUM:-/usr/bin/chromium}"
if [ ! -x "$CHROMIUM" ]; then
  step "installing chromium (Debian package; playwright never downloads a browser here)"
  as_root apt-get update -q
  as_root apt-get install -y -q chromium
fi

if ! command -v node >/dev/null; then
  step "installing node.js"
  as_root apt-get update -q
  as_root apt-get install -y -q nodejs npm
fi

cd "$E2E"
if [ ! -d node_modules/playwright-core ]; then
  step "npm ci"
  npm ci --no-audit --no-fund
fi

if [ -n "${CREASE_BIN:-}" ] && [ -x "$CREASE_BIN" ]; then
  step "using the crease binary at $CREASE_BIN"
else
  step "building crease"
  (cd "$REPO" && cargo build --bin crease)
  export CREASE_BIN="${CARGO_TARGET_DIR:-$REPO/target}/debug/crease"
fi

EXAMPLE_BIN="${CARGO_TARGET_DIR:-$REPO/target}/debug/examples/hand_cricket"
if [ -z "${CREASE_EXAMPLE_BIN:-}" ] && [ ! -x "$EXAMPLE_BIN" ]; then
  step "building the fourth-game example (examples/hand_cricket)"
  (cd "$REPO" && cargo build --example hand_cricket)
fi

step "starting crease on a free port with a temporary SQLite database"
WORK="$(mktemp -d)"
PORT="$(node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')"
DATABASE_URL="sqlite://$WORK/e2e.db" RUST_LOG="${RUST_LOG:-warn}" \
  "$CREASE_BIN" serve --bind "127.0.0.1:$PORT" >"$WORK/server.log" 2>&1 &
SERVER_PID=$!
stop_server() {
  kill "$SERVER_PID" 2>/dev/null && wait "$SERVER_PID" 2>/dev/null || true
  if [ "${E2E_KEEP:-}" ]; then echo "server files kept in $WORK"; else rm -rf "$WORK"; fi
}
trap stop_server EXIT
export E2E_SERVER_URL="http://127.0.0.1:$PORT"
for _ in $(seq 1 100); do
  curl -fsS "$E2E_SERVER_URL/healthz" >/dev/null 2>&1 && break
  kill -0 "$SERVER_PID" 2>/dev/null || { cat "$WORK/server.log"; echo "crease exited" >&2; exit 1; }
  sleep 0.2
done
curl -fsS "$E2E_SERVER_URL/healthz" >/dev/null || { cat "$WORK/server.log"; exit 1; }

step "running the end-to-end tests against $E2E_SERVER_URL"
mkdir -p "$REPO/test-artifacts/screenshots"
if [ "$#" -gt 0 ]; then FILES=("$@"); else FILES=(*.test.mjs); fi
node --test --test-concurrency=1 "${FILES[@]}"
echo "screenshots: $REPO/test-artifacts/screenshots/"
