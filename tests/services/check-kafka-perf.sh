#!/usr/bin/env bash
# Test: Apache's ProducerPerformance and ConsumerPerformance, from the same download as
# the test broker, run against it through kafka-perf.sh.
#
#   check-kafka-perf.sh ENV_FILE ARTIFACT_DIR
#
# Keeps both outputs in ARTIFACT_DIR: kafka-producer-perf.txt and kafka-consumer-perf.txt
# (stdout, where the tools print their results), *.stderr.txt (client warnings).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

env_file=${1:?usage: check-kafka-perf.sh ENV_FILE ARTIFACT_DIR}
artifacts=${2:?usage: check-kafka-perf.sh ENV_FILE ARTIFACT_DIR}
[[ -s $env_file ]] || die "no services env file at $env_file: did services.start run and pass?"
set -a
# shellcheck disable=SC1090
source "$env_file"
set +a
mkdir -p "$artifacts"

records=1000
# A fresh topic per run: the consumer must see exactly this run's records.
topic=plimsoll-perf-$(date +%s)-$$
producer_out=$artifacts/kafka-producer-perf.txt
consumer_out=$artifacts/kafka-consumer-perf.txt

# --producer-props and --messages are deprecated in 4.4 but accepted by every 4.x
# release, so a PLIMSOLL_KAFKA_VERSION override keeps working.
status=0
"$PLIMSOLL_SERVICES_DIR/kafka-perf.sh" producer --topic "$topic" --num-records "$records" \
    --record-size 100 --throughput -1 \
    --producer-props "bootstrap.servers=$PLIMSOLL_TEST_KAFKA_BOOTSTRAP" acks=all \
    >"$producer_out" 2>"${producer_out%.txt}.stderr.txt" || status=$?
cat "$producer_out" "${producer_out%.txt}.stderr.txt"
((status == 0)) || die "ProducerPerformance exited with status $status (output: $producer_out)"
# The summary is the last line of stdout: "1000 records sent, N records/sec (...), ...".
summary=$(grep -E '^[0-9]+ records sent,' "$producer_out" | tail -n 1 || true)
last=$(tail -n 1 "$producer_out")
[[ $last == "$summary" ]] || die "the final line of ProducerPerformance is not its summary: '$last'"
[[ $summary == "$records records sent,"* ]] ||
    die "expected '$records records sent' in the final line, got '$summary' (output: $producer_out)"

status=0
"$PLIMSOLL_SERVICES_DIR/kafka-perf.sh" consumer --bootstrap-server "$PLIMSOLL_TEST_KAFKA_BOOTSTRAP" \
    --topic "$topic" --messages "$records" --timeout 30000 \
    >"$consumer_out" 2>"${consumer_out%.txt}.stderr.txt" || status=$?
cat "$consumer_out" "${consumer_out%.txt}.stderr.txt"
((status == 0)) || die "ConsumerPerformance exited with status $status (output: $consumer_out)"
# CSV: header then one data line; column 5 is data.consumed.in.nMsg.
consumed=$(awk -F', *' '/^start.time/ { header = 1; next } header && NF >= 5 { print $5; exit }' "$consumer_out")
[[ $consumed == "$records" ]] ||
    die "ConsumerPerformance consumed '${consumed:-nothing}' records, expected $records (output: $consumer_out)"

echo "ok: producer sent $records, consumer read $consumed on topic $topic"
