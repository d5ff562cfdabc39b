#!/usr/bin/env bash
# Plimsoll's performance suite: `make perf` builds Release into BUILD_DIR and runs this.
#
#   perf/run-perf.sh BUILD_DIR
#
# 1. Micro-benchmarks (Google Benchmark): HDR histogram, the envelope, importers, model, store
#    at 1M records.
# 2. The window on the 1M-record store, offscreen.
# 2b. The team store: a PostgreSQL server (tests/services/postgres.sh, into a temporary state
#    dir), the 1M-record import against a binary COPY of the same rows (the server's limit) and
#    SQLite's import of them, the series read, and the window on the 1M-run team store.
# 3. Against the local test broker (tests/services/services.sh, into a temporary state dir,
#    stopped on exit whatever happens): the same produce and consume workload through
#    `plimsoll bench`, Apache's perf tools and bare librdkafka loops, each client's CPU from
#    getrusage.
# Then prints the table and writes BUILD_DIR/perf-results.json (and .md).
#
# PLIMSOLL_PERF_RECORDS (default 1000000) sets the client workload; PLIMSOLL_PERF_REPEAT
# (default 9) in how many alternating pairs Plimsoll's clients and the bare loops run; PLIMSOLL_PERF_STORE_RECORDS
# (default 1000000) the records the store benchmarks import; PLIMSOLL_PERF_SKIP a
# space-separated subset of "micro store window teamstore clients" to leave out.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(dirname "$here")
build=$(cd "${1:?usage: run-perf.sh BUILD_DIR}" && pwd)
bin=$build/perf
results=$build/perf-results.d
records=${PLIMSOLL_PERF_RECORDS:-1000000}
skip=" ${PLIMSOLL_PERF_SKIP:-} "
mkdir -p "$results/clients"
say() { printf 'perf: %s\n' "$*" >&2; }
skipped() { [[ $skip == *" $1 "* ]]; }
# The servers started below, stopped on exit whatever happens.
kafka_state='' pg_state=''
stop_services() {
    [[ -n $kafka_state ]] && { "$root/tests/services/services.sh" stop "$kafka_state" >&2 || true; rm -rf "$kafka_state"; }
    [[ -n $pg_state ]] && { "$root/tests/services/postgres.sh" stop "$pg_state" >&2 || true; rm -rf "$pg_state"; }
    return 0
}
trap stop_services EXIT

cat >"$results/meta.json" <<META
{"records": $records, "record_bytes": 1024, "acks": "1", "linger_ms": 5, "batch_bytes": 16384,
 "host": "$(hostname)", "cpus": $(nproc), "load_avg": "$(cut -d' ' -f1-3 /proc/loadavg)",
 "commit": "$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)", "date": "$(date -Is)"}
META

gbench() { # NAME [ENV...]: a Google Benchmark binary, JSON into the results
    local name=$1
    say "$name"
    "$bin/$name" --benchmark_out="$results/$name.json" --benchmark_out_format=json \
        --benchmark_min_time="${PLIMSOLL_PERF_MIN_TIME:-0.5}" >&2
}

# The window reads a store it is given as a file or a URI alike: the same benchmark on both.
perf_window() { # STORE OUT.json [PNG]
    XDG_CONFIG_HOME=$results/config QT_QPA_PLATFORM=offscreen timeout "${PLIMSOLL_PERF_WINDOW_LIMIT_S:-600}" \
        "$bin/perf_window" "$@"
}

if ! skipped micro; then
    gbench micro_hdr
    gbench micro_envelope
    gbench micro_fleet
    gbench micro_model
    gbench micro_importers
fi
if ! skipped store; then
    PLIMSOLL_PERF_DIR=$results gbench micro_store
fi
if ! skipped window; then
    if [[ -f $results/trend-1m.db ]]; then
        say "window on the 1M-record store (offscreen)"
        # Bounded: a view that freezes on 1M records must not hold the suite (the figures it
        # reached are in window.json already).
        rm -f "$results/window.json"
        perf_window "$results/trend-1m.db" "$results/window.json" "$results/trends-1m.png" ||
            say "the window benchmark did not finish (what it measured is in $results/window.json)"
    else
        say "no 1M-record store (the store benchmark makes it): window skipped"
    fi
fi

if ! skipped teamstore; then
    pg_state=$(mktemp -d "${TMPDIR:-/tmp}/plimsoll-perf-pg.XXXXXX")
    "$root/tests/services/postgres.sh" start "$pg_state" >&2
    # shellcheck disable=SC1091
    source "$pg_state/env"
    export PGPASSFILE=$PLIMSOLL_TEST_PG_PASSFILE
    PLIMSOLL_PERF_PG_URI=$PLIMSOLL_TEST_PG_URI gbench micro_teamstore
    say "window on the 1M-run team store (offscreen)"
    rm -f "$results/window-pg.json"
    perf_window "$PLIMSOLL_TEST_PG_URI&options=-csearch_path%3Dperf_trend" "$results/window-pg.json" ||
        say "the window benchmark on the team store did not finish (what it measured is in $results/window-pg.json)"
    "$root/tests/services/postgres.sh" stop "$pg_state" >&2
    rm -rf "$pg_state"
    pg_state=''
fi

