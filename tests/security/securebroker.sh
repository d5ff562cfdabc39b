#!/usr/bin/env bash
# A second Kafka broker for the security suites (ctest fixture "securebroker"), apart from
# the shared one so that its settings cannot change what other suites see:
#   - an SSL listener whose certificate is signed by a CA made here with openssl, and a
#     second CA that signed nothing (the "wrong CA" clients must refuse);
#   - a SASL_PLAINTEXT listener (PLAIN, user "plimsoll", a random password);
#   - auto.create.topics.enable=false on every listener.
#
#   securebroker.sh start STATE_DIR   writes STATE_DIR/env (the broker's env lines plus
#                                     PLIMSOLL_TEST_CA, PLIMSOLL_TEST_WRONG_CA,
#                                     PLIMSOLL_TEST_SASL_USER/PASSWORD)
#   securebroker.sh stop STATE_DIR
set -euo pipefail
services="$(cd "$(dirname "${BASH_SOURCE[0]}")/../services" && pwd)"
source "$services/common.sh"

start() {
    local state=$1
    mkdir -p "$state"
    state=$(cd "$state" && pwd)
    rm -f "$state/env"
    require_command openssl openssl
    local tls=$state/tls
    rm -rf "$tls"
    mkdir -p "$tls"
    (
        cd "$tls"
        openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=Plimsoll Test CA" \
            -keyout ca.key -out ca.pem
        openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=Plimsoll Wrong CA" \
            -keyout wrong-ca.key -out wrong-ca.pem
        openssl req -newkey rsa:2048 -nodes -subj "/CN=127.0.0.1" -keyout server.key -out server.csr
        # librdkafka checks the host name (ssl.endpoint.identification.algorithm=https).
        printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\n' >san.ext
        openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial -days 2 \
            -extfile san.ext -out server.crt
    ) >"$state/openssl.log" 2>&1 || { show_log_tail "$state/openssl.log"; die "openssl could not make the test CA"; }

    local password
    password=$(head -c 12 /dev/urandom | base64 | tr -d '/+=\n')
    printf 'auto.create.topics.enable=false\n' >"$state/extra.properties"
    PLIMSOLL_KAFKA_TLS_DIR=$tls PLIMSOLL_KAFKA_SASL_PASSWORD=$password \
        PLIMSOLL_KAFKA_EXTRA_CONFIG=$state/extra.properties \
        PLIMSOLL_KAFKA_HEAP=${PLIMSOLL_KAFKA_HEAP:-384m} \
        "$services/kafka.sh" start "$state/kafka"
    {
        cat "$state/kafka/env"
        echo "PLIMSOLL_TEST_CA=$tls/ca.pem"
        echo "PLIMSOLL_TEST_WRONG_CA=$tls/wrong-ca.pem"
        echo "PLIMSOLL_TEST_SASL_USER=plimsoll"
        echo "PLIMSOLL_TEST_SASL_PASSWORD=$password"
    } >"$state/env.tmp"
    mv "$state/env.tmp" "$state/env"
}

stop() {
    local state=$1
    rm -f "$state/env"
    [[ -d $state/kafka ]] || return 0
    "$services/kafka.sh" stop "$state/kafka"
}

case ${1:-} in
    start) start "${2:?usage: securebroker.sh start STATE_DIR}" ;;
    stop) stop "${2:?usage: securebroker.sh stop STATE_DIR}" ;;
    *) die "usage: securebroker.sh start|stop STATE_DIR" ;;
esac
