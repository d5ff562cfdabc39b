#!/usr/bin/env bash
# librdkafka's own benchmark, examples/rdkafka_performance.c, built from Debian's source
# package against the installed librdkafka-dev (Debian 12 packages the library, not the tool).
#
#   rdkafka-performance.sh build         download, verify and build once; prints the binary
#   rdkafka-performance.sh run ARGS...   the tool with its own arguments, e.g.
#       run -P -t TOPIC -p 0 -b 127.0.0.1:PORT -c 200000 -s 1024 -a -1
#
# The source is librdkafka_<version>.orig.tar.gz from deb.debian.org (the upstream tarball
# Debian's librdkafka_<version>-1.dsc names), checked against its sha256 before anything is
# unpacked. The tarball, and the binary built from it, live in
# ${XDG_CACHE_HOME:-$HOME/.cache}/plimsoll/librdkafka-<version>/; later calls only read the
# cache. The binary is rebuilt when the installed library's version or the compiler changes
# (build-info). `./configure` runs only for config.h, which the example's internal headers
# (rd.h, rdtime.h) include; the program links the system -lrdkafka.
#
# Environment:
#   PLIMSOLL_RDKAFKA_SOURCE_VERSION  upstream version (default 2.0.2, Debian 12's)
#   PLIMSOLL_RDKAFKA_SOURCE_SHA256   the tarball's sha256 (required with another version)
#   PLIMSOLL_RDKAFKA_SOURCE_URL      where to fetch it (default: Debian's pool)
#   PLIMSOLL_RDKAFKA_CACHE           cache directory (default above)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

default_version=2.0.2
default_sha256=f321bcb1e015a34114c83cf1aa7b99ee260236aab096b85c003170c90a47ca9d
version=${PLIMSOLL_RDKAFKA_SOURCE_VERSION:-$default_version}
if [[ -n ${PLIMSOLL_RDKAFKA_SOURCE_SHA256:-} ]]; then
    sha256=$PLIMSOLL_RDKAFKA_SOURCE_SHA256
elif [[ $version == "$default_version" ]]; then
    sha256=$default_sha256
else
    die "PLIMSOLL_RDKAFKA_SOURCE_VERSION=$version needs PLIMSOLL_RDKAFKA_SOURCE_SHA256 (the sha256 the .dsc lists for librdkafka_$version.orig.tar.gz)"
