# Shared helpers for the test-service scripts. Sourced, never run.
# shellcheck shell=bash

# shellcheck disable=SC2034 # used by the scripts that source this file
PLIMSOLL_SERVICES_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

# Every message names the script, so a ctest log with several services stays readable.
say() { printf '%s: %s\n' "$(basename "$0")" "$*" >&2; }
die() { say "error: $*"; exit 1; }

require_command() {
    local command=$1 package=$2
    command -v "$command" >/dev/null 2>&1 ||
        die "'$command' not found; install the Debian package '$package' (packaging/ installs it)"
}

# Prints the last lines of a log so a failure explains itself without a second look.
show_log_tail() {
    local file=$1 lines=${2:-40}
    if [[ -s $file ]]; then
        say "last $lines lines of $file:"
        # Maven colours its output even in batch mode; escape codes only clutter a log.
        tail -n "$lines" "$file" | sed -e 's/\x1b\[[0-9;]*m//g' -e 's/^/    /' >&2
    else
        say "$file is empty or missing"
    fi
}

# Ports of all loopback/any-address sockets, in any state, from /proc: no python, no ss.
used_ports() {
    local file hex
    for file in /proc/net/tcp /proc/net/tcp6; do
        [[ -r $file ]] || continue
        # Column 2 is ADDRESS:PORT in hex; mawk has no strtonum, so bash converts.
        awk 'NR > 1 { n = split($2, a, ":"); print a[n] }' "$file"
    done | sort -u | while read -r hex; do echo $((16#$hex)); done
}

# free_ports N: prints N distinct ports that nothing uses now. They are drawn at random
# from 20000-32767, below Linux's ephemeral range, so that outgoing connections of other
# programs cannot take them between our pick and the service's bind; callers still retry
# on "address in use" because another test run may draw the same port.
free_ports() {
    local count=$1 picked=() used port attempts=0
    used=" $(used_ports | tr '\n' ' ') "
    while ((${#picked[@]} < count)); do
        ((++attempts < 1000)) || die "no free loopback port found after 1000 tries"
        port=$((20000 + RANDOM % 12768))
        [[ $used == *" $port "* ]] && continue
        [[ " ${picked[*]} " == *" $port "* ]] && continue
        picked+=("$port")
    done
    printf '%s\n' "${picked[@]}"
}

# True while the process exists and is not a zombie.
process_alive() {
    local pid=$1 state
    [[ -n $pid ]] || return 1
    kill -0 "$pid" 2>/dev/null || return 1
    state=$(awk '{ print $3 }' "/proc/$pid/stat" 2>/dev/null || true)
    [[ $state != Z ]]
}

# stop_pid PIDFILE NAME GRACE_SECONDS MATCH: SIGTERM, wait, then SIGKILL. Only the process
# recorded in the pid file is touched, never anything found by name, and only while its
# command line still contains MATCH: after a reboot the pid may belong to someone else.
stop_pid() {
    local pidfile=$1 name=$2 grace=$3 match=$4 pid waited=0 cmdline
    [[ -f $pidfile ]] || return 0
    pid=$(<"$pidfile")
    if process_alive "$pid"; then
        cmdline=$(tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null || true)
        if [[ $cmdline != *"$match"* ]]; then
            say "pid $pid in $pidfile is no longer $name; leaving it alone"
            rm -f "$pidfile"
            return 0
        fi
        kill -TERM "$pid" 2>/dev/null || true
        while process_alive "$pid" && ((waited < grace * 10)); do
            sleep 0.1
            ((++waited))
        done
        if process_alive "$pid"; then
            say "$name (pid $pid) still running after ${grace}s; sending SIGKILL"
            kill -KILL "$pid" 2>/dev/null || true
            sleep 0.2
        fi
        say "$name (pid $pid) stopped"
    fi
    rm -f "$pidfile"
}
