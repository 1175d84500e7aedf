"""CMU motion capture (ASF/AMC, BVH) in numpy arrays, computed by the C++ library libmocap.

    import mocap
    clip = mocap.read_clip("09.asf", "09_06.amc")      # or mocap.read_clip("x.bvh", units="cm")
    xyz = clip.world_positions()                        # (frames, joints, 3) float64, metres
    data = mocap.compress(clip, max_error=1.0)          # a .mkc, every joint within 1 cm
    report = mocap.eval(clip, mocap.decompress(clip, data))

Bad input raises mocap.Error (a ValueError) whose message is the library's
"file:line: what was expected". docs/python.md has the whole surface.
"""

import json as _json
from typing import Any, Dict

import numpy as _numpy  # noqa: F401  (the arrays are numpy's: without it, fail here)

from . import _mocap
from ._mocap import (
    BoundMesh,
    Clip,
    Error,
    Retargeted,
    RiggedModel,
    __version__,
    bind_mesh,
    compress,
    decompress,
    edge_stretch,
    eye_stream,
    eye_track,
    foot_contacts,
    read_clip,
    read_rigged_model,
    retarget,
    skin,
    write_amc,
    write_asf_amc,
    write_bvh,
    write_glb,
)

__all__ = [
    "BoundMesh",
    "Clip",
    "Error",
    "Retargeted",
    "RiggedModel",
    "bind_mesh",
    "compress",
    "decompress",
    "edge_stretch",
    "eval",
    "eye_stream",
    "eye_track",
    "foot_contacts",
    "read_clip",
    "read_rigged_model",
    "retarget",
    "skin",
    "write_amc",
    "write_asf_amc",
    "write_bvh",
    "write_glb",
]


def eval(a: Clip, b: Clip, *, velocity_weight: float = 1.0, shell_radius_cm: float = 3.0) -> Dict[str, Any]:
    """`b` measured against the original `a` (the same skeleton and frame numbers), as `mocap eval --json`.

    Keys as the CLI's: joint_max_cm (the worst joint on the worst frame, the
    honest maximum), joint_worst_joint / joint_worst_frame (a bone name, a
    file frame number), position_mean_cm, velocity_mean_cm_per_frame,
    joint_vel_err_p99_cm_s, planted_feet_difference_cm_s, ...
    (compress/compress_report.h). Raises mocap.Error when the motions differ
    in joints or frames.
    """
    return _json.loads(_mocap.eval_json(a, b, velocity_weight, shell_radius_cm))
