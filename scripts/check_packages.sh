#!/usr/bin/env bash
# Checks that every file the build takes from the system (written at configure
# time to build/linked-files.txt by cmake/linked_files.cmake) exists and comes
# from a Debian package that scripts/setup.sh installs, so that the README's
# commands also work on a fresh machine. Exit 1 names each missing file or
# package; build.sh runs it after configuring, and ctest as setup.packages.
#   bash scripts/check_packages.sh build/linked-files.txt
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
list="${1:?usage: check_packages.sh build/linked-files.txt}"
[ -f "$list" ] || { echo "check_packages.sh: $list: no such file (configure first)" >&2; exit 2; }
# What setup.sh installs on a fresh machine: its packages and everything they
# depend on (Depends and Pre-Depends; recommends are not installed).
mapfile -t in_closure < <(
  { bash "$root/scripts/setup.sh" --list | sed 's/^/listed\t/'
    dpkg-query -W -f='${db:Status-Abbrev}\t${Package}\t${Provides}\t${Depends}, ${Pre-Depends}\n' |
      awk -F'\t' '$1 ~ /^ii/ { print "pkg\t" $2 "\t" $3 "\t" $4 }'
  } | awk -F'\t' '
    function names(field, out,   n, parts, i, alt, m, j, name) {
      n = split(field, parts, ","); m = 0
      for (i = 1; i <= n; i++) {
        split(parts[i], alt, "|")
        for (j in alt) { name = alt[j]; gsub(/\(.*\)|:[a-z0-9]+/, "", name); gsub(/^ +| +$/, "", name); if (name != "") out[++m] = name }
      }
      return m
    }
    $1 == "listed" { queue[++tail] = $2; next }
    $1 == "pkg" {
      deps[$2] = $4
      n = names($3, provided); for (i = 1; i <= n; i++) providers[provided[i]] = providers[provided[i]] " " $2
    }
    END {
      for (head = 1; head <= tail; head++) {
        p = queue[head]; if (p in seen) continue; seen[p] = 1; print p
        n = names(deps[p], d)
        for (i = 1; i <= n; i++) {
          queue[++tail] = d[i]
          if (d[i] in providers) { k = split(providers[d[i]], pr, " "); for (j = 1; j <= k; j++) queue[++tail] = pr[j] }
        }
      }
    }')
declare -A in_setup=()
for p in "${in_closure[@]}"; do in_setup["$p"]=1; done

status=0
declare -A reported=()
checked=0
while IFS='|' read -r target path; do
  [ -n "$path" ] || continue
  checked=$((checked + 1))
  if [ ! -e "$path" ]; then
    echo "check_packages.sh: $path (needed by $target) does not exist: install the package that ships it and add it to scripts/setup.sh" >&2
    status=1
    continue
  fi
  # dpkg -S knows the path as the package installed it; try the resolved path too.
  owner="$(dpkg-query -S "$path" 2>/dev/null || dpkg-query -S "$(readlink -f "$path")" 2>/dev/null)"
  if [ -z "$owner" ]; then
    echo "check_packages.sh: $path (needed by $target) belongs to no Debian package: it was installed by hand" >&2
    status=1
    continue
  fi
  # "pkg1, pkg2: /path" (a folder may belong to several); any one listed is enough.
  packages="$(printf '%s\n' "$owner" | head -n1 | sed 's/: .*//; s/, /\n/g; s/:[a-z0-9_-]*$//mg')"
  ok=0
  while read -r pkg; do
    pkg="${pkg%%:*}"
    [ -n "${in_setup[$pkg]:-}" ] && ok=1
  done <<<"$packages"
  if [ $ok -eq 0 ]; then
    first="$(head -n1 <<<"$packages")"; first="${first%%:*}"
    if [ -z "${reported[$first]:-}" ]; then
      echo "check_packages.sh: $path (needed by $target) comes from package '$first', which neither scripts/setup.sh nor what it installs depends on: add it to the list there" >&2
      reported[$first]=1
    fi
    status=1
  fi
done <"$list"
[ $checked -gt 0 ] || { echo "check_packages.sh: $list names no file" >&2; exit 1; }
[ $status -eq 0 ] && echo "check_packages.sh: $checked files, each from a package scripts/setup.sh installs (${#in_closure[@]} with dependencies)"
exit $status