if ! skipped clients; then
    kafka_state=$(mktemp -d "${TMPDIR:-/tmp}/plimsoll-perf.XXXXXX")
    "$root/tests/services/services.sh" start "$kafka_state" >&2
    # shellcheck disable=SC1091
    source "$kafka_state/env"
    bootstrap=$PLIMSOLL_TEST_KAFKA_BOOTSTRAP
    create_topic() {
        java -cp "$(<"$PLIMSOLL_TEST_KAFKA_CLASSPATH_FILE")" \
            "-Dlog4j2.configurationFile=$root/tests/services/kafka/log4j2-tools.properties" \
            org.apache.kafka.tools.TopicCommand --bootstrap-server "$bootstrap" --create \
            --topic "$1" --partitions 1 --replication-factor 1 >&2
    }
    measure() { # STEM PROGRAM ARGS...
        local stem=$1
        shift
        say "$stem: $*"
        "$bin/perf_run" "$results/clients/$stem.run.json" "$results/clients/$stem.out" -- "$@" ||
            say "$stem exited with $? (its row will say MISSING)"
    }
    for t in plimsoll apache bare fleet; do create_topic "perf-$t"; done
    plimsoll=$build/app/plimsoll
    # Own clients and bare loops run in PLIMSOLL_PERF_REPEAT pairs, one right after the other,
    # which of them first alternating from pair to pair: the report takes each pair's ratio and
    # judges their median by its interval (perf_report.cpp, Paired). On a shared machine a
    # client's CPU-seconds vary by a third between runs; within a pair both sides see about the
    # same machine. Apache's tools run once.
    repeat=${PLIMSOLL_PERF_REPEAT:-9}
    nth() { [[ $1 == 1 ]] && echo "$2" || echo "$2.$1"; } # N STEM: the stem of run N
    inturn() { if (($1 % 2 == 1)); then echo "$2 $3"; else echo "$3 $2"; fi; } # N A B: the pair's order
    for ((i = 1; i <= repeat; i++)); do
        for side in $(inturn $i plimsoll bare); do
            if [[ $side == plimsoll ]]; then
                measure "$(nth $i produce-plimsoll)" "$plimsoll" bench producer --bootstrap-server "$bootstrap" \
                    --topic perf-plimsoll --records "$records" --record-size 1KB --rate unlimited --acks 1 \
                    --linger 5ms --batch-size 16384 --producer-clients 1 --no-store --output json
            else
                measure "$(nth $i produce-bare)" "$bin/bareproduce" "$bootstrap" perf-bare "$records" 1024 1 5 16384
            fi
        done
    done
    # The fleet: the same records from 1 agent and from 4 agent processes (each agent's CPU is
    # its coordinator's children's, so perf_run counts them all), in pairs likewise.
    for ((i = 1; i <= repeat; i++)); do
        for n in $(inturn $i 1 4); do
            measure "$(nth $i "fleet$n-plimsoll")" "$plimsoll" bench producer --bootstrap-server "$bootstrap" \
                --topic perf-fleet --records "$records" --record-size 1KB --rate unlimited --acks 1 \
                --linger 5ms --batch-size 16384 --producer-clients 1 --agents "$n" --no-store --output json
        done
    done
    measure produce-apache "$root/tests/services/kafka-perf.sh" producer --topic perf-apache \
        --num-records "$records" --record-size 1024 --throughput -1 \
        --producer-props "bootstrap.servers=$bootstrap" acks=1 linger.ms=5 batch.size=16384
    # Every consumer reads the same records: the first ones plimsoll wrote (its envelope is
    # checked).
    for ((i = 1; i <= repeat; i++)); do
        # The bare loop first or last in turn, between the two it is held to.
        if ((i % 2 == 0)); then
            measure "$(nth $i consume-bare)" "$bin/bareconsume" "$bootstrap" perf-plimsoll "$records" 52428800
        fi
        measure "$(nth $i consume-plimsoll)" "$plimsoll" bench consumer --bootstrap-server "$bootstrap" \
            --topic perf-plimsoll --records "$records" --from beginning --consumer-clients 1 --no-store \
            --output json
        # The same with the envelope check off: the work a bare loop does (no CRC-32 per record).
        measure "$(nth $i consume-plimsoll-novalidate)" "$plimsoll" bench consumer \
            --bootstrap-server "$bootstrap" --topic perf-plimsoll --records "$records" --from beginning \
            --consumer-clients 1 --validate none --no-store --output json
        if ((i % 2 == 1)); then
            measure "$(nth $i consume-bare)" "$bin/bareconsume" "$bootstrap" perf-plimsoll "$records" 52428800
        fi
    done
    measure consume-apache "$root/tests/services/kafka-perf.sh" consumer --bootstrap-server "$bootstrap" \
        --topic perf-plimsoll --messages "$records"
fi

"$bin/perf_report" "$results" "$build/perf-results.json" "$build/perf-results.md"

# The performance record: perf/RESULTS.md's table becomes this run's, headed by the run's commit,
# machine and load (its notes are written by hand).
record=$root/perf/RESULTS.md
if [[ -f $record ]] && grep -q '^<!-- perf-table:begin -->$' "$record"; then
    meta_line=$(python3 -c 'import json,sys; m=json.load(open(sys.argv[1])); print("Run at commit %s, %s, %s cores, load average %s." % (m["commit"], m["date"], m["cpus"], m["load_avg"]))' "$results/meta.json" 2>/dev/null || true)
    awk -v table="$build/perf-results.md" -v meta="$meta_line" '
        /^<!-- perf-table:begin -->$/ { print; if (meta != "") print meta "\n"; while ((getline line < table) > 0) print line; skip = 1; next }
        /^<!-- perf-table:end -->$/ { skip = 0 }
        !skip { print }' "$record" >"$record.new" && mv "$record.new" "$record"
    say "table written into $record"
fi