fi
tarball_name=librdkafka_$version.orig.tar.gz
url=${PLIMSOLL_RDKAFKA_SOURCE_URL:-http://deb.debian.org/debian/pool/main/libr/librdkafka/$tarball_name}

cache_dir() {
    if [[ -n ${PLIMSOLL_RDKAFKA_CACHE:-} ]]; then
        echo "$PLIMSOLL_RDKAFKA_CACHE"
        return
    fi
    local base=${XDG_CACHE_HOME:-}
    if [[ -z $base && -n ${HOME:-} ]]; then
        base=$HOME/.cache
    elif [[ -z $base ]]; then
        base=${TMPDIR:-/tmp}/plimsoll-cache-$(id -u)
    fi
    echo "$base/plimsoll/librdkafka-$version"
}

sha256_of() { sha256sum "$1" | awk '{ print $1 }'; }

# What the cached binary was built with; a difference means rebuild.
build_stamp() {
    local library compiler
    library=$(pkg-config --modversion rdkafka 2>/dev/null) ||
        die "pkg-config finds no rdkafka: install the Debian package 'librdkafka-dev' (packaging/ installs it)"
    # The example's internal headers come from this source; the library must be its release.
    [[ $library == "$version" ]] ||
        die "the installed librdkafka is $library, the source is $version: set PLIMSOLL_RDKAFKA_SOURCE_VERSION and PLIMSOLL_RDKAFKA_SOURCE_SHA256 to the installed release's"
    compiler=$(gcc -dumpfullversion 2>/dev/null || gcc -dumpversion)
    printf 'source=%s sha256=%s\nlibrdkafka=%s\ngcc=%s\n' "$tarball_name" "$sha256" "$library" "$compiler"
}

# Fetches the tarball into the cache unless a verified copy is there. A copy that does not
# match is never built from: a cached one is fetched again, a fresh one is an error.
fetch_source() {
    local cache=$1 tarball=$1/$tarball_name actual
    if [[ -s $tarball ]]; then
        actual=$(sha256_of "$tarball")
        [[ $actual == "$sha256" ]] && return 0
        say "cached $tarball has sha256 $actual, expected $sha256; fetching it again"
        rm -f "$tarball"
    fi
    require_command curl curl
    say "downloading $url into $cache (first run only)"
    local partial=$tarball.partial.$$
    if ! curl -fsSL --retry 3 --connect-timeout 30 --max-time 600 -o "$partial" "$url"; then
        rm -f "$partial"
        die "could not download $url (is deb.debian.org reachable?)"
    fi
    actual=$(sha256_of "$partial")
    if [[ $actual != "$sha256" ]]; then
        mv -f "$partial" "$tarball.rejected"
        die "sha256 mismatch for $url: got $actual ($(stat -c %s "$tarball.rejected") bytes, kept as $tarball.rejected), expected $sha256; not building from it"
    fi
    mv "$partial" "$tarball"
    say "verified $tarball_name (sha256 $sha256)"
}

build() {
    local cache binary stamp lock
    cache=$(cache_dir)
    binary=$cache/bin/rdkafka_performance
    stamp=$(build_stamp)
    if [[ -x $binary && -f $cache/build-info && $(<"$cache/build-info") == "$stamp" ]]; then
        echo "$binary"
        return
    fi
    require_command gcc build-essential
    require_command sha256sum coreutils
    mkdir -p "$cache"
    lock=$cache.lock
    # Two test runs may build at once (two build trees); the lock makes one wait.
    exec {lock_fd}>"$lock"
    flock "$lock_fd"
    if [[ ! -x $binary || ! -f $cache/build-info || $(<"$cache/build-info") != "$stamp" ]]; then
        fetch_source "$cache"
        local work=$cache/build.$$ started=$SECONDS
        rm -rf "$work"
        mkdir -p "$work"
        say "building examples/rdkafka_performance.c of librdkafka $version against the installed library"
        tar -xzf "$cache/$tarball_name" -C "$work"
        local tree=$work/librdkafka-$version
        [[ -f $tree/examples/rdkafka_performance.c ]] ||
            die "$tarball_name has no librdkafka-$version/examples/rdkafka_performance.c"
        # Only config.h is wanted: no TLS, no bundled zstd/lz4 (the system library has its own).
        if ! (cd "$tree" && ./configure --disable-ssl --disable-zstd --disable-lz4-ext) \
            >"$work/configure.log" 2>&1; then
            show_log_tail "$work/configure.log"
            cp "$work/configure.log" "$cache/configure-failure.log"
            rm -rf "$work"
            die "librdkafka's ./configure failed (log: $cache/configure-failure.log)"
        fi
        if ! (cd "$tree" && gcc -O2 -I src -I . -o rdkafka_performance \
            examples/rdkafka_performance.c -lrdkafka -lm -lpthread) >"$work/gcc.log" 2>&1; then
            show_log_tail "$work/gcc.log"
            cp "$work/gcc.log" "$cache/gcc-failure.log"
            rm -rf "$work"
            die "compiling rdkafka_performance.c failed (log: $cache/gcc-failure.log)"
        fi
        # Its usage text names the library it runs with: the system's, of this release.
        local usage
        usage=$("$tree/rdkafka_performance" 2>&1 || true)
        [[ $usage == *"librdkafka version $version "* ]] || {
            rm -rf "$work"
            die "the built rdkafka_performance does not report librdkafka $version: ${usage:0:300}"
        }
        mkdir -p "$cache/bin"
        mv -f "$tree/rdkafka_performance" "$binary.tmp"
        mv -f "$binary.tmp" "$binary"
        printf '%s\n' "$stamp" >"$cache/build-info.tmp"
        mv -f "$cache/build-info.tmp" "$cache/build-info"
        rm -rf "$work"
        say "built $binary in $((SECONDS - started))s"
    fi
    flock -u "$lock_fd"
    echo "$binary"
}

command=${1:-}
case $command in
    build) build ;;
    run)
        shift
        binary=$(build)
        exec "$binary" "$@"
        ;;
    *) die "usage: rdkafka-performance.sh build | run ARGS... (the tool's own arguments)" ;;
esac
