#!/usr/bin/env bash
# Writes the reference that docs/reference/ holds, from the binary itself, so that it cannot
# drift from it (`make reference`; tests/cli/reference_test.cpp fails while the committed files
# differ from what this prints):
#
#   docs/generate-reference.sh PLIMSOLL OUT_DIR
#
#   commands.md   every subcommand's --help (its options, their domains and defaults), the
#                 subcommands of a subcommand (bench producer, sizings compare, …) included
#   metrics.json  `plimsoll metrics --json`: the load factors and metrics with units and domains
#   formats.json  `plimsoll formats --json`: the formats Plimsoll imports and how each is detected
#
# The binary runs in a clean environment (no PLIMSOLL_DB, a fixed HOME and locale), so what it
# prints does not depend on who runs it.
set -euo pipefail
plimsoll=$(realpath "${1:?usage: generate-reference.sh PLIMSOLL OUT_DIR}")
out=${2:?usage: generate-reference.sh PLIMSOLL OUT_DIR}
mkdir -p "$out"
runtime=$(mktemp -d)
trap 'rm -rf "$runtime"' EXIT
run() { env -i PATH=/usr/bin:/bin HOME=/home/user LANG=C.UTF-8 LC_ALL=C.UTF-8 QT_QPA_PLATFORM=offscreen \
    XDG_RUNTIME_DIR="$runtime" "$plimsoll" "$@"; }

# The subcommands a --help text lists under "Subcommands:", one a line.
subcommands() {
    awk '/^Subcommands:/ { listing = 1; next }
         listing && /^[^ ]/ { listing = 0 }
         listing && /^  [a-z]/ { sub(/^  /, ""); split($0, words, /[ ,]/); print words[1] }'
}

# A command's section, then its subcommands' (depth first, in the order --help lists them).
section() {
    local command=$1 help sub
    # shellcheck disable=SC2086 # the command's words
    help=$(run $command --help)
    printf '\n## plimsoll%s\n\n```text\n%s\n```\n' "${command:+ $command}" "$help"
    for sub in $(subcommands <<<"$help"); do
        section "${command:+$command }$sub"
    done
}

commands_md() {
    printf '# Command reference\n\n'
    printf 'Every command of `plimsoll` with its options, their domains and defaults, as `--help`\n'
    printf 'prints them. Written by `make reference` from the binary (`docs/generate-reference.sh`);\n'
    printf 'do not edit: a test fails while this page differs from what the binary prints. The\n'
    printf 'manual explains each command by task: [docs/index.md](../index.md).\n\n'
    printf 'The metrics catalogue is [metrics.json](metrics.json) (`plimsoll metrics --json`) and the\n'
    printf 'formats with their detection rules [formats.json](formats.json) (`plimsoll formats --json`).\n'
    section ""
}

commands_md >"$out/commands.md"
run metrics --json >"$out/metrics.json"
run formats --json >"$out/formats.json"
