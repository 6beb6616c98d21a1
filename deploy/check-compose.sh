#!/usr/bin/env bash
# Checks docker-compose.yml without a Docker engine:
#  1. `docker compose config -q` (the Compose v2 plugin) when it is installed, else Debian's
#     docker-compose 1.29 (installed if missing and apt-get is usable) validates both the
#     default services and the `cluster` profile against the Compose schema;
#  2. deploy/check_compose.py checks what the file is for: `docker compose up` is one node
#     and Postgres, the cluster profile adds NATS, three nodes and HAProxy, wired as
#     deploy/haproxy.cfg expects, and deploy/docker-compose.tls.yml (the overlay that turns
#     HAProxy's TLS on) publishes the TLS binds and mounts the certificate it names;
#  3. the same two checks for deploy/patroni/docker-compose.yml (the cluster on a Patroni
#     PostgreSQL pair behind HAProxy, etcd, NATS: deploy/patroni/check_compose.py).
set -euo pipefail
cd "$(dirname "$0")/.."

if docker compose version >/dev/null 2>&1; then
  compose=(docker compose)
elif command -v docker-compose >/dev/null; then
  compose=(docker-compose)
elif command -v apt-get >/dev/null && [ "$(id -u)" = 0 ]; then
  echo "no Compose found: installing Debian's docker-compose (no engine)"
  if ! apt-cache show docker-compose >/dev/null 2>&1; then
    apt-get update -qq
  fi
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends docker-compose >/dev/null
  compose=(docker-compose)
else
  compose=()
  echo "skipped the schema check: no Compose, and apt-get is not usable here (needs root)"
fi

if [ ${#compose[@]} -gt 0 ]; then
  "${compose[@]}" version | sed -n 1p
  "${compose[@]}" config -q
  "${compose[@]}" --profile cluster config -q
  "${compose[@]}" --profile cluster --profile monitoring config -q
  echo "schema: valid, with and without --profile cluster, and with --profile monitoring"
  "${compose[@]}" -f deploy/patroni/docker-compose.yml config -q
  echo "schema: deploy/patroni/docker-compose.yml valid"
  # The TLS overlay: valid merged over the base file, and its relative mount resolves to this
  # repository's deploy/tls (Compose reads an overlay's paths from the first file's folder).
  tls_config=$("${compose[@]}" -f docker-compose.yml -f deploy/docker-compose.tls.yml --profile cluster config)
  grep -q -- "- $PWD/deploy/tls:/usr/local/etc/haproxy/certs:ro" <<<"$tls_config" ||
    { echo "deploy/docker-compose.tls.yml: the certificate folder does not resolve to $PWD/deploy/tls" >&2; exit 1; }
  echo "schema: docker-compose.yml + deploy/docker-compose.tls.yml valid; certificates from $PWD/deploy/tls"
  # docker-compose 1.x lists every service whatever the profile; only v2 tells them apart.
  if [ "${compose[0]}" = docker ]; then
    echo "default services: $("${compose[@]}" config --services | sort | tr '\n' ' ')"
    echo "with --profile cluster: $("${compose[@]}" --profile cluster config --services | sort | tr '\n' ' ')"
  fi
fi

# Debian's python3-yaml comes with docker-compose; another python3 may lack it.
python=python3
if ! python3 -c 'import yaml' 2>/dev/null && [ -x /usr/bin/python3 ]; then
  python=/usr/bin/python3
fi
"$python" deploy/check_compose.py
"$python" deploy/patroni/check_compose.py
