#!/usr/bin/env bash
# The contract check: schemathesis (pinned in requirements.txt, installed into the
# gitignored .venv-contract/) runs every documented operation against a live crease server,
# with `--checks all`, a fixed seed and a bounded number of examples, once on a temporary
# SQLite file and once on a fresh Postgres database (when TEST_DATABASE_URL's server is
# reachable; under CI=true it must be). Any failure fails the script: the OpenAPI document
# at /v1/openapi.json is the contract, so an undocumented status, a constraint the schema
# does not state, or a response that does not match its schema is a bug in one or the other.
#
#   CREASE_BIN=target/debug/crease tests/contract/run.sh
set -euo pipefail
CONTRACT="$(cd "$(dirname "$0")" && pwd)"
REPO="$(cd "$CONTRACT/../.." && pwd)"
CREASE_BIN="${CREASE_BIN:-${CARGO_TARGET_DIR:-$REPO/target}/debug/crease}"
VENV="$REPO/.venv-contract"
SEED="${CONTRACT_SEED:-28}"
MAX_EXAMPLES="${CONTRACT_MAX_EXAMPLES:-25}"
step() { printf '\n==> %s\n' "$*"; }

if [ ! -x "$VENV/bin/schemathesis" ]; then
  step "installing schemathesis into $VENV"
  if ! { python3 -m venv "$VENV" && "$VENV/bin/pip" install -q -r "$CONTRACT/requirements.txt"; }; then
    echo "could not install schemathesis" >&2
    # Outside CI a machine without network skips the check; under CI it is a failure.
    if [ "${CI:-}" = "true" ]; then exit 1; fi
    echo "skipping the contract check (not under CI)"
    exit 0
  fi
fi

WORK="$(mktemp -d)"
SERVER_PID=""
PG_DB=""
cleanup() {
  if [ -n "$SERVER_PID" ]; then kill "$SERVER_PID" 2>/dev/null || true; wait "$SERVER_PID" 2>/dev/null || true; fi
  if [ -n "$PG_DB" ]; then psql "$PG_ADMIN" -q -c "DROP DATABASE IF EXISTS $PG_DB WITH (FORCE)" >/dev/null 2>&1 || true; fi
  rm -rf "$WORK"
}
trap cleanup EXIT

free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# Runs schemathesis against the server at $1 with the bearer token $2 and any further
# options (an operation filter).
schemathesis_against() {
  local base="$1" token="$2"
  shift 2
  # From the temporary directory: schemathesis leaves its .schemathesis/ cache where it runs.
  (cd "$WORK" && "$VENV/bin/schemathesis" run "$base/v1/openapi.json" \
    --checks all \
    --seed "$SEED" \
    --max-examples "$MAX_EXAMPLES" \
    --header "Authorization: Bearer $token" \
    --workers 1 \
    --no-color "$@")
}

# Starts the server on DATABASE_URL=$1, runs schemathesis against it, stops it: every
# operation with a guest's token (the admin routes answer it 401), then the admin routes
# (tag `admin`) with the server's admin token.
check_against() {
  local database_url="$1" port base token admin_token
  port="$(free_port)"
  base="http://127.0.0.1:$port"
  admin_token="contract-$(python3 -c 'import secrets; print(secrets.token_hex(16))')"
  CREASE_ADMIN_TOKEN="contract=$admin_token" DATABASE_URL="$database_url" \
    "$CREASE_BIN" serve --bind "127.0.0.1:$port" >"$WORK/server.log" 2>&1 &
  SERVER_PID=$!
  for _ in $(seq 1 100); do curl -fs "$base/healthz" >/dev/null 2>&1 && break; sleep 0.1; done
  # One guest's token for the authenticated routes.
  token="$(curl -fs -X POST "$base/v1/players" -H 'content-type: application/json' -d '{"name":"contract"}' |
    python3 -c 'import json, sys; print(json.load(sys.stdin)["token"])')"
  local started=$SECONDS status=0
  schemathesis_against "$base" "$token" || status=$?
  if [ "$status" -eq 0 ]; then
    step "the admin routes, with the admin token"
    schemathesis_against "$base" "$admin_token" --include-tag admin || status=$?
  fi
  echo "schemathesis took $((SECONDS - started)) s"
  kill "$SERVER_PID" 2>/dev/null || true
  wait "$SERVER_PID" 2>/dev/null || true
  SERVER_PID=""
  if [ "$status" -ne 0 ]; then
    echo "the contract check failed against $database_url; the server's log:" >&2
    tail -n 50 "$WORK/server.log" >&2
    return "$status"
  fi
}

step "contract check on SQLite"
check_against "sqlite://$WORK/contract.db"

PG_URL="${TEST_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/test}"
PG_ADMIN="${PG_URL%/*}/postgres"
if psql "$PG_ADMIN" -q -c 'SELECT 1' >/dev/null 2>&1; then
  PG_DB="crease_contract_$$"
  psql "$PG_ADMIN" -q -c "CREATE DATABASE $PG_DB" >/dev/null
  step "contract check on Postgres"
  check_against "${PG_URL%/*}/$PG_DB"
elif [ "${CI:-}" = "true" ]; then
  echo "PostgreSQL is not reachable and CI=true: failing, not skipping" >&2
  exit 1
else
  echo "PostgreSQL is not reachable: the Postgres contract check is skipped (not under CI)"
fi
