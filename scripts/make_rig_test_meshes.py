#!/usr/bin/env python3
"""Writes the test meshes for auto-rigging other bodies (issue 29) from the
bundled humanoid (data/humanoid.obj: MakeHuman's CC0 body, decimetres, Y up,
facing +Z, A-pose):

  parts_dm.obj        the body cut into separate parts, each an OBJ group
                      with its own vertices (head, torso, l/r arm, l/r leg:
                      open where they were cut, touching at rest), an
                      armour plate over the chest and one over the back
                      (separate surfaces 1.5 cm off the skin, single-sided,
                      open), separate eyes (spheres in the sockets) and
                      teeth (a curved band behind the lips); decimetres,
                      Y up, facing +Z
  parts_zup_m.obj     the same turned into Blender's own world: Z up,
                      facing -Y, metres
  parts_ymz_cm.obj    the same turned to face -Z, Y up (as the issue's
                      soldier came out of Blender), centimetres
  body_zup_cm.obj     the one-piece body, Z up, facing +X, centimetres
  heavy_dm.obj        the one-piece body 2.5 cm fatter (every vertex out
                      along its normal), decimetres, Y up, facing +Z
  thin_dm.obj         8 mm thinner likewise
  bighead_dm.obj      a cartoon's head: above the chin scaled 1.6
  overlap_zup_cm.obj  the parts overlapping as game characters' do: each
                      limb and the head reach 4 cm into the torso and sit
                      2 mm inside its surface there (no position shared,
                      so a weld keeps them apart), with the plates, eyes,
                      teeth, a closed pouch on the left thigh and a belt of
                      closed boxes; centimetres, Z up, facing -Y

    python3 scripts/make_rig_test_meshes.py OUT_DIR [humanoid.obj]

Pure Python (no numpy), deterministic: the same input gives the same bytes.
Where a part ends is chosen by the humanoid's own proportions (H its height,
from the sole): the head above 0.855 H (the chin is at about 0.87 H), the
legs below 0.47 H (the crotch), the arms outside 0.105 H from the middle
above 0.45 H (the armpit).
"""
import math
import os
import sys

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
out_dir = sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, "build", "rig_meshes")
source = sys.argv[2] if len(sys.argv) > 2 else os.path.join(root, "data", "humanoid.obj")

positions, faces = [], []
with open(source, encoding="utf-8") as f:
    for line in f:
        if line.startswith("v "):
            positions.append(tuple(float(x) for x in line.split()[1:4]))
        elif line.startswith("f "):
            faces.append([int(c.split("/")[0]) - 1 for c in line.split()[1:]])

floor = min(p[1] for p in positions)
height = max(p[1] for p in positions) - floor


def centroid(face):
    n = len(face)
    return tuple(sum(positions[v][k] for v in face) / n for k in range(3))


def part_of(face):
    x, y, _ = centroid(face)
    up = (y - floor) / height
    if up > 0.855:
        return "head"
    if up < 0.47 and abs(x) < 0.15 * height:
        return "l_leg" if x > 0 else "r_leg"
    if abs(x) > 0.105 * height and up > 0.3:
        return "l_arm" if x > 0 else "r_arm"
    return "torso"


# Vertex normals (area-weighted face normals) for the offset shells.
normals = [[0.0, 0.0, 0.0] for _ in positions]
for face in faces:
    a, b, c = (positions[face[i]] for i in (0, 1, 2))
    for i in range(1, len(face) - 1):
        b, c = positions[face[i]], positions[face[i + 1]]
        u = [b[k] - a[k] for k in range(3)]
        w = [c[k] - a[k] for k in range(3)]
        n = (u[1] * w[2] - u[2] * w[1], u[2] * w[0] - u[0] * w[2], u[0] * w[1] - u[1] * w[0])
        for v in face:
            for k in range(3):
                normals[v][k] += n[k]
for n in normals:
    length = math.sqrt(sum(c * c for c in n)) or 1.0
    for k in range(3):
        n[k] /= length

groups = []  # (name, [vertex positions], [faces as local indices])


def add_group(name, face_list, offset=0.0):
    index, local_positions, local_faces = {}, [], []
    for face in face_list:
        local = []
        for v in face:
            if v not in index:
                index[v] = len(local_positions)
                p, n = positions[v], normals[v]
                local_positions.append(tuple(p[k] + offset * n[k] for k in range(3)))
            local.append(index[v])
        local_faces.append(local)
    groups.append((name, local_positions, local_faces))


for name in ("head", "torso", "l_arm", "r_arm", "l_leg", "r_leg"):
    add_group(name, [f for f in faces if part_of(f) == name])

