#!/usr/bin/env bash
# Starts and stops a three-master Redis Cluster of Debian's redis-server on free loopback ports
# for Plimsoll's placement tests: no replicas, no persistence, each node in its own directory.
#
#   redis-cluster.sh start STATE_DIR   three nodes, `redis-cli --cluster create`, wait for
#                                      cluster_state:ok; writes STATE_DIR/env
#   redis-cluster.sh stop STATE_DIR    stop the nodes started there
#
# STATE_DIR/env: PLIMSOLL_TEST_REDIS_CLUSTER_PORTS (space-separated) and
# PLIMSOLL_TEST_REDIS_CLUSTER_SEED (HOST:PORT of the first node).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

stop() {
    local state=${1:?usage: redis-cluster.sh stop STATE_DIR} node
    [[ -d $state ]] || return 0
    rm -f "$state/env"
    for node in "$state"/node-*; do
        [[ -d $node ]] || continue
        stop_pid "$node/pid" redis-server 10 "127.0.0.1:$(cat "$node/port" 2>/dev/null)"
        rm -rf "$node"
    done
}

wait_for() {
    local what=$1 timeout=$2 deadline
    shift 2
    deadline=$((SECONDS + timeout))
    until "$@"; do
        ((SECONDS < deadline)) || return 1
        sleep 0.1
    done
}

pong() { [[ $(redis-cli -h 127.0.0.1 -p "$1" ping 2>/dev/null || true) == PONG ]]; }
cluster_ok() {
    local port
    for port in "$@"; do
        redis-cli -h 127.0.0.1 -p "$port" cluster info 2>/dev/null | grep -q '^cluster_state:ok' || return 1
    done
}

start() {
    local state=${1:?usage: redis-cluster.sh start STATE_DIR} timeout=${PLIMSOLL_REDIS_START_TIMEOUT:-30}
    require_command redis-server redis-server
    require_command redis-cli redis-tools
    mkdir -p "$state"
    state=$(cd "$state" && pwd)
    stop "$state"
    trap 'status=$?; if ((status != 0)); then say "start failed; stopping what was started"; stop "$state" || true; fi' EXIT
    local ports=() port i=0 node
    read -r -a ports <<<"$(free_ports 3 | tr '\n' ' ')"
    for port in "${ports[@]}"; do
        node="$state/node-$((++i))"
        mkdir -p "$node"
        echo "$port" >"$node/port"
        # daemonize: the pid file is how the node is found again, never its name.
        redis-server --bind 127.0.0.1 --port "$port" --protected-mode yes \
            --cluster-enabled yes --cluster-config-file "$node/nodes.conf" --cluster-node-timeout 5000 \
            --save "" --appendonly no --dir "$node" --daemonize yes --pidfile "$node/pid" \
            --logfile "$node/redis.log" --unixsocket "" >"$node/launch.log" 2>&1 ||
            { show_log_tail "$node/launch.log"; die "redis-server refused to start on port $port"; }
        wait_for "PONG" "$timeout" pong "$port" ||
            { show_log_tail "$node/redis.log"; die "node on 127.0.0.1:$port did not answer PING within ${timeout}s"; }
    done
    local endpoints=()
    for port in "${ports[@]}"; do endpoints+=("127.0.0.1:$port"); done
    redis-cli --cluster create "${endpoints[@]}" --cluster-replicas 0 --cluster-yes >"$state/create.log" 2>&1 ||
        { show_log_tail "$state/create.log"; die "redis-cli --cluster create failed"; }
    wait_for "cluster_state:ok" "$timeout" cluster_ok "${ports[@]}" ||
        { show_log_tail "$state/create.log"; die "the cluster did not reach cluster_state:ok within ${timeout}s"; }
    cat >"$state/env.tmp" <<ENV
PLIMSOLL_TEST_REDIS_CLUSTER_PORTS=${ports[*]}
PLIMSOLL_TEST_REDIS_CLUSTER_SEED=127.0.0.1:${ports[0]}
ENV
    mv "$state/env.tmp" "$state/env"
    trap - EXIT
    say "redis cluster of three masters ready on 127.0.0.1:${ports[*]}"
}

case ${1:-} in
    start) start "${2:-}" ;;
    stop) stop "${2:-}" ;;
    *) die "usage: redis-cluster.sh start STATE_DIR | stop STATE_DIR" ;;
esac
