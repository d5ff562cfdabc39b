#!/usr/bin/env bash
# Runs every libFuzzer target of a build-fuzz tree for a while and summarises.
# Usage: fuzz/run-fuzzers.sh BUILD_DIR SECONDS [TARGET_REGEX]
#
# Each target writes what it learns to BUILD_DIR/fuzz/corpus/<target>/ (kept between runs,
# never in the source tree) and reads the seeds and recorded findings in place. A crash,
# leak, timeout or sanitizer report leaves its input in BUILD_DIR/fuzz/findings/<target>/;
# copy it to tests/data/fuzz-regressions/<target>/ once fixed, and `make test` replays it.
set -uo pipefail
build=${1:?build dir}
seconds=${2:-60}
only=${3:-.}
targets=$build/fuzz/targets.txt.resolved
[[ -f $targets ]] || { echo "run-fuzzers: $targets missing; configure $build first" >&2; exit 2; }

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$(cd "$(dirname "$0")/.." && pwd)/tests/lsan.supp}
export QT_QPA_PLATFORM=offscreen

summary=$build/fuzz/summary.txt
: >"$summary"
failed=0
while read -r name exe seeds; do
  [[ $name =~ $only ]] || continue
  corpus=$build/fuzz/corpus/$name
  findings=$build/fuzz/findings/$name
  mkdir -p "$corpus" "$findings"
  existing=()
  for d in $seeds; do [[ -e $d ]] && existing+=("$d"); done
  log=$build/fuzz/$name.log
  echo "== $name (${seconds}s)"
  # -timeout: one input taking longer is a hang finding; -rss_limit_mb: a memory blow-up is one.
  "$exe" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=262144 \
    -print_final_stats=1 -artifact_prefix="$findings/" "$corpus" "${existing[@]}" >"$log" 2>&1
  rc=$?
  execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1)
  cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | grep -o '[0-9]*')
  status=ok
  if [[ $rc -ne 0 ]]; then status="FAILED (see $log; input in $findings/)"; failed=1; fi
  printf '%-36s %10s execs  cov %6s  %s\n' "$name" "${execs:-?}" "${cov:-?}" "$status" | tee -a "$summary"
done <"$targets"
echo "summary in $summary"
exit $failed
