#!/usr/bin/env bash
# cli.eyes_preview_movie: `mocap eyes --preview out.mp4` writes a movie of
# every frame of the track through ffmpeg; ffprobe must count them (2 s at
# 30 Hz: 60 frames of 528x264, the two 240 x 240 displays side by side).
# Without ffmpeg on PATH it refuses before any work, naming it, and writes
# nothing. Skipped (77) where ffmpeg or ffprobe is missing, except under CI.
#   eyes_preview.sh mocap out-dir
set -euo pipefail
mocap=$1 out=$2
source "$(dirname "$0")/../../scripts/require_tool.sh"
require_tool "bash scripts/setup.sh ffmpeg" ffmpeg ffprobe
movie="$out/eyes_preview.mp4"
rm -f "$movie"
"$mocap" eyes --model physio --seed 2 --duration 2 --rate 30 --preview "$movie"
got=$(ffprobe -v error -count_frames -select_streams v:0 \
  -show_entries stream=nb_read_frames,width,height,r_frame_rate -of csv=p=0 "$movie")
echo "ffprobe: $got (width,height,rate,frames)"
[ "$got" = "528,264,30/1,60" ] || { echo "FAIL: expected 528,264,30/1,60"; exit 1; }
# No temporary file left beside it.
leftovers=$(find "$out" -maxdepth 1 -name '.eyes_preview.*' | wc -l)
[ "$leftovers" -eq 0 ] || { echo "FAIL: $leftovers temporary files left in $out"; exit 1; }
set +e
PATH=/nonexistent "$mocap" eyes --duration 1 --preview "$out/eyes_none.mp4" 2>"$out/eyes_none.err"
code=$?
set -e
[ $code -eq 4 ] || { echo "FAIL: exit $code without ffmpeg, expected 4"; exit 1; }
grep -q "ffmpeg is not on PATH" "$out/eyes_none.err" || { cat "$out/eyes_none.err"; echo "FAIL: no clear message"; exit 1; }
[ ! -e "$out/eyes_none.mp4" ] || { echo "FAIL: a movie was written without ffmpeg"; exit 1; }
echo OK
