#!/usr/bin/env python3
"""Judges `mocap retarget` outputs on the real characters from what Blender saw.

    python3 tests/retarget/corpus_check.py MEASURES.json ROLES.json CLIP=FK.csv [CLIP=FK.csv ...]

MEASURES.json is blender_corpus.py's (the outputs and the original
characters as Blender's importers read them), ROLES.json the hand-made role
-> bone name table (corpus_roles.json), FK.csv `mocap fk`'s world positions
of each capture (metres, Y up; each bone's row is its end point, `root` the
root). Per output (character x clip) one `ok   ...` / `FAIL ...` line per
check, with its figures; exit 1 when any fails.

Nothing is fitted but one yaw (the segments check) and the leg ratio s =
character leg length / capture leg length (hip->knee + knee->ankle on the
first frame, both legs summed; the character's from its role bones' heads on
the output's first frame), which scales the capture's distances:

  frames     the output's animation has the capture's frame count
  upright    hips->head within 35 deg of +Y on every frame
  soles      lowest skinned vertex over the sampled frames in [-3 cm, +6 cm] x s of y = 0
  travel     hips' horizontal travel first->last frame within 15 % of the capture root's x s
  segments   thigh->shin, shin->foot, upperarm->forearm, forearm->hand (both sides),
             hips->head against the capture's hip->knee, knee->ankle,
             shoulder->elbow, elbow->wrist, root->neck top, after one rotation
             about Y fitted over the clip: median <= 4 deg, p95 <= 10 deg
  feet       on each capture contact (ball of the foot within 4 cm of its
             lowest height and slower than 25 cm/s horizontally, for 6 frames
             or more) the character's foot point (toe head, else foot head)
             slides at most the capture ball's slide x s + 2 % of one leg
  size       the output's leg length within 5 % of the original's rest one
             (Blender's reading of the original file)
  lengths    on every frame each limb segment's length within 2 % of the
             original's rest one; hips->shoulders and hips->head varying by
             at most 10 % over the clip (a bone detached from its parent, a
             foot left behind)
  names      the output armature's bone names == the original's; vertex
             count equal (for an FBX original, whose vertices are control
             points, the count of distinct vertex positions, merged within
             1e-6 of the mesh's size); no "$AssimpFbx$" name
A check with nothing to check (no capture contact by the rule) prints a
`skip ...` line with the reason and does not fail.
"""
import json
import sys

import numpy as np

UP_LIMIT = 35.0
SOLE_LOW, SOLE_HIGH = -0.03, 0.06
TRAVEL_TOLERANCE = 0.15
SEG_MEDIAN, SEG_P95 = 4.0, 10.0
CONTACT_HEIGHT, CONTACT_SPEED, CONTACT_FRAMES = 0.04, 0.25, 6
SLIDE_SLACK = 0.02
SIZE_TOLERANCE = 0.05
LIMB_TOLERANCE, TORSO_TOLERANCE = 0.02, 0.10

# Segments: (label, character role from, to, capture point from, to).
SEGMENTS = [
    ("thigh_l", "thigh_l", "shin_l", "hip_l", "knee_l"),
    ("shin_l", "shin_l", "foot_l", "knee_l", "ankle_l"),
    ("upperarm_l", "upperarm_l", "forearm_l", "shoulder_l", "elbow_l"),
    ("forearm_l", "forearm_l", "hand_l", "elbow_l", "wrist_l"),
    ("thigh_r", "thigh_r", "shin_r", "hip_r", "knee_r"),
    ("shin_r", "shin_r", "foot_r", "knee_r", "ankle_r"),
    ("upperarm_r", "upperarm_r", "forearm_r", "shoulder_r", "elbow_r"),
    ("forearm_r", "forearm_r", "hand_r", "elbow_r", "wrist_r"),
    ("hips_head", "hips", "head", "root", "neck_top"),
]
# Distances between role bones' heads that the animation must keep: the
# limb segments (rigid bones) within LIMB_TOLERANCE of the original's rest
# pose on every frame; hips to shoulders and head (through a spine and
# clavicles that move: the capture's own root->shoulder distance varies by
# about 3 % over these clips) within TORSO_TOLERANCE, max over min, over the clip.
TORSO_LINKS = [("hips", "upperarm_l"), ("hips", "upperarm_r"), ("hips", "head")]