# Overlapping parts, as game characters come: each limb and the head also
# take the torso's faces within 0.4 dm (4 cm) of where they were cut, and are
# moved 0.02 dm (2 mm) inward, so that they share no position with the
# torso (a weld keeps them apart) and tuck into it.
overlapping = []
torso_faces = [f for f in faces if part_of(f) == "torso"]
torso_vertices = {v for f in torso_faces for v in f}
for name in ("head", "l_arm", "r_arm", "l_leg", "r_leg"):
    own = [f for f in faces if part_of(f) == name]
    seam = [positions[v] for v in {v for f in own for v in f} & torso_vertices]
    near = [f for f in torso_faces
            if min(sum((a - b) ** 2 for a, b in zip(centroid(f), q)) for q in seam) < 0.4 ** 2]
    overlapping.append((name, own + near))

# Armour: the torso's skin between 0.6 H and 0.8 H up, its front (normal
# toward +Z) and its back, 0.15 dm (1.5 cm) off the skin.
for name, sign in (("armour_front", 1.0), ("armour_back", -1.0)):
    plate = []
    for face in faces:
        x, y, _ = centroid(face)
        up = (y - floor) / height
        nz = sum(normals[v][2] for v in face) / len(face)
        if part_of(face) == "torso" and 0.6 < up < 0.8 and sign * nz > 0.35:
            plate.append(face)
    add_group(name, plate, offset=0.15)


def sphere(centre, radius, rings=8, segments=12):
    pts, fs = [], []
    for i in range(1, rings):
        t = math.pi * i / rings
        for j in range(segments):
            a = 2 * math.pi * j / segments
            pts.append((centre[0] + radius * math.sin(t) * math.cos(a), centre[1] + radius * math.cos(t),
                        centre[2] + radius * math.sin(t) * math.sin(a)))
    top, bottom = len(pts), len(pts) + 1
    pts.append((centre[0], centre[1] + radius, centre[2]))
    pts.append((centre[0], centre[1] - radius, centre[2]))
    for i in range(rings - 2):
        for j in range(segments):
            a, b = i * segments + j, i * segments + (j + 1) % segments
            fs.append([a, b, b + segments, a + segments])
    for j in range(segments):
        fs.append([top, (j + 1) % segments, j])
        last = (rings - 2) * segments
        fs.append([bottom, last + j, last + (j + 1) % segments])
    return pts, fs


# The eyes: centred on MakeHuman's eye locators (base.obj groups joint-l-eye
# and joint-r-eye, the centroids of their vertices), 1.2 cm in radius.
for name, x in (("l_eye", 0.3077), ("r_eye", -0.3077)):
    pts, fs = sphere((x, 7.2841, 1.2453), 0.12)
    groups.append((name, pts, fs))

# The teeth: a band 0.9 cm tall on an arc of 2.4 cm radius, 40 degrees either
# side of the front, behind the lips (0.62 dm below the eyes, its front 0.3
# dm behind the eyes' centres: the front at z = 0.99 dm).
pts, fs = [], []
steps = 12
for i in range(steps + 1):
    a = math.radians(-40 + 80 * i / steps)
    for y in (6.62, 6.71):
        for r in (0.24, 0.20):
            pts.append((r * math.sin(a), y, 0.75 + r * math.cos(a)))
for i in range(steps):
    a, b = 4 * i, 4 * (i + 1)
    for (p, q) in ((0, 2), (2, 3), (3, 1), (1, 0)):
        fs.append([a + p, b + p, b + q, a + q])
fs.append([0, 2, 3, 1])
fs.append([4 * steps, 4 * steps + 1, 4 * steps + 3, 4 * steps + 2])
groups.append(("teeth", pts, fs))


def write(name, groups, turn, scale, note):
    """turn: (x, y, z) of the humanoid -> the file's (x, y, z); scale: file units per dm."""
    os.makedirs(out_dir, exist_ok=True)
    path = os.path.join(out_dir, name)
    with open(path + ".tmp", "w", encoding="utf-8", newline="\n") as out:
        out.write(f"# Made by scripts/make_rig_test_meshes.py from data/humanoid.obj (MakeHuman, CC0).\n# {note}\n")
        base = 1
        for group, pts, fs in groups:
            out.write(f"g {group}\n")
            for p in pts:
                q = turn(p)
                out.write("v %.5f %.5f %.5f\n" % tuple(scale * c for c in q))
            for face in fs:
                out.write("f " + " ".join(str(base + v) for v in face) + "\n")
            base += len(pts)
    os.replace(path + ".tmp", path)
    vertices = sum(len(g[1]) for g in groups)
    print(f"{path}: {len(groups)} groups, {vertices} vertices; {note}")


