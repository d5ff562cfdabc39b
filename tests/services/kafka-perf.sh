#!/usr/bin/env bash
# Runs Apache's own perf tools from the jars of the test broker's release:
#
#   kafka-perf.sh producer ARGS...   org.apache.kafka.tools.ProducerPerformance
#                                    (what kafka-producer-perf-test.sh runs)
#   kafka-perf.sh consumer ARGS...   org.apache.kafka.tools.ConsumerPerformance
#                                    (what kafka-consumer-perf-test.sh runs)
#   kafka-perf.sh share-consumer ARGS...
#                                    org.apache.kafka.tools.ShareConsumerPerformance
#                                    (kafka-share-consumer-perf-test.sh, Kafka 4.x)
#   kafka-perf.sh configs ARGS...    org.apache.kafka.tools.ConfigCommand (kafka-configs.sh),
#                                    e.g. a share group's share.auto.offset.reset
#
# ARGS are the tools' own, e.g. producer --topic t --num-records 1000 --record-size 100
# --throughput -1 --producer-props bootstrap.servers=127.0.0.1:PORT
#
# The classpath comes from PLIMSOLL_TEST_KAFKA_CLASSPATH_FILE (set by the services env
# file) or else from tests/services/kafka.sh classpath, which resolves it if needed.
# PLIMSOLL_KAFKA_PERF_HEAP sets the tool's heap (default 512m).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

tool=${1:-}
case $tool in
    producer) main_class=org.apache.kafka.tools.ProducerPerformance ;;
    consumer) main_class=org.apache.kafka.tools.ConsumerPerformance ;;
    share-consumer) main_class=org.apache.kafka.tools.ShareConsumerPerformance ;;
    configs) main_class=org.apache.kafka.tools.ConfigCommand ;;
    *) die "usage: kafka-perf.sh producer|consumer|share-consumer|configs ARGS... (the tools' own arguments)" ;;
esac
shift

require_command java default-jre-headless
classpath_file=${PLIMSOLL_TEST_KAFKA_CLASSPATH_FILE:-}
if [[ -z $classpath_file ]]; then
    classpath_file=$("$PLIMSOLL_SERVICES_DIR/kafka.sh" classpath)
fi
[[ -s $classpath_file ]] || die "classpath file $classpath_file is missing or empty; run tests/services/kafka.sh classpath"

exec java -Djava.awt.headless=true \
    "-Dlog4j2.configurationFile=$PLIMSOLL_SERVICES_DIR/kafka/log4j2-tools.properties" \
    "-Xmx${PLIMSOLL_KAFKA_PERF_HEAP:-512m}" \
    -cp "$(<"$classpath_file")" "$main_class" "$@"
