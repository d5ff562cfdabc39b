#!/usr/bin/env bash
# Starts and stops a single-node Apache Kafka broker (KRaft, broker+controller in one
# process) on free loopback ports, for Plimsoll's integration tests.
#
#   kafka.sh classpath          resolve the jars (Maven Central, once) and print the
#                               path of the classpath file
#   kafka.sh start STATE_DIR    format fresh storage, start the broker, wait until ready;
#                               writes STATE_DIR/env (PLIMSOLL_TEST_KAFKA_* lines)
#   kafka.sh stop STATE_DIR     stop the broker started there and delete its data
#
# Environment:
#   PLIMSOLL_KAFKA_VERSION        Kafka release (default: the one in kafka/pom.xml)
#   PLIMSOLL_KAFKA_CACHE          where the jars go (default:
#                                 ${XDG_CACHE_HOME:-$HOME/.cache}/plimsoll/kafka-<version>)
#   PLIMSOLL_KAFKA_START_TIMEOUT  seconds to wait for readiness (default 180)
#   PLIMSOLL_KAFKA_HEAP           broker heap (default 768m)
#   PLIMSOLL_MAVEN_ARGS           extra arguments for mvn (e.g. -o, -s settings.xml)
#   PLIMSOLL_KAFKA_TLS_DIR        adds an SSL listener: the directory holds server.crt (the
#                                 broker's PEM certificate chain) and server.key (its
#                                 unencrypted PKCS#8 PEM key); env gains
#                                 PLIMSOLL_TEST_KAFKA_SSL_BOOTSTRAP
#   PLIMSOLL_KAFKA_SASL_PASSWORD  adds a SASL_PLAINTEXT listener (PLAIN, user "plimsoll" with
#                                 this password); env gains PLIMSOLL_TEST_KAFKA_SASL_BOOTSTRAP
#   PLIMSOLL_KAFKA_EXTRA_CONFIG   a file of broker properties appended to the configuration
#                                 (e.g. auto.create.topics.enable=false)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

pom="$PLIMSOLL_SERVICES_DIR/kafka/pom.xml"
default_version=$(sed -n 's:.*<kafka.version>\(.*\)</kafka.version>.*:\1:p' "$pom")
version=${PLIMSOLL_KAFKA_VERSION:-$default_version}

cache_dir() {
    if [[ -n ${PLIMSOLL_KAFKA_CACHE:-} ]]; then
        echo "$PLIMSOLL_KAFKA_CACHE"
        return
    fi
    local base=${XDG_CACHE_HOME:-}
    if [[ -z $base && -n ${HOME:-} ]]; then
        base=$HOME/.cache
    elif [[ -z $base ]]; then
        # A bare CI environment may have no HOME: still outside the repository.
        base=${TMPDIR:-/tmp}/plimsoll-cache-$(id -u)
    fi
    echo "$base/plimsoll/kafka-$version"
}

# Resolves kafka_2.13 + kafka-tools + logging into the cache once; later calls only read
# it. The jars are copied out of ~/.m2 so the cache is self-contained and a finished
# cache is recognised by its classpath file alone (written last, after an atomic rename).
resolve_classpath() {
    local cache classpath_file lock staging started
    cache=$(cache_dir)
    classpath_file=$cache/classpath
    if [[ -s $classpath_file ]]; then
        echo "$classpath_file"
        return
    fi
    require_command java default-jre-headless
    require_command mvn maven
    mkdir -p "$(dirname "$cache")"
    lock=$cache.lock
    # Two test runs may resolve at once (two build trees); the lock makes one wait.
    exec {lock_fd}>"$lock"
    flock "$lock_fd"
    if [[ ! -s $classpath_file ]]; then
        staging=$cache.partial.$$
        rm -rf "$staging"
        mkdir -p "$staging"
        say "resolving Apache Kafka $version from Maven Central into $cache (first run only; this can take minutes)"
        started=$SECONDS
        # shellcheck disable=SC2086 # PLIMSOLL_MAVEN_ARGS is a list of words on purpose
        if ! mvn -B -q -Dstyle.color=never -f "$pom" ${PLIMSOLL_MAVEN_ARGS:-} \
            -Dkafka.version="$version" \
            dependency:copy-dependencies -DincludeScope=runtime \
            -DoutputDirectory="$staging/lib" >"$staging/maven.log" 2>&1; then
            show_log_tail "$staging/maven.log" 60
            local kept=$cache.maven-failure.log
            cp "$staging/maven.log" "$kept"
            rm -rf "$staging"
            flock -u "$lock_fd"
            die "Maven could not resolve org.apache.kafka:kafka_2.13:$version and kafka-tools:$version (log: $kept). Is Maven Central reachable, and is $version released?"
        fi
        ls "$staging"/lib/kafka_2.13-*.jar "$staging"/lib/kafka-tools-[0-9]*.jar >/dev/null 2>&1 ||
            die "Maven finished but the broker or tools jar is missing in $staging/lib"
        rm -rf "$cache"
        mv "$staging" "$cache"
        # Explicit jar list (not lib/*): the classpath file is also read by tests.
        find "$cache/lib" -name '*.jar' | sort | paste -sd: >"$classpath_file.tmp"
        mv "$classpath_file.tmp" "$classpath_file"
        say "resolved $(find "$cache/lib" -name '*.jar' | wc -l) jars in $((SECONDS - started))s"
    fi
    flock -u "$lock_fd"
    echo "$classpath_file"
}

