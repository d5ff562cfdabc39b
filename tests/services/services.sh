#!/usr/bin/env bash
# Starts and stops every service Plimsoll's integration tests use, and writes the env
# file they read.
#
#   services.sh start STATE_DIR   Kafka broker + redis-server; writes STATE_DIR/env
#   services.sh stop STATE_DIR    stops both (safe to run when nothing is running)
#
# STATE_DIR/env holds KEY=VALUE lines (PLIMSOLL_TEST_KAFKA_BOOTSTRAP,
# PLIMSOLL_TEST_KAFKA_CLASSPATH_FILE, PLIMSOLL_TEST_REDIS_PORT, ...): sourceable by a
# shell, and read by the C++ tests. It exists only while the services run.
# ctest calls this through tests/services/CMakeLists.txt (fixture "services").
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

stop() {
    local state=$1 status=0
    rm -f "$state/env"
    "$PLIMSOLL_SERVICES_DIR/kafka.sh" stop "$state/kafka" || status=1
    "$PLIMSOLL_SERVICES_DIR/redis.sh" stop "$state/redis" || status=1
    return "$status"
}

start() {
    local state=$1
    mkdir -p "$state"
    state=$(cd "$state" && pwd)
    rm -f "$state/env"
    # Whatever fails, nothing started here is left running.
    trap 'status=$?; if ((status != 0)); then say "start failed; stopping what was started"; stop "$state" || true; fi' EXIT
    "$PLIMSOLL_SERVICES_DIR/redis.sh" start "$state/redis"
    "$PLIMSOLL_SERVICES_DIR/kafka.sh" start "$state/kafka"
    # Written last and renamed into place: a present env file means every service is up.
    {
        echo "# Plimsoll test services, written by tests/services/services.sh at $(date -Is)"
        echo "PLIMSOLL_TEST_SERVICES_DIR=$state"
        cat "$state/kafka/env" "$state/redis/env"
    } >"$state/env.tmp"
    mv "$state/env.tmp" "$state/env"
    trap - EXIT
    say "services up; env file: $state/env"
}

command=${1:-}
state=${2:-}
[[ -n $state ]] || die "usage: services.sh start|stop STATE_DIR"
case $command in
    start) start "$state" ;;
    stop) stop "$state" ;;
    *) die "usage: services.sh start|stop STATE_DIR" ;;
esac
