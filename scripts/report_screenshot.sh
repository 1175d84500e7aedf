#!/usr/bin/env bash
# Renders a `mocap report` HTML page in headless Chromium (Debian package
# `chromium`) and saves a screenshot, to check the page in a real browser.
#
#   scripts/report_screenshot.sh [report.html] [out.png] [height]
#
# height: the window's height in pixels (default 2000; a report of many
# budgets wants 3000 or more to show the tables and every plot).
# Without a report, one is made from the clips bundled in data/ with
# $MOCAP (default: build-report/tools/mocap, else build/tools/mocap).
# The page is opened from a file:// URL with networking off, so the
# screenshot also shows that it needs nothing from elsewhere.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
report="${1:-}"
out="$(realpath -m "${2:-report.png}")"
height="${3:-2000}"

browser="$(command -v chromium || command -v chromium-browser || true)"
if [[ -z "$browser" ]]; then
  "$root/scripts/setup.sh" chromium
  browser="$(command -v chromium)"
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

if [[ -z "$report" ]]; then
  mocap="${MOCAP:-}"
  if [[ -z "$mocap" ]]; then
    for candidate in "$root/build-report/tools/mocap" "$root/build/tools/mocap"; do
      [[ -x "$candidate" ]] && mocap="$candidate" && break
    done
  fi
  if [[ -z "$mocap" ]]; then
    echo "report_screenshot.sh: no mocap binary; build first or set MOCAP" >&2
    exit 1
  fi
  report="$work/report.html"
  # The bundled clips (data/makehuman_apose.amc is a bind pose, not a clip).
  "$mocap" report "$root"/data/[0-9]*.amc --ratios 0.05,0.1,0.2 --progress=none -o "$report"
fi
if [[ ! -f "$report" ]]; then
  echo "report_screenshot.sh: $report: no such file" >&2
  exit 1
fi

"$browser" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
  --disable-background-networking --disable-component-update --disable-sync \
  --hide-scrollbars --user-data-dir="$work/profile" --screenshot="$out" --window-size=1400,"$height" \
  "file://$(realpath "$report")" >"$work/chromium.log" 2>&1 || {
  cat "$work/chromium.log" >&2
  exit 1
}
if [[ ! -s "$out" ]]; then
  echo "report_screenshot.sh: chromium wrote no screenshot" >&2
  cat "$work/chromium.log" >&2
  exit 1
fi
echo "$out"
