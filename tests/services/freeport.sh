#!/usr/bin/env bash
# Prints N (default 1) free TCP ports, one per line, for services bound to 127.0.0.1.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
free_ports "${1:-1}"
