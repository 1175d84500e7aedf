#!/usr/bin/env bash
# Checks glTF files with the Khronos glTF Validator (the reference checker
# behind the glTF sample viewers), installed once from the npm registry into
# a cache folder. Exit 0: no errors; 1: the validator found errors (printed);
# 77: no Node.js / npm, or the registry cannot be reached (nothing checked;
# 1 instead under CI=true).
#   bash scripts/validate_gltf.sh out.glb [more.glb ...]
set -uo pipefail
version="2.0.0-dev.3.10"
cache="${MOCAP_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/mocap}/gltf-validator-$version"
# Under CI=true (test.sh installs Node.js) nothing missing is a skip (scripts/require_tool.sh).
source "$(dirname "$0")/require_tool.sh"
require_tool "bash scripts/setup.sh" node npm
# Node.js trusts only its own CA list; trust the system's too (where a site's
# TLS proxy or private registry is installed), as curl and apt do.
if [[ -z "${NODE_EXTRA_CA_CERTS:-}" && -f /etc/ssl/certs/ca-certificates.crt ]]; then
  export NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt
fi
if [[ ! -f "$cache/node_modules/gltf-validator/package.json" ]]; then
  mkdir -p "$cache"
  if ! log="$(cd "$cache" && npm install --no-save --no-audit --no-fund --loglevel=error "gltf-validator@$version" 2>&1)"; then
    unavailable "cannot install gltf-validator@$version from npm; nothing checked: $(grep -m1 'npm ERR! code\|npm ERR!.*reason' <<<"$log")"
  fi
fi
status=0
for file in "$@"; do
  NODE_PATH="$cache/node_modules" node -e '
    const fs = require("fs");
    const file = process.argv[1];
    require("gltf-validator").validateBytes(new Uint8Array(fs.readFileSync(file))).then((report) => {
      const i = report.issues;
      console.log(`${file}: ${i.numErrors} errors, ${i.numWarnings} warnings, ${i.numInfos} infos`);
      for (const m of i.messages) if (m.severity <= 1) console.log(`  ${m.code} at ${m.pointer}: ${m.message}`);
      process.exit(i.numErrors > 0 ? 1 : 0);
    }, (error) => { console.log(`${file}: ${error}`); process.exit(1); });
  ' "$file" || status=1
done
exit $status
