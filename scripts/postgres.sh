#!/usr/bin/env bash
# A real PostgreSQL server for the test suite's second pass.
#   scripts/postgres.sh start   start Debian's cluster (as root), make the role and database,
#                               print the URL the tests use (SCOREKEEPER_TEST_DATABASE_URL)
#   scripts/postgres.sh url     print that URL only
# Needs root (pg_ctlcluster, su postgres) and the Debian package `postgresql`, which
# `scripts/system-packages.sh test` installs. A developer without root points the tests at a
# server of their own instead: SCOREKEEPER_TEST_DATABASE_URL=postgresql+psycopg://… make test-pg
set -euo pipefail

ROLE="${SCOREKEEPER_PG_ROLE:-scorekeeper_test}"
PASSWORD="${SCOREKEEPER_PG_PASSWORD:-scorekeeper_test}"
DATABASE="${SCOREKEEPER_PG_DATABASE:-scorekeeper_test}"
HOST=127.0.0.1

die() { echo "postgres.sh: $*" >&2; exit 1; }

cluster() {
    # The newest cluster Debian made when it installed the server (e.g. "15 main 5432").
    command -v pg_lsclusters >/dev/null 2>&1 || die "PostgreSQL is not installed (Debian package 'postgresql')"
    pg_lsclusters --no-header | sort -k1,1n | tail -n 1
}

url() {
    local port
    port="$(cluster | awk '{print $3}')"
    echo "postgresql+psycopg://$ROLE:$PASSWORD@$HOST:$port/$DATABASE"
}

start() {
    [[ "$(id -u)" -eq 0 ]] || die "starting the cluster needs root; without root set SCOREKEEPER_TEST_DATABASE_URL to a server of your own"
    local line version name port status
    line="$(cluster)"
    [[ -n "$line" ]] || die "no PostgreSQL cluster found (pg_createcluster 15 main)"
    read -r version name port status _ <<<"$line"
    # Everything but the URL goes to stderr: the caller reads the URL from stdout, and
    # pg_ctlcluster says things there ("Removed stale pid file." after an unclean stop), which
    # would make the URL no URL at all.
    if [[ "$status" != online* ]]; then
        pg_ctlcluster "$version" "$name" start >&2
    fi
    local tries=0
    until pg_isready -q -h "$HOST" -p "$port"; do
        tries=$((tries + 1))
        [[ $tries -lt 150 ]] || die "the server did not come up on port $port"
        sleep 0.2
    done
    psql_admin() { su postgres -c "psql -p $port -qtAX -v ON_ERROR_STOP=1 -c \"$1\""; }
    if [[ "$(psql_admin "SELECT 1 FROM pg_roles WHERE rolname = '$ROLE'")" != 1 ]]; then
        psql_admin "CREATE ROLE $ROLE LOGIN PASSWORD '$PASSWORD' CREATEDB" >&2 \
            || [[ "$(psql_admin "SELECT 1 FROM pg_roles WHERE rolname = '$ROLE'")" == 1 ]]
    fi
    if [[ "$(psql_admin "SELECT 1 FROM pg_database WHERE datname = '$DATABASE'")" != 1 ]]; then
        su postgres -c "createdb -p $port -O $ROLE $DATABASE" >&2 \
            || [[ "$(psql_admin "SELECT 1 FROM pg_database WHERE datname = '$DATABASE'")" == 1 ]]
    fi
    url
}

case "${1:-}" in
    start) start ;;
    url) url ;;
    *) die "usage: scripts/postgres.sh start|url" ;;
esac
