#!/usr/bin/env bash
# The test suite's second pass: the same tests with the app on a real PostgreSQL server.
# Arguments go to pytest. Which server:
#   SCOREKEEPER_TEST_DATABASE_URL set  -> that one (postgresql+psycopg://user:pass@host:port/db)
#   root                               -> Debian's cluster, started by scripts/postgres.sh (CI)
#   anyone else with Debian's          -> a throwaway cluster of their own via pg_virtualenv
#     postgresql package
# Each test gets a schema of its own in that database (tests/database_support.py).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

PYTEST=(.venv/bin/pytest "$@")

if [[ -n "${SCOREKEEPER_TEST_DATABASE_URL:-}" ]]; then
    exec "${PYTEST[@]}"
fi

if [[ "$(id -u)" -eq 0 ]]; then
    SCOREKEEPER_TEST_DATABASE_URL="$(scripts/postgres.sh start)"
    # Anything but one PostgreSQL URL would quietly run this pass on SQLite again.
    if [[ ! "$SCOREKEEPER_TEST_DATABASE_URL" =~ ^postgresql\+psycopg://[^[:space:]]+$ ]]; then
        echo "test-postgres.sh: scripts/postgres.sh gave no PostgreSQL URL: $SCOREKEEPER_TEST_DATABASE_URL" >&2
        exit 1
    fi
    export SCOREKEEPER_TEST_DATABASE_URL
    echo "test-postgres.sh: the tests run on PostgreSQL at ${SCOREKEEPER_TEST_DATABASE_URL##*@}" >&2
    exec "${PYTEST[@]}"
fi

if command -v pg_virtualenv >/dev/null 2>&1; then
    # pg_virtualenv makes a cluster in a temporary folder as this user, runs the command with
    # PGUSER/PGPASSWORD/PGHOST/PGPORT pointing at it, and removes it afterwards.
    # shellcheck disable=SC2016  # expanded inside pg_virtualenv's environment
    exec pg_virtualenv sh -c '
        SCOREKEEPER_TEST_DATABASE_URL="postgresql+psycopg://$PGUSER:$PGPASSWORD@$PGHOST:${PGPORT:-5432}/$PGDATABASE"
        export SCOREKEEPER_TEST_DATABASE_URL
        exec "$@"' sh "${PYTEST[@]}"
fi

cat >&2 <<'MSG'
The PostgreSQL pass of the test suite needs a PostgreSQL server, and none was found.
Either install Debian's server (the pass then makes a throwaway cluster of its own):
    sudo apt-get install -y --no-install-recommends postgresql
or point it at a server you have, with a database the user may create schemas in:
    SCOREKEEPER_TEST_DATABASE_URL=postgresql+psycopg://user:password@127.0.0.1:5432/db make test-pg
`make test-sqlite` runs the SQLite pass alone.
MSG
exit 1
