#!/bin/sh
# Fails, naming each place, when a library source includes a header by a relative path
# ("../ui/x.h"), which would reach past the include paths that keep the layers apart.
cd "$1" || exit 2
found=$(grep -rnE '^[[:space:]]*#[[:space:]]*include[[:space:]]*"\.\.?/' model export importers runner ui app)
if [ -n "$found" ]; then
  echo "relative includes step around the layers:"
  echo "$found"
  exit 1
fi
echo "no relative includes in model, export, importers, runner, ui, app"