# Capture points: the CMU bone whose END is the point (`root`: the root).
CAPTURE_POINTS = {"root": "root", "neck_top": "upperneck", "head_top": "head"}
for side in "lr":
    CAPTURE_POINTS.update({
        "hip_" + side: side + "hipjoint", "knee_" + side: side + "femur", "ankle_" + side: side + "tibia",
        "ball_" + side: side + "foot", "shoulder_" + side: side + "clavicle",
        "elbow_" + side: side + "humerus", "wrist_" + side: side + "radius"})

results = []
skipped = []
opened = []
OPEN = set()  # (character, clip or "*", check) still open on the issue: corpus_open.txt


def read_open(path):
    with open(path) as f:
        for line in f:
            words = line.split("#", 1)[0].split()
            if len(words) == 3:
                OPEN.add(tuple(words))


def report(ok, what):
    words = what.split()
    check = words[2].rstrip(":") if len(words) > 2 else ""
    if not ok and ((words[0], words[1], check) in OPEN or (words[0], "*", check) in OPEN):
        print("OPEN " + what, flush=True)
        opened.append(what)
        return
    print(("ok   " if ok else "FAIL ") + what, flush=True)
    results.append(bool(ok))


def read_fk(path):
    """bone -> (frames, 3) array of `mocap fk`'s CSV."""
    rows = {}
    with open(path) as f:
        for line in f:
            parts = line.strip().split(",")
            if len(parts) != 5 or parts[0] == "frame":
                continue
            rows.setdefault(parts[1], []).append((int(parts[0]), float(parts[2]), float(parts[3]), float(parts[4])))
    out = {}
    for bone, r in rows.items():
        r.sort()
        out[bone] = np.array([x[1:] for x in r])
    return out


def leg_length(p, hip, knee, ankle):
    """Both legs' hip->knee + knee->ankle on frame 0, summed."""
    return sum(np.linalg.norm(p[hip % s][0] - p[knee % s][0]) + np.linalg.norm(p[knee % s][0] - p[ankle % s][0])
               for s in "lr")


def horizontal(v):
    return v[..., [0, 2]]


def angle_deg(a, b):
    na = np.linalg.norm(a, axis=-1)
    nb = np.linalg.norm(b, axis=-1)
    c = np.sum(a * b, axis=-1) / np.maximum(na * nb, 1e-12)
    return np.degrees(np.arccos(np.clip(c, -1.0, 1.0)))


def yaw_fit(char, cap):
    """The rotation about +Y (radians) taking the capture's unit vectors
    closest, in least squares, to the character's: R(t) = [[c,0,s],[0,1,0],[-s,0,c]]."""
    c = cap / np.linalg.norm(cap, axis=-1, keepdims=True)
    d = char / np.linalg.norm(char, axis=-1, keepdims=True)
    a = np.sum(d[:, 0] * c[:, 0] + d[:, 2] * c[:, 2])
    b = np.sum(d[:, 0] * c[:, 2] - d[:, 2] * c[:, 0])
    return np.arctan2(b, a)


def rotate_y(v, t):
    c, s = np.cos(t), np.sin(t)
    return np.stack([c * v[..., 0] + s * v[..., 2], v[..., 1], -s * v[..., 0] + c * v[..., 2]], axis=-1)


def contacts(ball, fps):
    """(first, last) frame intervals where the ball is within CONTACT_HEIGHT of
    its lowest height over the clip and slower than CONTACT_SPEED horizontally
    (forward differences; the last frame takes the one before), CONTACT_FRAMES long or more."""
    low = ball[:, 1] <= ball[:, 1].min() + CONTACT_HEIGHT
    step = np.linalg.norm(np.diff(horizontal(ball), axis=0), axis=1) * fps
    speed = np.append(step, step[-1])
    mask = low & (speed < CONTACT_SPEED)
    out, start = [], None
    for i, m in enumerate(list(mask) + [False]):
        if m and start is None:
            start = i
        elif not m and start is not None:
            if i - start >= CONTACT_FRAMES:
                out.append((start, i - 1))
            start = None
    return out


