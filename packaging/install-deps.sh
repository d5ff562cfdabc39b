#!/usr/bin/env bash
# Installs the Debian packages Plimsoll builds, runs and tests with — only those missing.
# Usage: packaging/install-deps.sh [build|test]   (test adds the services the suite starts)
set -euo pipefail

want=(
  build-essential cmake ninja-build pkg-config ccache
  qt6-base-dev qt6-charts-dev qt6-svg-dev libqt6opengl6-dev libqt6sql6-sqlite libgl1-mesa-dri
  librdkafka-dev libcurl4-openssl-dev nlohmann-json3-dev libsqlite3-dev libeigen3-dev
  libcli11-dev libfmt-dev zlib1g-dev libre2-dev libpq-dev libssl-dev
  libisal-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  fonts-dejavu-core xvfb xauth
)
if [[ "${1:-build}" == "test" ]]; then
  # The real services the integration tests start on loopback: a Kafka broker (Java, its jars
  # resolved by Maven), redis-server and PostgreSQL 15 (the team store's tests); poppler-utils
  # reads back the PDFs reports write;
  # curl fetches librdkafka's source from Debian's archive for its rdkafka_performance tool
  # (compiled with build-essential against librdkafka-dev).
  want+=(default-jre-headless maven redis-server redis-tools postgresql-15 poppler-utils curl
         dpkg-dev desktop-file-utils appstream
         clang-16 libclang-rt-16-dev openssl jq python3 python3-venv)
  # jq: the manual's nightly CI recipe (docs/store.md) reads `plimsoll import --json` with it (its test runs it).
  # python3 (+ venv): the Otava cross-check's virtual environment, and the kubectl stand-in that
  # applies the Kubernetes launcher's Jobs in the tests.
  # clang-16 + its runtime: libFuzzer and the sanitizers for `make fuzz` (clang 14 cannot
  # compile the importers' C++20); openssl: the TLS tests make their own certificate authority.
fi

missing=()
for p in "${want[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# Java and Maven may come from elsewhere than Debian (a JDK already on the machine).
if [[ " ${missing[*]} " == *" default-jre-headless "* ]] && command -v java >/dev/null; then
  missing=("${missing[@]/default-jre-headless}")
fi
if [[ " ${missing[*]} " == *" maven "* ]] && command -v mvn >/dev/null; then
  missing=("${missing[@]/maven}")
fi
read -r -a missing <<<"${missing[*]}"
[[ ${#missing[@]} -eq 0 ]] && exit 0

echo "Installing missing packages: ${missing[*]}"
sudo=()
if [[ $(id -u) -ne 0 ]]; then
  command -v sudo >/dev/null || { echo "error: need root (or sudo) to install: ${missing[*]}" >&2; exit 1; }
  sudo=(sudo)
fi
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq
"${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