# A Kafka cluster id is 16 random bytes in URL-safe base64 without padding (22 chars). One
# starting with '-' (1 in 64) would read as an option to StorageTool's argument parser
# ("--cluster-id: expected one argument"): draw again.
random_cluster_id() {
    local id
    while id=$(head -c 16 /dev/urandom | base64 | tr '+/' '-_' | tr -d '=\n') && [[ $id == -* ]]; do :; done
    echo "$id"
}

port_accepts() {
    local port=$1
    (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null
}

# The optional SSL and SASL_PLAINTEXT listeners (PLIMSOLL_KAFKA_TLS_DIR,
# PLIMSOLL_KAFKA_SASL_PASSWORD), rewritten into the generated configuration. Prints the env
# lines that name them. Kafka 4 reads PEM directly: no keytool, no JKS.
add_secure_listeners() {
    local config=$1 ssl_port=$2 sasl_port=$3 listeners="" map="" env=""
    if [[ -n ${PLIMSOLL_KAFKA_TLS_DIR:-} ]]; then
        local crt=$PLIMSOLL_KAFKA_TLS_DIR/server.crt key=$PLIMSOLL_KAFKA_TLS_DIR/server.key
        [[ -r $crt && -r $key ]] || die "PLIMSOLL_KAFKA_TLS_DIR: server.crt and server.key needed in $PLIMSOLL_KAFKA_TLS_DIR"
        listeners+=",SSL://127.0.0.1:$ssl_port"
        map+=",SSL:SSL"
        # Inline PEM values, newlines as \n escapes (java.util.Properties turns them back):
        # a file-based PEM keystore would insist on an encrypted key and its password.
        cat >>"$config" <<PROPS
listener.name.ssl.ssl.keystore.type=PEM
listener.name.ssl.ssl.keystore.certificate.chain=$(awk '{printf "%s\\n", $0}' "$crt")
listener.name.ssl.ssl.keystore.key=$(awk '{printf "%s\\n", $0}' "$key")
listener.name.ssl.ssl.client.auth=none
PROPS
        env+="PLIMSOLL_TEST_KAFKA_SSL_BOOTSTRAP=127.0.0.1:$ssl_port"$'\n'
    fi
    if [[ -n ${PLIMSOLL_KAFKA_SASL_PASSWORD:-} ]]; then
        listeners+=",SASL_PLAINTEXT://127.0.0.1:$sasl_port"
        map+=",SASL_PLAINTEXT:SASL_PLAINTEXT"
        cat >>"$config" <<PROPS
sasl.enabled.mechanisms=PLAIN
listener.name.sasl_plaintext.plain.sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required user_plimsoll="$PLIMSOLL_KAFKA_SASL_PASSWORD";
PROPS
        env+="PLIMSOLL_TEST_KAFKA_SASL_BOOTSTRAP=127.0.0.1:$sasl_port"$'\n'
    fi
    if [[ -n $listeners ]]; then
        sed -i -e "s|^listeners=\(.*\)|listeners=\1$listeners|" \
            -e "s|^advertised.listeners=\(.*\)|advertised.listeners=\1$listeners|" \
            -e "s|^listener.security.protocol.map=\(.*\)|listener.security.protocol.map=\1$map|" "$config"
    fi
    printf '%s' "${env%$'\n'}"
}

# One attempt on fresh ports. Returns 2 when a port was taken between pick and bind, so
# that the caller retries with others; any other failure ends the start.
start_once() {
    local state=$1 classpath=$2 timeout=$3
    local broker_port controller_port ports logs=$state/logs data=$state/data
    mapfile -t ports < <(free_ports 4)
    broker_port=${ports[0]}
    controller_port=${ports[1]}

    rm -rf "$data" "$logs"
    mkdir -p "$data" "$logs"
    sed -e "s|@BROKER_PORT@|$broker_port|g" \
        -e "s|@CONTROLLER_PORT@|$controller_port|g" \
        -e "s|@DATA_DIR@|$data|g" \
        "$PLIMSOLL_SERVICES_DIR/kafka/server.properties.in" >"$state/server.properties"
    local extra_env=""
    extra_env=$(add_secure_listeners "$state/server.properties" "${ports[2]}" "${ports[3]}")
    if [[ -n ${PLIMSOLL_KAFKA_EXTRA_CONFIG:-} ]]; then
        [[ -r $PLIMSOLL_KAFKA_EXTRA_CONFIG ]] || die "PLIMSOLL_KAFKA_EXTRA_CONFIG: cannot read $PLIMSOLL_KAFKA_EXTRA_CONFIG"
        cat "$PLIMSOLL_KAFKA_EXTRA_CONFIG" >>"$state/server.properties"
    fi

    local jvm_common=(
        -Djava.awt.headless=true
        "-Dlog4j2.configurationFile=$PLIMSOLL_SERVICES_DIR/kafka/log4j2.properties"
        "-Dplimsoll.kafka.logdir=$logs"
    )
    # Storage is formatted on every run: each test run gets an empty cluster.
    if ! java "${jvm_common[@]}" -Dplimsoll.kafka.logname=storage-format -Xmx256m \
        -cp "$classpath" kafka.tools.StorageTool format \
        --cluster-id "$(random_cluster_id)" --config "$state/server.properties" \
        >"$logs/storage-format.out" 2>&1; then
        show_log_tail "$logs/storage-format.out"
        die "formatting KRaft storage failed (log: $logs/storage-format.out)"
    fi

    local heap=${PLIMSOLL_KAFKA_HEAP:-768m}
    # setsid: the broker must outlive this script and the ctest step that ran it, and
    # must not hold ctest's output pipes open (stdio goes to files).
    setsid java "${jvm_common[@]}" -Dplimsoll.kafka.logname=server \
        -Xms256m "-Xmx$heap" -XX:+UseG1GC -XX:MaxGCPauseMillis=20 \
        -cp "$classpath" kafka.Kafka "$state/server.properties" \
        </dev/null >"$logs/stdout.log" 2>&1 &
    local pid=$!
    echo "$pid" >"$state/pid"

    local deadline=$((SECONDS + timeout))
    while :; do
        if ! process_alive "$pid"; then
            rm -f "$state/pid"
            if grep -qs 'Address already in use' "$logs/server.log" "$logs/stdout.log"; then
                say "port $broker_port or $controller_port was taken meanwhile; retrying on others"
                return 2
            fi
            show_log_tail "$logs/server.log"
            show_log_tail "$logs/stdout.log" 20
            die "the Kafka broker exited while starting (logs: $logs/server.log, $logs/stdout.log)"
        fi
        if grep -qs 'Kafka Server started' "$logs/server.log" && port_accepts "$broker_port"; then
            break
        fi
        if ((SECONDS >= deadline)); then
            show_log_tail "$logs/server.log"
            stop_pid "$state/pid" "Kafka broker" 10 "$state/server.properties"
            die "the Kafka broker was not ready within ${timeout}s (log: $logs/server.log)"
        fi
        sleep 0.25
    done

    cat >"$state/env" <<ENV
PLIMSOLL_TEST_KAFKA_BOOTSTRAP=127.0.0.1:$broker_port
PLIMSOLL_TEST_KAFKA_VERSION=$version
PLIMSOLL_TEST_KAFKA_CLASSPATH_FILE=$(cache_dir)/classpath
PLIMSOLL_TEST_KAFKA_LOG=$logs/server.log
PLIMSOLL_TEST_KAFKA_PID=$pid
ENV
    [[ -z $extra_env ]] || printf '%s\n' "$extra_env" >>"$state/env"
    say "Kafka $version ready on 127.0.0.1:$broker_port (pid $pid, log $logs/server.log)"
}

start() {
    local state=${1:?usage: kafka.sh start STATE_DIR}
    mkdir -p "$state"
    state=$(cd "$state" && pwd)
    require_command java default-jre-headless
    require_command setsid util-linux
    require_command flock util-linux
    local classpath_file classpath started=$SECONDS status
    classpath_file=$(resolve_classpath)
    classpath=$(<"$classpath_file")
    # A broker left over from an interrupted run would hold its ports and data: end it.
    stop_pid "$state/pid" "previous Kafka broker" 30 "$state/server.properties"
    rm -f "$state/env"
    for _ in 1 2 3; do
        status=0
        start_once "$state" "$classpath" "${PLIMSOLL_KAFKA_START_TIMEOUT:-180}" || status=$?
        if ((status == 0)); then
            say "broker start took $((SECONDS - started))s"
            return 0
        fi
        ((status == 2)) || exit "$status"
    done
    die "no free port pair could be bound in 3 attempts"
}

stop() {
    local state=${1:?usage: kafka.sh stop STATE_DIR}
    [[ -d $state ]] || return 0
    stop_pid "$state/pid" "Kafka broker" 60 "$state/server.properties"
    # Data is per run; the logs stay for post-mortems until the next start.
    rm -rf "$state/data" "$state/env"
}

case ${1:-} in
    classpath) resolve_classpath ;;
    start) start "${2:-}" ;;
    stop) stop "${2:-}" ;;
    *) die "usage: kafka.sh classpath | start STATE_DIR | stop STATE_DIR" ;;
esac
