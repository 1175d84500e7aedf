#!/usr/bin/env python3
"""Checks that libmocap's includes point down its tier graph.

    python3 scripts/check_tiers.py [libmocap-dir]
    python3 scripts/check_tiers.py --diagram [libmocap-dir]     the graph as Mermaid
    python3 scripts/check_tiers.py --doc FILE [libmocap-dir]    FILE shows that graph
                                                                and names every tier

The graph is the one libmocap/CMakeLists.txt builds: each tier's
target_link_libraries(mocap_<tier> ...) names the tiers it may use (PUBLIC or
PRIVATE, and what those use in turn). Every tier shares one include root, so
the compiler cannot tell a header of a tier above from one below; this check
does. A file of tier T may include
  - a public header <mocap/D/N.h> of T or of a tier T uses, and
  - an internal header "D/N.h" (under src/) of T, or one that the CMake list
    MOCAP_SHARED_INTERNAL_HEADERS shares with the tiers above it (the
    encoder writes the bits the decoder reads) of a tier T uses.
Headers of clip_runtime live in include/mocap/compress/ (the CMake list
MOCAP_CLIP_RUNTIME_HEADERS); its sources in src/compress/runtime/.
Prints one line per wrong include ("file:line: ...") and exits 1, or prints
a summary and exits 0.
"""
import pathlib
import re
import sys


def read_graph(cmake_text):
    tiers = re.search(r"set\(MOCAP_TIERS ([^)]*)\)", cmake_text).group(1).split()
    dirs = {t: t for t in tiers}
    for tier, folder in re.findall(r"set\(MOCAP_TIER_DIR_(\w+) ([^)\s]+)\)", cmake_text):
        dirs[tier] = folder
    runtime_headers = set()
    m = re.search(r"set\(MOCAP_CLIP_RUNTIME_HEADERS ([^)]*)\)", cmake_text)
    if m:
        runtime_headers = set(m.group(1).split())
    shared = set()
    m = re.search(r"set\(MOCAP_SHARED_INTERNAL_HEADERS ([^)]*)\)", cmake_text)
    if m:
        shared = set(m.group(1).split())
    uses = {t: set() for t in tiers}
    for tier, args in re.findall(r"target_link_libraries\(mocap_(\w+)\s([^)]*)\)", cmake_text, re.S):
        if tier in uses:
            uses[tier] |= {u for u in re.findall(r"\bmocap_(\w+)\b", args) if u in uses}
    closed = {}

    def reach(t, seen=()):
        if t in closed:
            return closed[t]
        out = {t}
        for u in uses[t]:
            if u not in seen:
                out |= reach(u, seen + (t,))
        closed[t] = out
        return out

    return tiers, dirs, runtime_headers, shared, {t: reach(t) for t in tiers}, uses


def diagram(tiers, uses, allowed):
    """The tier graph as a Mermaid flowchart, each tier above the tiers it
    uses directly (edges implied by others left out), in MOCAP_TIERS order.
    `allowed` is read_graph's transitive closure of `uses`."""
    lines = ["```mermaid", "flowchart BT"]
    for t in tiers:
        direct = set(uses[t]) - {t}
        implied = {v for u in direct for v in direct if u != v and v in allowed[u]}
        for u in sorted(direct - implied, key=tiers.index):
            lines.append(f"  {u} --> {t}")
    lines.append("```")
    return "\n".join(lines)


def main():
    args = sys.argv[1:]
    mode, doc = None, None
    if args and args[0] == "--diagram":
        mode, args = "diagram", args[1:]
    elif args and args[0] == "--doc" and len(args) >= 2:
        mode, doc, args = "doc", pathlib.Path(args[1]), args[2:]
    lib = pathlib.Path(args[0] if args else pathlib.Path(__file__).parent.parent / "libmocap")
    tiers, dirs, runtime_headers, shared, allowed, uses = read_graph((lib / "CMakeLists.txt").read_text())
    if mode == "diagram":
        print(diagram(tiers, uses, allowed))
        return 0
    if mode == "doc":
        text = doc.read_text()
        problems = []
        if diagram(tiers, uses, allowed) not in text:
            problems.append(f"{doc}: its diagram is not the graph libmocap/CMakeLists.txt links; "
                            f"paste `python3 scripts/check_tiers.py --diagram`:\n{diagram(tiers, uses, allowed)}")
        named = re.findall(r"^\| `(\w+)` \|", text, re.M)
        if sorted(named) != sorted(tiers):
            problems.append(f"{doc}: its tier table names {', '.join(named)}; the tiers are {', '.join(tiers)}")
        for p in problems:
            print(p)
        if not problems:
            print(f"check_tiers: {doc} shows the graph of the {len(tiers)} tiers")
        return 1 if problems else 0
    # Longest source folder first: src/compress/runtime before src/compress.
    src_tiers = sorted(((dirs[t], t) for t in tiers), key=lambda p: -len(p[0]))

    def public_tier(folder, name):
        if folder == "compress" and name in runtime_headers:
            return "clip_runtime"
        return folder if folder in tiers else None

    def tier_of(path):
        rel = path.relative_to(lib).as_posix()
        if rel.startswith("include/mocap/"):
            folder, name = rel[len("include/mocap/"):].split("/")[0], path.stem
            return public_tier(folder, name)
        if rel.startswith("src/"):
            for folder, t in src_tiers:
                if rel.startswith("src/" + folder + "/") and "/" not in rel[len("src/" + folder + "/"):]:
                    return t
        return None

    def internal_tier(include):
        for folder, t in src_tiers:
            if include.startswith(folder + "/") and "/" not in include[len(folder) + 1:]:
                return t
        return None

    problems, files, includes = [], 0, 0
    for path in sorted(list(lib.glob("include/mocap/**/*.h")) + list(lib.glob("src/**/*.cc")) + list(lib.glob("src/**/*.h"))):
        tier = tier_of(path)
        if tier is None:
            problems.append(f"{path}:1: in no tier of libmocap/CMakeLists.txt (MOCAP_TIERS {' '.join(tiers)})")
            continue
        files += 1
        for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
            m = re.match(r'\s*#\s*include\s*([<"])([^>"]+)[>"]', line)
            if not m:
                continue
            kind, include = m.groups()
            public = re.fullmatch(r"mocap/(\w+)/(\w+)\.h", include)
            if kind == "<" and public:
                includes += 1
                other = public_tier(public.group(1), public.group(2))
                if other is None:
                    problems.append(f"{path}:{number}: <{include}> is in no tier")
                elif other not in allowed[tier]:
                    problems.append(f"{path}:{number}: tier {tier} includes <{include}> of tier {other}, which it does "
                                    f"not use (it uses {', '.join(sorted(allowed[tier] - {tier})) or 'none'})")
            elif kind == '"':
                includes += 1
                other = internal_tier(include)
                if other is not None and other != tier and not (include in shared and other in allowed[tier]):
                    problems.append(f'{path}:{number}: tier {tier} includes "{include}", internal to tier {other} '
                                    f'(not in MOCAP_SHARED_INTERNAL_HEADERS)')
    for p in problems:
        print(p)
    if problems:
        print(f"check_tiers: {len(problems)} include(s) against the tier graph of {lib / 'CMakeLists.txt'}")
        return 1
    print(f"check_tiers: {includes} includes in {files} files of {len(tiers)} tiers point down the graph")
    return 0


if __name__ == "__main__":
    sys.exit(main())
