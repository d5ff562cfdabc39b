#!/usr/bin/env bash
# Starts and stops Debian's PostgreSQL 15 on a free loopback port for Plimsoll's team-store
# tests: a fresh cluster (initdb) in a temporary directory, a writer role, a read-only reader
# role and a database, TLS with a certificate authority of its own.
#
#   postgres.sh start STATE_DIR   initdb, start, create roles and database; writes STATE_DIR/env
#   postgres.sh stop STATE_DIR    stop the server started there and delete its data
#
# The server refuses to run as root: under root it runs as the `postgres` user the package
# creates (runuser), otherwise as the calling user. Its data directory is a mktemp directory
# that user owns (STATE_DIR may not be writable by it); STATE_DIR/datadir names it.
# The superuser connects only through a Unix socket inside that private directory (peer
# authentication); TCP on 127.0.0.1 takes scram-sha-256 passwords, which the tests read from
# STATE_DIR/pgpass (mode 0600, given as PGPASSFILE) and nowhere else.
#
# STATE_DIR/env:
#   PLIMSOLL_TEST_PG_HOST, PLIMSOLL_TEST_PG_PORT, PLIMSOLL_TEST_PG_DB,
#   PLIMSOLL_TEST_PG_WRITER, PLIMSOLL_TEST_PG_READER, PLIMSOLL_TEST_PG_PASSFILE,
#   PLIMSOLL_TEST_PG_ROOTCERT (the CA of the server's certificate, for sslmode=verify-full),
#   PLIMSOLL_TEST_PG_URI (the writer's URI, no password), PLIMSOLL_TEST_PG_LOG
# PLIMSOLL_PG_BIN: the server's binaries (default /usr/lib/postgresql/15/bin).
# PLIMSOLL_PG_START_TIMEOUT: seconds to wait for readiness (default 60).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

PG_BIN=${PLIMSOLL_PG_BIN:-/usr/lib/postgresql/15/bin}
DB=plimsoll
WRITER=plimsoll_writer
READER=plimsoll_reader

# Runs a command as the server's user.
as_server() {
    if [[ $(id -u) -eq 0 ]]; then
        runuser -u postgres -- "$@"
    else
        "$@"
    fi
}

server_user() { if [[ $(id -u) -eq 0 ]]; then echo postgres; else id -un; fi; }

stop() {
    local state=${1:?usage: postgres.sh stop STATE_DIR} data
    [[ -d $state ]] || return 0
    # The passwords die with the server.
    rm -f "$state/env" "$state/pgpass" "$state/root.crt"
    [[ -f $state/datadir ]] || return 0
    data=$(<"$state/datadir")
    if [[ -f $data/pgdata/postmaster.pid ]]; then
        as_server "$PG_BIN/pg_ctl" stop -D "$data/pgdata" -m fast -w -t 30 >/dev/null 2>&1 || {
            # pg_ctl could not stop it: the postmaster's pid, from its own pid file.
            head -1 "$data/pgdata/postmaster.pid" >"$state/postmaster.pid"
            stop_pid "$state/postmaster.pid" postgres 10 postgres
        }
        say "postgres stopped"
    fi
    # Only a directory this script made (mktemp's name under the temporary directory).
    [[ $data == "${TMPDIR:-/tmp}"/plimsoll-pg.* ]] && rm -rf "$data"
    rm -f "$state/datadir"
}

# A certificate authority and a server certificate for 127.0.0.1 and localhost.
make_certificates() {
    local dir=$1
    openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=Plimsoll test CA" \
        -keyout "$dir/ca.key" -out "$dir/ca.crt" >/dev/null 2>&1
    openssl req -newkey rsa:2048 -nodes -subj "/CN=localhost" \
        -keyout "$dir/server.key" -out "$dir/server.csr" >/dev/null 2>&1
    printf 'subjectAltName=DNS:localhost,IP:127.0.0.1\n' >"$dir/san.ext"
    openssl x509 -req -in "$dir/server.csr" -CA "$dir/ca.crt" -CAkey "$dir/ca.key" \
        -CAcreateserial -days 2 -extfile "$dir/san.ext" -out "$dir/server.crt" >/dev/null 2>&1
    rm -f "$dir/ca.key" "$dir/server.csr" "$dir/san.ext"
    chmod 600 "$dir/server.key"
}

configure() {
    local data=$1 port=$2
    cat >>"$data/pgdata/postgresql.conf" <<CONF
listen_addresses = '127.0.0.1'
port = $port
unix_socket_directories = '$data/sock'
ssl = on
ssl_cert_file = '$data/tls/server.crt'
ssl_key_file = '$data/tls/server.key'
password_encryption = 'scram-sha-256'
# A test server: durability traded for speed; nothing here outlives the run.
fsync = off
full_page_writes = off
synchronous_commit = off
max_connections = 100
CONF
    cat >"$data/pgdata/pg_hba.conf" <<HBA
local all all peer
host all all 127.0.0.1/32 scram-sha-256
HBA
}