def slide(points, first, last):
    h = horizontal(points[first:last + 1])
    return float(np.linalg.norm(h - h[0], axis=1).max())


def check_output(rec, original, roles, fk, fps):
    name = "%s %s" % (rec["character"], rec["clip"])
    if rec.get("error"):
        report(False, "%s: Blender measured nothing: %s" % (name, rec["error"].strip().splitlines()[-1]))
        return
    cap = {k: fk[v] for k, v in CAPTURE_POINTS.items()}

    # names, vertex count, Assimp's names (need no animation)
    if original is None or original.get("error"):
        report(False, "%s names: no measure of the original (%s)" % (name, (original or {}).get("error")))
    else:
        out_bones, orig_bones = set(rec["bones"]), set(original["bones"])
        missing, extra = sorted(orig_bones - out_bones), sorted(out_bones - orig_bones)
        as_objects = sorted(set(missing) & set(rec.get("objects", [])))
        report(not missing and not extra, "%s names: %d bones, the original's %d; missing %s%s; extra %s"
               % (name, len(out_bones), len(orig_bones), missing,
                  " (of which present as non-bone objects: %s)" % as_objects if as_objects else "", extra))
        if original.get("importer") in ("fbx", "dae"):
            # An FBX's or COLLADA's vertices are control points; a glTF splits
            # them at UV and normal seams: compare the positions each has.
            report(rec["distinct_positions"] == original["distinct_positions"],
                   "%s vertices: %d distinct positions, the original %s's %d (vertex count %d, its control "
                   "points %d)"
                   % (name, rec["distinct_positions"], original["importer"].upper(), original["distinct_positions"],
                      rec["vertices"], original["vertices"]))
        else:
            report(rec["vertices"] == original["vertices"],
                   "%s vertices: %d, the original's %d (distinct positions %d, %d)"
                   % (name, rec["vertices"], original["vertices"], rec["distinct_positions"],
                      original["distinct_positions"]))
    report(not rec["assimp_names"], "%s no $AssimpFbx$ names: %s" % (name, rec["assimp_names"]))

    joints = {r: np.array(v) for r, v in rec["joints"].items()}
    wanted = [r for r, b in roles.items() if b]
    missing_roles = [r for r in wanted if r not in joints]
    if missing_roles:
        report(False, "%s role bones: missing from the output %s; the geometry checks cannot run"
               % (name, ["%s=%s" % (r, roles[r]) for r in missing_roles]))
        return
    n_out, n_cap = len(joints["hips"]), len(cap["root"])
    report(n_out == n_cap, "%s frames: the output's animation has %d (frames %d..%d at %d fps), the capture %d"
           % (name, n_out, rec["frame_start"], rec["frame_end"], fps, n_cap))
    n = min(n_out, n_cap)
    joints = {r: v[:n] for r, v in joints.items()}
    cap = {k: v[:n] for k, v in cap.items()}

    char_leg = leg_length(joints, "thigh_%s", "shin_%s", "foot_%s")
    cap_leg = leg_length(cap, "hip_%s", "knee_%s", "ankle_%s")
    s = char_leg / cap_leg
    one_leg = char_leg / 2
    figures = "s = %.3f (legs %.3f / %.3f)" % (s, char_leg, cap_leg)

    # size
    if original is not None and not original.get("error"):
        rest = {r: np.array(v)[None, :] for r, v in original["rest"].items() if v is not None}
        if all(r in rest for r in ("thigh_l", "shin_l", "foot_l", "thigh_r", "shin_r", "foot_r")):
            orig_leg = leg_length(rest, "thigh_%s", "shin_%s", "foot_%s")
            ratio = char_leg / orig_leg
            report(abs(ratio - 1) <= SIZE_TOLERANCE,
                   "%s size: legs %.3f on the output's first frame, %.3f in the original's rest pose "
                   "(x%.3f; within %d %%)"
                   % (name, char_leg, orig_leg, ratio, SIZE_TOLERANCE * 100))

    # lengths
    if original is not None and not original.get("error"):
        rest = {r: np.array(v) for r, v in original["rest"].items() if v is not None}
        bad, worst_limb, worst_torso = [], None, None
        for _, a, b, _, _ in SEGMENTS[:-1]:
            if a in rest and b in rest:
                want = float(np.linalg.norm(rest[b] - rest[a]))
                got = np.linalg.norm(joints[b] - joints[a], axis=1)
                f = int(np.argmax(np.abs(got / want - 1)))
                row = (abs(got[f] / want - 1), "%s->%s %.4f at frame %d, rest %.4f (x%.3f)"
                       % (a, b, got[f], f, want, got[f] / want))
                worst_limb = max(worst_limb or row, row)
                if row[0] > LIMB_TOLERANCE:
                    bad.append(a + "->" + b)
        for a, b in TORSO_LINKS:
            got = np.linalg.norm(joints[b] - joints[a], axis=1)
            row = (got.max() / got.min(), "%s->%s from %.4f (frame %d) to %.4f (frame %d), x%.3f"
                   % (a, b, got.min(), int(np.argmin(got)), got.max(), int(np.argmax(got)), got.max() / got.min()))
            worst_torso = max(worst_torso or row, row)
            if row[0] > 1 + TORSO_TOLERANCE:
                bad.append(a + "->" + b)
        report(not bad, "%s lengths: %s; limbs within %d %% of the rest pose, worst %s; torso within %d %% over the "
               "clip, worst %s" % (name, "kept" if not bad else "changed: " + ", ".join(bad), LIMB_TOLERANCE * 100,
                                   worst_limb[1] if worst_limb else "-", TORSO_TOLERANCE * 100,
                                   worst_torso[1] if worst_torso else "-"))

    # upright
    up = angle_deg(joints["head"] - joints["hips"], np.array([0.0, 1.0, 0.0]))
    worst = int(np.argmax(up))
    report(up.max() <= UP_LIMIT, "%s upright: hips->head from +Y worst %.1f deg at frame %d (median %.1f; limit %.0f)"
           % (name, up[worst], worst, np.median(up), UP_LIMIT))

    # soles
    lows = [(x["skinned"], x["frame"]) for x in rec["lowest"] if x["skinned"] is not None]
    if not lows:
        report(False, "%s soles: no skinned mesh evaluated" % name)
    else:
        low, at = min(lows)
        mesh = [x["mesh"] for x in rec["lowest"] if x["frame"] == at][0]
        every = min(x["all"] for x in rec["lowest"] if x["all"] is not None)
        lo, hi = SOLE_LOW * s, SOLE_HIGH * s
        cap_low = min(cap["ball_l"][:, 1].min(), cap["ball_r"][:, 1].min())
        report(lo <= low <= hi, "%s soles: lowest skinned vertex y = %.4f (mesh '%s', frame %d, %d frames sampled; "
               "all meshes %.4f), bounds [%.4f, %.4f]; %s; capture's lowest ball y = %.4f"
               % (name, low, mesh, at, len(rec["lowest"]), every, lo, hi, figures, cap_low))

    # travel
    d_char = float(np.linalg.norm(horizontal(joints["hips"][-1] - joints["hips"][0])))
    d_cap = float(np.linalg.norm(horizontal(cap["root"][-1] - cap["root"][0])))
    want = d_cap * s
    ratio = d_char / want if want > 0 else float("inf")
    report(abs(ratio - 1) <= TRAVEL_TOLERANCE, "%s travel: hips moved %.3f horizontally, capture root %.3f x s = %.3f "
           "(x%.3f; within %d %%)" % (name, d_char, d_cap, want, ratio, TRAVEL_TOLERANCE * 100))

    # segments
    char_v = np.stack([joints[b] - joints[a] for _, a, b, _, _ in SEGMENTS], axis=1)  # (n, segs, 3)
    cap_v = np.stack([cap[b] - cap[a] for _, _, _, a, b in SEGMENTS], axis=1)
    yaw = yaw_fit(char_v.reshape(-1, 3), cap_v.reshape(-1, 3))
    err = angle_deg(char_v, rotate_y(cap_v, yaw))  # (n, segs)
    f, k = np.unravel_index(int(np.argmax(err)), err.shape)
    per_seg = np.median(err, axis=0)
    worst_seg = int(np.argmax(per_seg))
    med, p95 = float(np.median(err)), float(np.percentile(err, 95))
    report(med <= SEG_MEDIAN and p95 <= SEG_P95,
           "%s segments: median %.2f deg, p95 %.2f deg (limits %.0f, %.0f) after yaw %.1f deg; worst %s frame %d "
           "%.1f deg; worst segment median %s %.1f deg"
           % (name, med, p95, SEG_MEDIAN, SEG_P95, np.degrees(yaw), SEGMENTS[k][0], f, err[f, k],
              SEGMENTS[worst_seg][0], per_seg[worst_seg]))

    # feet
    rows = []
    for side in "lr":
        point = joints["toe_" + side] if roles.get("toe_" + side) else joints["foot_" + side]
        ball = cap["ball_" + side]
        for first, last in contacts(ball, fps):
            c = slide(point, first, last)
            cs = slide(ball, first, last) * s
            allowed = cs + SLIDE_SLACK * one_leg
            rows.append((c - allowed, side, first, last, c, cs, allowed))
    if not rows:
        # The rule finds nothing to check in this capture: said, not counted.
        why = []
        for side in "lr":
            ball = cap["ball_" + side]
            low = ball[:, 1] <= ball[:, 1].min() + CONTACT_HEIGHT
            step = np.linalg.norm(np.diff(horizontal(ball), axis=0), axis=1) * fps
            slow = low & (np.append(step, step[-1]) < CONTACT_SPEED)
            run = best = 0
            for m in slow:
                run = run + 1 if m else 0
                best = max(best, run)
            why.append("%s: %d frames low, %d of them slow, longest run %d" % (side, low.sum(), slow.sum(), best))
        print("skip %s feet: the capture has no contact by the rule (%s; %d needed)"
              % (name, "; ".join(why), CONTACT_FRAMES), flush=True)
        skipped.append(name)
    else:
        bad = [r for r in rows if r[0] > 0]
        w = max(rows)
        point = "toe" if roles.get("toe_l") else "foot"
        report(not bad, "%s feet: %d of %d contacts slide too far (%s head); worst %s frames %d-%d: character %.4f, "
               "capture ball %.4f x s = %.4f, allowed %.4f (+%d %% of one leg %.3f)"
               % (name, len(bad), len(rows), point, w[1], w[2], w[3], w[4], w[5] / s, w[5], w[6], SLIDE_SLACK * 100,
                  one_leg))


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    with open(sys.argv[1]) as f:
        measures = json.load(f)
    with open(sys.argv[2]) as f:
        roles = {k: v for k, v in json.load(f).items() if not k.startswith("_")}
    if any(a.startswith("--open=") for a in sys.argv[3:]):
        at = next(i for i, a in enumerate(sys.argv) if a.startswith("--open="))
        read_open(sys.argv.pop(at)[len("--open="):])
    fks = {}
    for arg in sys.argv[3:]:
        clip, path = arg.split("=", 1)
        fks[clip] = read_fk(path)
    fps = measures["fps"]
    for rec in measures["outputs"]:
        check_output(rec, measures["originals"].get(rec["character"]), roles[rec["character"]], fks[rec["clip"]], fps)
    failed = results.count(False)
    print("corpus_check: %d checks ok, %d FAIL, %d open (corpus_open.txt), %d skipped (nothing to check)"
          % (results.count(True), failed, len(opened), len(skipped)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
