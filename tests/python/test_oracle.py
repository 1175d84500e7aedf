# The module's positions against an independent program's (AMCParser, the
# oracle of ../shared/data/oracle, README there), as tests/core/test_fk.cc.
import csv

import numpy as np
import pytest

import mocap
from conftest import SHARED, shared_clips

TOLERANCE_M = 1e-4  # 0.1 mm, the project's acceptance tolerance


def read_oracle(path):
    """{frame number: {bone: (x, y, z) metres}}."""
    frames = {}
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            frames.setdefault(int(row["frame"]), {})[row["bone"]] = (float(row["x"]), float(row["y"]), float(row["z"]))
    return frames


def test_every_oracle_clip_within_a_tenth_of_a_millimetre():
    compared = 0
    for name, asf, amc in shared_clips():
        oracle_file = SHARED / "oracle" / f"{name}.fk.csv"
        if not oracle_file.exists():
            continue
        clip = mocap.read_clip(asf, amc)
        positions = clip.world_positions()
        index = {number: f for f, number in enumerate(clip.frame_numbers.tolist())}
        worst = 0.0
        for number, bones in read_oracle(oracle_file).items():
            assert list(bones) == clip.joint_names, name  # the oracle's order is mocap fk's
            expected = np.array(list(bones.values()))
            worst = max(worst, float(np.linalg.norm(positions[index[number]] - expected, axis=1).max()))
            compared += len(bones)
        assert worst < TOLERANCE_M, f"{name}: {worst * 1000:.6f} mm from the oracle"
    if compared == 0:
        pytest.skip(f"no oracle files in {SHARED / 'oracle'}: skipped")
    assert compared == 8990  # README: 290 frames, 8,990 rows in all