# The roles and the database, as the manual's team store section (docs/store.md) describes them.
create_roles() {
    local data=$1 port=$2 writer_password=$3 reader_password=$4
    as_server "$PG_BIN/psql" -X -q -v ON_ERROR_STOP=1 -h "$data/sock" -p "$port" -d postgres <<SQL
CREATE ROLE $WRITER LOGIN PASSWORD '$writer_password';
CREATE ROLE $READER LOGIN PASSWORD '$reader_password';
CREATE DATABASE $DB OWNER $WRITER;
\connect $DB
REVOKE ALL ON DATABASE $DB FROM PUBLIC;
GRANT CONNECT ON DATABASE $DB TO $READER;
GRANT USAGE ON SCHEMA public TO $READER;
ALTER DEFAULT PRIVILEGES FOR ROLE $WRITER GRANT SELECT ON TABLES TO $READER;
ALTER DEFAULT PRIVILEGES FOR ROLE $WRITER GRANT USAGE ON SCHEMAS TO $READER;
SQL
}

start() {
    local state=${1:?usage: postgres.sh start STATE_DIR} timeout=${PLIMSOLL_PG_START_TIMEOUT:-60}
    [[ -x $PG_BIN/initdb ]] || die "$PG_BIN/initdb not found; install the Debian package 'postgresql-15'"
    require_command openssl openssl
    mkdir -p "$state"
    state=$(cd "$state" && pwd)
    stop "$state"
    trap 'status=$?; if ((status != 0)); then say "start failed; stopping what was started"; stop "$state" || true; fi' EXIT
    local data port user
    user=$(server_user)
    data=$(mktemp -d "${TMPDIR:-/tmp}/plimsoll-pg.XXXXXX")
    echo "$data" >"$state/datadir"
    mkdir -p "$data/sock" "$data/tls"
    make_certificates "$data/tls"
    chown -R "$user" "$data"
    chmod 700 "$data"
    as_server "$PG_BIN/initdb" -D "$data/pgdata" -U "$user" --auth=peer --encoding=UTF8 \
        --locale=C.UTF-8 >"$data/initdb.log" 2>&1 ||
        { show_log_tail "$data/initdb.log"; die "initdb failed"; }
    local attempt
    for attempt in 1 2 3; do
        port=$(free_ports 1)
        configure "$data" "$port"
        if as_server "$PG_BIN/pg_ctl" start -D "$data/pgdata" -l "$data/server.log" -w \
            -t "$timeout" >"$data/pg_ctl.log" 2>&1; then
            break
        fi
        grep -q "Address already in use" "$data/server.log" 2>/dev/null && ((attempt < 3)) && continue
        show_log_tail "$data/server.log"
        die "postgres did not start on 127.0.0.1:$port within ${timeout}s"
    done
    local writer_password reader_password
    writer_password=$(openssl rand -hex 16)
    reader_password=$(openssl rand -hex 16)
    create_roles "$data" "$port" "$writer_password" "$reader_password" ||
        { show_log_tail "$data/server.log"; die "creating the roles and the database failed"; }
    (
        umask 077
        printf '127.0.0.1:%s:*:%s:%s\nlocalhost:%s:*:%s:%s\n127.0.0.1:%s:*:%s:%s\nlocalhost:%s:*:%s:%s\n' \
            "$port" "$WRITER" "$writer_password" "$port" "$WRITER" "$writer_password" \
            "$port" "$READER" "$reader_password" "$port" "$READER" "$reader_password" >"$state/pgpass"
    )
    cp "$data/tls/ca.crt" "$state/root.crt"
    cat >"$state/env.tmp" <<ENV
PLIMSOLL_TEST_PG_HOST=127.0.0.1
PLIMSOLL_TEST_PG_PORT=$port
PLIMSOLL_TEST_PG_DB=$DB
PLIMSOLL_TEST_PG_WRITER=$WRITER
PLIMSOLL_TEST_PG_READER=$READER
PLIMSOLL_TEST_PG_PASSFILE=$state/pgpass
PLIMSOLL_TEST_PG_ROOTCERT=$state/root.crt
PLIMSOLL_TEST_PG_URI=postgresql://$WRITER@127.0.0.1:$port/$DB?sslmode=disable
PLIMSOLL_TEST_PG_LOG=$data/server.log
ENV
    mv "$state/env.tmp" "$state/env"
    trap - EXIT
    say "postgres ready on 127.0.0.1:$port (database $DB, roles $WRITER and $READER)"
}

command=${1:-}
state=${2:-}
[[ -n $state ]] || die "usage: postgres.sh start|stop STATE_DIR"
case $command in
    start) start "$state" ;;
    stop) stop "$state" ;;
    *) die "usage: postgres.sh start|stop STATE_DIR" ;;
esac
