#!/usr/bin/env bash
# viewer.record.mp4: a 3-second movie of the cartwheel (frames 1 to 360 at
# 120 Hz) at 30 fps through ffmpeg, headless; ffprobe must count 90 frames of
# 320x240 lasting 3 s. Skipped (77) where ffmpeg or ffprobe is missing,
# except under CI=true, where that fails.
#   test_record.sh with_xvfb.sh mocap-viewer data-dir out.mp4
set -euo pipefail
xvfb=$1 viewer=$2 data=$3 out=$4
source "$(dirname "$0")/../../scripts/require_tool.sh"
require_tool "bash scripts/setup.sh ffmpeg" ffmpeg ffprobe
rm -f "$out"
bash "$xvfb" "$viewer" "$data/49.asf" "$data/49_06.amc" --frame 1 --last 360 --record-fps 30 --size 320x240 \
  --record "$out"
got=$(ffprobe -v error -count_frames -select_streams v:0 \
  -show_entries stream=nb_read_frames,width,height,r_frame_rate -of csv=p=0 "$out")
echo "ffprobe: $got (width,height,rate,frames)"
[ "$got" = "320,240,30/1,90" ] || { echo "FAIL: expected 320,240,30/1,90"; exit 1; }
# Without ffmpeg on PATH the viewer refuses before rendering, naming it.
if PATH=/nonexistent "$viewer" "$data/49.asf" "$data/49_06.amc" --record "$out.none.mp4" 2>"$out.err"; then
  echo "FAIL: --record without ffmpeg succeeded"; exit 1
fi
grep -q "ffmpeg is not on PATH" "$out.err" || { cat "$out.err"; echo "FAIL: no clear message"; exit 1; }
[ ! -e "$out.none.mp4" ] || { echo "FAIL: a movie was written without ffmpeg"; exit 1; }
echo OK