groups_overlap = [g for g in groups if g[0] == "torso"]
for name, face_list in overlapping:
    add_group(name, face_list, offset=-0.02)
    groups_overlap.append(groups.pop())
groups_overlap += [g for g in groups if g[0] not in ("head", "torso", "l_arm", "r_arm", "l_leg", "r_leg")]


def box(lo, hi):
    pts = [(hi[0] if i & 1 else lo[0], hi[1] if i & 2 else lo[1], hi[2] if i & 4 else lo[2]) for i in range(8)]
    quads = [[0, 2, 3, 1], [4, 5, 7, 6], [0, 1, 5, 4], [2, 6, 7, 3], [0, 4, 6, 2], [1, 3, 7, 5]]
    return pts, quads


# Closed accessories on the overlapping body: a pouch (a closed box 8 x 10 x
# 4 cm) on the outside of the left thigh, touching it, and a belt (a ring of
# 16 boxes, 5 cm tall, 1 cm thick) just outside the waist at 0.57 H.
thigh = [positions[v] for f in faces if part_of(f) == "l_leg" for v in f
         if abs(positions[v][1] - (floor + 0.38 * height)) < 0.1]
out_x = max(p[0] for p in thigh)
mid_z = sum(p[2] for p in thigh) / len(thigh)
y = floor + 0.38 * height
groups_overlap.append(("pouch", *box((out_x - 0.05, y - 0.5, mid_z - 0.4), (out_x + 0.35, y + 0.5, mid_z + 0.4))))
waist_y = floor + 0.57 * height
ring = [p for p in positions if abs(p[1] - waist_y) < 0.1 and abs(p[0]) < 0.1 * height]
cx = sum(p[0] for p in ring) / len(ring)
cz = sum(p[2] for p in ring) / len(ring)
pts, fs = [], []
for k in range(16):
    a = 2 * math.pi * k / 16
    # the waist's own extent in this direction, plus 0.1 dm
    reach = max((p[0] - cx) * math.cos(a) + (p[2] - cz) * math.sin(a) for p in ring) + 0.1
    x, z = cx + reach * math.cos(a), cz + reach * math.sin(a)
    bp, bf = box((x - 0.12, waist_y - 0.25, z - 0.12), (x + 0.12, waist_y + 0.25, z + 0.12))
    fs += [[len(pts) + v for v in f] for f in bf]
    pts += bp
groups_overlap.append(("belt", pts, fs))

write("parts_dm.obj", groups, lambda p: p, 1.0, "decimetres, Y up, facing +Z")
write("overlap_zup_cm.obj", groups_overlap, lambda p: (p[0], -p[2], p[1]), 10.0,
      "overlapping parts (no shared position), centimetres, Z up, facing -Y")
write("parts_zup_m.obj", groups, lambda p: (p[0], -p[2], p[1]), 0.1, "metres, Z up, facing -Y")
write("parts_ymz_cm.obj", groups, lambda p: (-p[0], p[1], -p[2]), 10.0, "centimetres, Y up, facing -Z")
# Other builds, one piece each (decimetres, Y up, facing +Z): heavy, every
# vertex 0.25 dm (2.5 cm) out along its normal (the fingers merge into a
# mitten); thin, 0.08 dm (8 mm) in; a cartoon's big head, everything above
# the chin (0.87 H) scaled 1.6 about the point on the neck's axis there.
def offset_body(distance):
    pts = [tuple(p[k] + distance * n[k] for k in range(3)) for p, n in zip(positions, normals)]
    return [("body", pts, faces)]


chin = floor + 0.87 * height
neck = [p for p in positions if abs(p[1] - chin) < 0.1 and abs(p[0]) < 0.08 * height]
neck_centre = tuple(sum(p[k] for p in neck) / len(neck) for k in range(3))


def big_head(p):
    if p[1] <= chin:
        return p
    return tuple(neck_centre[k] + 1.6 * (p[k] - neck_centre[k]) for k in range(3))


write("heavy_dm.obj", offset_body(0.25), lambda p: p, 1.0, "every vertex 2.5 cm out, decimetres, Y up, facing +Z")
write("thin_dm.obj", offset_body(-0.08), lambda p: p, 1.0, "every vertex 8 mm in, decimetres, Y up, facing +Z")
write("bighead_dm.obj", [("body", [big_head(p) for p in positions], faces)], lambda p: p, 1.0,
      "the head scaled 1.6, decimetres, Y up, facing +Z")
body = [g for g in groups if g[0] in ("head", "torso", "l_arm", "r_arm", "l_leg", "r_leg")]
# One piece again: the body's groups share no vertex, but welded by position they are one surface.
write("body_zup_cm.obj", body, lambda p: (p[2], p[0], p[1]), 10.0, "centimetres, Z up, facing +X")
