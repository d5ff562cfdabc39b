#!/usr/bin/env bash
# Starts and stops Debian's redis-server on a free loopback port for Plimsoll's tests:
# no persistence (no RDB, no AOF), its own directory, its own log.
#
#   redis.sh start STATE_DIR   start and wait for PONG; writes STATE_DIR/env
#   redis.sh stop STATE_DIR    stop the server started there
#
# PLIMSOLL_REDIS_START_TIMEOUT: seconds to wait for readiness (default 30).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

# One attempt; returns 2 when the port was taken between pick and bind.
start_once() {
    local state=$1 timeout=$2 port
    port=$(free_ports 1)
    rm -rf "$state/data"
    mkdir -p "$state/data"
    : >"$state/redis.log"
    # daemonize: redis detaches itself and closes ctest's pipes; the pid file is how we
    # find it again, never its name. save "" and appendonly no: nothing touches disk.
    if ! redis-server --bind 127.0.0.1 --port "$port" --protected-mode yes \
        --save "" --appendonly no --dir "$state/data" \
        --daemonize yes --pidfile "$state/pid" --logfile "$state/redis.log" \
        --unixsocket "" >"$state/launch.log" 2>&1; then
        show_log_tail "$state/launch.log"
        die "redis-server refused to start (log: $state/launch.log)"
    fi
    local deadline=$((SECONDS + timeout)) reply
    while :; do
        reply=$(redis-cli -h 127.0.0.1 -p "$port" ping 2>/dev/null || true)
        [[ $reply == PONG ]] && break
        if grep -qs 'Address already in use' "$state/redis.log"; then
            say "port $port was taken meanwhile; retrying on another"
            rm -f "$state/pid"
            return 2
        fi
        if ((SECONDS >= deadline)); then
            show_log_tail "$state/redis.log"
            stop_pid "$state/pid" redis-server 5 "127.0.0.1:$port"
            die "redis-server did not answer PING on 127.0.0.1:$port within ${timeout}s (log: $state/redis.log)"
        fi
        sleep 0.1
    done
    echo "$port" >"$state/port"
    cat >"$state/env" <<ENV
PLIMSOLL_TEST_REDIS_HOST=127.0.0.1
PLIMSOLL_TEST_REDIS_PORT=$port
PLIMSOLL_TEST_REDIS_LOG=$state/redis.log
PLIMSOLL_TEST_REDIS_PID=$(<"$state/pid")
ENV
    say "redis-server $(redis-server --version | sed -n 's/.*v=\([^ ]*\).*/\1/p') ready on 127.0.0.1:$port (log $state/redis.log)"
}

start() {
    local state=${1:?usage: redis.sh start STATE_DIR}
    mkdir -p "$state"
    state=$(cd "$state" && pwd)
    require_command redis-server redis-server
    require_command redis-cli redis-tools
    stop_pid "$state/pid" "previous redis-server" 10 "127.0.0.1:$(cat "$state/port" 2>/dev/null)"
    rm -f "$state/env"
    local status
    for _ in 1 2 3; do
        status=0
        start_once "$state" "${PLIMSOLL_REDIS_START_TIMEOUT:-30}" || status=$?
        ((status == 0)) && return 0
        ((status == 2)) || exit "$status"
    done
    die "no free port could be bound in 3 attempts"
}

stop() {
    local state=${1:?usage: redis.sh stop STATE_DIR}
    [[ -d $state ]] || return 0
    # redis-server shows "redis-server 127.0.0.1:PORT" as its command line.
    stop_pid "$state/pid" redis-server 10 "127.0.0.1:$(cat "$state/port" 2>/dev/null)"
    rm -rf "$state/data" "$state/env" "$state/port"
}

case ${1:-} in
    start) start "${2:-}" ;;
    stop) stop "${2:-}" ;;
    *) die "usage: redis.sh start STATE_DIR | stop STATE_DIR" ;;
esac
