#!/usr/bin/env python3
"""Writes data/humanoid.obj: the `body` group of the MakeHuman base mesh
(../shared/data/meshes/makehuman/base.obj, CC0), without the helper
geometry (clothes proxies, joint locators, eyes, teeth) and without UVs,
vertices renumbered in their original order. Units stay decimetres.

    python3 scripts/make_humanoid.py [base.obj] [out.obj]
"""
import os
import sys

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
source = sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, "..", "shared", "data", "meshes", "makehuman", "base.obj")
target = sys.argv[2] if len(sys.argv) > 2 else os.path.join(root, "data", "humanoid.obj")

header, positions, faces = [], [], []
group = None
with open(source, encoding="utf-8") as f:
    for line in f:
        word, _, rest = line.strip().partition(" ")
        if word == "#" or line.startswith("#"):
            if not positions:
                header.append(line.rstrip("\n"))
        elif word == "v":
            positions.append(rest)
        elif word == "g":
            group = rest.strip()
        elif word == "f" and group == "body":
            faces.append([int(corner.split("/")[0]) for corner in rest.split()])

used = sorted({v for face in faces for v in face})
index = {old: new for new, old in enumerate(used, start=1)}
temporary = target + ".tmp"
with open(temporary, "w", encoding="utf-8", newline="\n") as out:
    out.write("\n".join(header) + "\n")
    out.write(f"# The `body` group of MakeHuman base.obj (hm08), made by scripts/make_humanoid.py:\n"
              f"# {len(used)} vertices, {len(faces)} faces, decimetres, Y-up, facing +Z, A-pose.\n")
    out.write("g body\n")
    for old in used:
        out.write(f"v {positions[old - 1]}\n")
    for face in faces:
        out.write("f " + " ".join(str(index[v]) for v in face) + "\n")
os.replace(temporary, target)
print(f"{target}: {len(used)} vertices, {len(faces)} faces")
