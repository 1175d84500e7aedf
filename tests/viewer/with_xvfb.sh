#!/usr/bin/env bash
# Runs a command on a virtual X server of its own, and returns only after that
# server has exited.
#   with_xvfb.sh [--screen WxHxD] command args...
# Why not `xvfb-run -a`: it picks a display number by looking for lock files
# and does not wait for its server to exit, so the next test's server could
# take the number of one still removing its socket (seen in the clean-clone
# CI: "X11: Failed to open display :99"). Here the server picks a free number
# itself (-displayfd) and is waited for.
set -u
screen=1280x1024x24
if [ "${1-}" = --screen ]; then screen=$2; shift 2; fi
[ $# -gt 0 ] || { echo "usage: with_xvfb.sh [--screen WxHxD] command args..." >&2; exit 2; }
command -v Xvfb >/dev/null || { echo "with_xvfb.sh: Xvfb is not installed (apt-get install xvfb)" >&2; exit 2; }
dir=$(mktemp -d) || exit 2
Xvfb -displayfd 3 -screen 0 "$screen" -nolisten tcp -noreset 3>"$dir/display" 2>"$dir/log" &
server=$!
stop() { kill "$server" 2>/dev/null; wait "$server" 2>/dev/null; rm -rf "$dir"; }
# The server writes its display number and a newline once it accepts
# connections; a loaded machine can take seconds.
for _ in $(seq 600); do
  [ "$(tail -c 1 "$dir/display" | od -An -c | tr -d ' ')" = '\n' ] && break
  kill -0 "$server" 2>/dev/null || break
  sleep 0.05
done
display=$(head -n 1 "$dir/display")
if [ -z "$display" ]; then
  echo "with_xvfb.sh: Xvfb did not start within 30 s:" >&2
  cat "$dir/log" >&2
  stop
  exit 2
fi
DISPLAY=":$display" "$@"
rc=$?
# A failing command may be the server's fault: say what it printed.
[ "$rc" -eq 0 ] || [ ! -s "$dir/log" ] || { echo "with_xvfb.sh: Xvfb :$display printed:" >&2; cat "$dir/log" >&2; }
stop
exit "$rc"
