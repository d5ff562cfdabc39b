#!/usr/bin/env bash
# Installs hdr-histogram-js (HdrHistogram's JavaScript implementation) from the npm registry
# into DIR/node_modules, once: the interop test decodes Plimsoll's logs with it. Fails with a
# clear message when npm or the registry is unreachable. Nothing lands in the source tree.
#   install.sh DIR
set -euo pipefail
dir=${1:?usage: install.sh DIR}
version=3.0.1
if [[ -f $dir/node_modules/hdr-histogram-js/package.json ]] &&
    grep -q "\"version\": \"$version\"" "$dir/node_modules/hdr-histogram-js/package.json"; then
    exit 0
fi
command -v npm >/dev/null || { echo "install.sh: npm is not installed (apt-get install npm)" >&2; exit 1; }
mkdir -p "$dir"
if ! npm install --no-audit --no-fund --prefix "$dir" "hdr-histogram-js@$version" >"$dir/npm.log" 2>&1; then
    echo "install.sh: could not install hdr-histogram-js@$version from the npm registry" \
         "(is the registry reachable?); npm said:" >&2
    tail -n 20 "$dir/npm.log" >&2
    exit 1
fi
