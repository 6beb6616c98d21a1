#!/bin/sh
# Writes one Patroni member's configuration to stdout: patroni.yml.in with its placeholders
# filled in from the environment. drill.sh renders it for its two members on 127.0.0.1, and
# docker-compose.yml here renders it inside each member's container, so both run the same
# settings (docs/cluster.md, "PostgreSQL failover with Patroni").
#
# Environment (all required): SCOPE NAME LISTEN_HOST CONNECT_HOST PG_PORT REST_PORT
# ETCD_HOSTS CLIENT_NET RUN_DIR PG_BIN SUPERUSER_PASSWORD REPLICATION_PASSWORD REWIND_PASSWORD
set -eu
template=${1:-$(dirname "$0")/patroni.yml.in}
for name in SCOPE NAME LISTEN_HOST CONNECT_HOST PG_PORT REST_PORT ETCD_HOSTS CLIENT_NET RUN_DIR \
  PG_BIN SUPERUSER_PASSWORD REPLICATION_PASSWORD REWIND_PASSWORD; do
  eval "value=\${$name:-}"
  if [ -z "$value" ]; then
    echo "render-patroni.sh: $name is not set" >&2
    exit 2
  fi
  case "$value" in *'|'* | *'&'* | *'\'*)
    echo "render-patroni.sh: $name has a character the template cannot take" >&2
    exit 2 ;;
  esac
done
sed -e "s|@SCOPE@|$SCOPE|g" -e "s|@NAME@|$NAME|g" -e "s|@LISTEN_HOST@|$LISTEN_HOST|g" \
  -e "s|@CONNECT_HOST@|$CONNECT_HOST|g" -e "s|@PG_PORT@|$PG_PORT|g" -e "s|@REST_PORT@|$REST_PORT|g" \
  -e "s|@ETCD_HOSTS@|$ETCD_HOSTS|g" -e "s|@CLIENT_NET@|$CLIENT_NET|g" -e "s|@RUN_DIR@|$RUN_DIR|g" \
  -e "s|@PG_BIN@|$PG_BIN|g" -e "s|@SUPERUSER_PASSWORD@|$SUPERUSER_PASSWORD|g" \
  -e "s|@REPLICATION_PASSWORD@|$REPLICATION_PASSWORD|g" -e "s|@REWIND_PASSWORD@|$REWIND_PASSWORD|g" \
  "$template"
