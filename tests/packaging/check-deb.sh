#!/usr/bin/env bash
# Usage: check-deb.sh BUILD_DIR VERSION
set -euo pipefail
build=$1
version=$2
app_id=dev.plimsoll.Plimsoll
out="$build/package"
rm -rf "$out" && mkdir -p "$out"

echo "== building the package"
(cd "$build" && cpack -G DEB -B "$out" >"$out/cpack.log" 2>&1) || { cat "$out/cpack.log"; exit 1; }
deb=$(ls "$out"/plimsoll_"$version"_*.deb)
echo "built $deb"

echo "== control fields"
info=$(dpkg-deb --info "$deb")
echo "$info" | grep -E '^ (Package|Version|Depends|Recommends):'
for dep in libqt6widgets6 libqt6charts6 librdkafka 'libsqlite3-0' qt6-qpa-plugins fonts-dejavu-core; do
  echo "$info" | grep -q "Depends:.*$dep" || { echo "error: Depends lacks $dep" >&2; exit 1; }
done

echo "== contents"
tree=$(mktemp -d)
trap 'rm -rf "$tree"' EXIT
dpkg-deb -x "$deb" "$tree"
for f in usr/bin/plimsoll \
         "usr/share/applications/$app_id.desktop" \
         "usr/share/metainfo/$app_id.metainfo.xml" \
         "usr/share/icons/hicolor/scalable/apps/$app_id.svg" \
         "usr/share/icons/hicolor/48x48/apps/$app_id.png" \
         "usr/share/icons/hicolor/256x256/apps/$app_id.png" \
         usr/share/man/man1/plimsoll.1.gz; do
  [[ -s "$tree/$f" ]] || { echo "error: the package lacks /$f" >&2; exit 1; }
done
file_type=$(head -c 8 "$tree/usr/share/icons/hicolor/256x256/apps/$app_id.png" | od -An -c | tr -d ' ')
[[ "$file_type" == *PNG* ]] || { echo "error: the 256px icon is not a PNG" >&2; exit 1; }
zcat "$tree/usr/share/man/man1/plimsoll.1.gz" | grep -q "^.TH PLIMSOLL 1" || { echo "error: man page" >&2; exit 1; }

echo "== desktop file and metainfo"
if command -v desktop-file-validate >/dev/null; then
  desktop-file-validate "$tree/usr/share/applications/$app_id.desktop"
else
  echo "desktop-file-validate not installed: skipped (install desktop-file-utils)"
fi
if command -v appstreamcli >/dev/null; then
  appstreamcli validate --no-net "$tree/usr/share/metainfo/$app_id.metainfo.xml"
else
  echo "appstreamcli not installed: skipped (install appstream)"
fi

echo "== installed and run"
if [[ $(id -u) -eq 0 ]]; then
  was_installed=no
  dpkg-query -W -f='${Status}' plimsoll 2>/dev/null | grep -q "install ok installed" && was_installed=yes
  # dpkg, not apt: the test must not download; a missing dependency fails here, named.
  DEBIAN_FRONTEND=noninteractive dpkg -i "$deb" >"$out/install.log" 2>&1 \
    || { cat "$out/install.log"; dpkg -r plimsoll >/dev/null 2>&1 || true; exit 1; }
  bin=/usr/bin/plimsoll
else
  echo "not root: running from the unpacked package instead of installing it"
  bin="$tree/usr/bin/plimsoll"
fi
status=0
"$bin" --version | tee "$out/version.txt"
grep -q "^plimsoll $version " "$out/version.txt" || status=1
db=$(mktemp -u /tmp/plimsoll-deb-XXXXXX.db)
"$bin" --db "$db" samples install >/dev/null || status=1
[[ $("$bin" --db "$db" runs --json | grep -c '"run_key"') -eq 6 ]] || { echo "error: installed binary lacks its samples" >&2; status=1; }
rm -f "$db" "$db-wal" "$db-shm"
if [[ $(id -u) -eq 0 && $was_installed == no ]]; then
  dpkg -r plimsoll >/dev/null
fi
exit $status
