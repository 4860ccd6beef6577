#!/bin/sh
# First start on an empty PGDATA: create the cluster, the superuser POSTGRES_USER with
# POSTGRES_PASSWORD (password login from the network) and the database POSTGRES_DB, as the
# official image does. Later starts just run the server.
set -eu
if [ "${1:-}" = postgres ] && [ ! -s "$PGDATA/PG_VERSION" ]; then
  : "${POSTGRES_PASSWORD:?POSTGRES_PASSWORD must be set}"
  user="${POSTGRES_USER:-postgres}"
  db="${POSTGRES_DB:-$user}"
  pwfile="$(mktemp)"
  printf '%s\n' "$POSTGRES_PASSWORD" > "$pwfile"
  initdb --username="$user" --pwfile="$pwfile" --auth-local=trust --auth-host=scram-sha-256 \
    --encoding=UTF8 -D "$PGDATA" > /dev/null
  rm -f "$pwfile"
  echo 'host all all all scram-sha-256' >> "$PGDATA/pg_hba.conf"
  echo "listen_addresses = '*'" >> "$PGDATA/postgresql.conf"
  if [ "$db" != postgres ]; then
    pg_ctl -D "$PGDATA" -o "-c listen_addresses=''" -w start > /dev/null
    createdb --username="$user" "$db"
    pg_ctl -D "$PGDATA" -m fast -w stop > /dev/null
  fi
  echo "PostgreSQL initialised: user $user, database $db"
fi
exec "$@"
