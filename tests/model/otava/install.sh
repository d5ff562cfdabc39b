#!/usr/bin/env bash
# Creates a Python virtual environment in DIR (inside the build tree) holding Apache Otava and
# its playground generator (otava-test-data) from PyPI, once: the cross-check runs Otava's own
# change-point analysis on the series Plimsoll's tests use, and playground.py scores both on the
# generated suite. Idempotent (an existing venv with the pinned version is kept). Fails with a clear
# message when python3-venv is missing or PyPI is unreachable: the cross-check is never skipped.
#   install.sh DIR
set -euo pipefail
dir=${1:?usage: install.sh DIR}
package=apache-otava
version=0.8.0 # the only release on PyPI when this was written; its analysis module is used
generator=otava-test-data
generator_version=0.1.9 # the suite's series and labels depend on it: the floors were set on this one
if [[ -x $dir/bin/python ]] &&
    "$dir/bin/python" -c "import importlib.metadata as m, sys; sys.exit(m.version('$package') != '$version' or m.version('$generator') != '$generator_version')" 2>/dev/null; then
    exit 0
fi
command -v python3 >/dev/null || { echo "install.sh: python3 is not installed" >&2; exit 1; }
rm -rf "$dir"
if ! python3 -m venv "$dir" >"$dir.log" 2>&1; then
    echo "install.sh: python3 -m venv failed (apt-get install python3-venv?):" >&2
    tail -n 20 "$dir.log" >&2
    exit 1
fi
if ! "$dir/bin/pip" install --disable-pip-version-check --no-input "$package==$version" "$generator==$generator_version" >"$dir.log" 2>&1; then
    echo "install.sh: could not install $package==$version and $generator==$generator_version from PyPI" \
         "(is the package index reachable?); pip said:" >&2
    tail -n 20 "$dir.log" >&2
    rm -rf "$dir" # a half-installed venv must not pass the check above next time
    exit 1
fi
"$dir/bin/python" -c "import otava.analysis" || { echo "install.sh: otava.analysis does not import" >&2; exit 1; }
[[ -x $dir/bin/otava-gen ]] || { echo "install.sh: $generator installed no otava-gen" >&2; exit 1; }
