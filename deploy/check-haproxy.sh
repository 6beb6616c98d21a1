#!/usr/bin/env bash
# Checks deploy/haproxy.cfg with the real haproxy binary (`haproxy -c`), installing Debian's
# haproxy package first if it is missing, twice: as compose runs it by default (plain HTTP on
# :8090), and with TLS on (CREASE_TLS_CERT set), against a throwaway self-signed certificate
# made here with openssl (no key is ever committed; it is deleted on exit). Exits 0 when the
# configuration is valid, 1 when it is not, and 0 with a "skipped" message when haproxy is
# absent and cannot be installed (no apt-get, or not root); under CI=true that fails instead.
#
# usage: deploy/check-haproxy.sh [config]   (default: deploy/haproxy.cfg)
set -euo pipefail
cd "$(dirname "$0")/.."
config=${1:-deploy/haproxy.cfg}

if ! command -v haproxy >/dev/null; then
  if command -v apt-get >/dev/null && [ "$(id -u)" = 0 ]; then
    echo "haproxy is missing: installing Debian's package"
    # An empty package list (a fresh machine) knows no haproxy: refresh it once first.
    if ! apt-cache show haproxy >/dev/null 2>&1; then
      apt-get update -qq
    fi
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends haproxy >/dev/null
  elif [ "${CI:-}" = true ]; then
    echo "FAIL: haproxy is not installed and apt-get is not usable here (CI=true: failing)" >&2
    exit 1
  else
    echo "skipped: haproxy is not installed and apt-get is not usable here (needs root)"
    exit 0
  fi
fi

haproxy -v | sed -n 1p
# The servers' names (crease-1..3) resolve only inside compose; their init-addr lets the
# check pass without them, with one warning each. Any other warning fails the check, so a
# deprecated or ignored keyword is not waved through.
check() {
  local output unexpected
  output=$(haproxy -c -f "$config" 2>&1) || { echo "$output"; exit 1; }
  echo "$output" | grep -v "could not resolve address"
  unexpected=$(grep WARNING <<<"$output" | grep -v "could not resolve address" || true)
  if [ -n "$unexpected" ]; then
    echo "unexpected warnings: the configuration needs a look" >&2
    exit 1
  fi
}

echo "plain HTTP (:8090), as compose runs it without a certificate:"
(unset CREASE_TLS_CERT; check)

# A throwaway certificate for the TLS binds: `haproxy -c` loads it, so a wrong path, a key
# that does not match or a bad PEM layout (chain, then key) fails here.
tls=$(mktemp -d)
trap 'rm -rf "$tls"' EXIT
openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=localhost \
  -addext subjectAltName=DNS:localhost,IP:127.0.0.1 \
  -keyout "$tls/key.pem" -out "$tls/cert.pem" 2>/dev/null
cat "$tls/cert.pem" "$tls/key.pem" >"$tls/crease.pem"
echo "TLS on (:443 with a throwaway self-signed certificate, :80 redirecting):"
CREASE_TLS_CERT="$tls/crease.pem" check
# The TLS lines are inside `.if defined(CREASE_TLS_CERT)`: make sure they were read, and that
# a missing certificate is an error, not a silently plain-HTTP proxy.
if CREASE_TLS_CERT="$tls/missing.pem" haproxy -c -q -f "$config" >/dev/null 2>&1; then
  echo "with CREASE_TLS_CERT naming a missing file the configuration still passed:" \
    "the TLS bind is not read" >&2
  exit 1
fi
echo "a missing certificate is refused"
