# Reference counts and memory do not grow over 1,000 calls: arrays free the
# library's vectors, views release their clip, errors leave nothing behind.
import gc
import os
import sys

import numpy as np
import pytest

import mocap
from conftest import BUNDLED, SHARED, UNDER_CI

CALLS = 1000
ASF, AMC = BUNDLED / "09.asf", BUNDLED / "09_06.amc"


def rss_bytes():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def grows(work, calls=CALLS):
    """RSS growth (bytes) over `calls` calls of `work` after a warm-up."""
    for _ in range(20):
        work()
    gc.collect()
    before = rss_bytes()
    for _ in range(calls):
        work()
    gc.collect()
    return rss_bytes() - before


def test_views_hold_the_clip_and_let_it_go():
    clip = mocap.read_clip(ASF, AMC)
    base = sys.getrefcount(clip)
    views = [clip.channels for _ in range(CALLS)] + [clip.frame_numbers for _ in range(CALLS)]
    assert sys.getrefcount(clip) == base + 2 * CALLS
    del views
    assert sys.getrefcount(clip) == base
    for _ in range(CALLS):
        clip.world_positions()
        clip.world_transforms()
        clip.joint_names
    assert sys.getrefcount(clip) == base


def test_positions_are_freed():
    clip = mocap.read_clip(ASF, AMC)
    size = clip.world_positions().nbytes  # 105 kB a call: 1,000 leaked would be 105 MB
    assert grows(lambda: clip.world_positions().sum()) < 20 * size


def test_reading_compressing_and_errors_do_not_leak(tmp_path):
    def read():
        clip = mocap.read_clip(ASF, AMC)
        assert clip.channels.shape == (141, 62)
    assert grows(read) < 8 << 20  # each clip is 70 kB of values, plus its skeleton

    bad = tmp_path / "bad.amc"
    bad.write_bytes(AMC.read_bytes().replace(b"19.257", b"19.2x7", 1))

    def fail():
        try:
            mocap.read_clip(ASF, bad)
        except mocap.Error:
            pass
    assert grows(fail) < 8 << 20

    clip = mocap.read_clip(ASF, AMC)
    data = mocap.compress(clip)
    before = sys.getrefcount(data)
    assert grows(lambda: mocap.decompress(clip, data), calls=200) < 8 << 20
    assert sys.getrefcount(data) == before
    np.testing.assert_array_equal(mocap.decompress(clip, data).frame_numbers, clip.frame_numbers)


def test_skinning_frees_its_frames():
    clip = mocap.read_clip(ASF, AMC)
    mesh = mocap.bind_mesh(clip, BUNDLED / "humanoid.obj", units="dm", bind_pose=BUNDLED / "makehuman_apose.amc")
    base = sys.getrefcount(mesh)
    # 160 kB a call: 1,000 leaked would be 160 MB.
    assert grows(lambda: mocap.skin(clip, mesh, frames=[5], threads=1).sum()) < 8 << 20
    assert sys.getrefcount(mesh) == base
    views = [mesh.vertices for _ in range(CALLS)]
    assert sys.getrefcount(mesh) == base + CALLS
    del views
    assert sys.getrefcount(mesh) == base


def test_retargeting_and_its_model_views_let_go():
    model = SHARED / "meshes" / "khronos" / "CesiumMan.glb"
    if not model.exists():
        assert not UNDER_CI, f"under CI=true {model} must exist"
        pytest.skip(f"no shared data at {model}: skipped")
    clip = mocap.read_clip(ASF, AMC)
    # A .glb of 0.7 MB and 141 frames of transforms a call: 200 leaked would be 150 MB.
    assert grows(lambda: mocap.retarget(clip, model).joint_transforms().sum(), calls=200) < 16 << 20
    retargeted = mocap.retarget(clip, model)
    base = sys.getrefcount(retargeted)
    views = [retargeted.rotations for _ in range(CALLS)]
    assert sys.getrefcount(retargeted) == base + CALLS
    del views
    assert sys.getrefcount(retargeted) == base
    rigged = retargeted.model  # the Retargeted's own model: it keeps the result alive
    vertices = rigged.vertices.copy()
    del retargeted
    gc.collect()
    np.testing.assert_array_equal(rigged.vertices, vertices)
    assert grows(lambda: mocap.read_rigged_model(model).skin(frames=[3]).sum(), calls=200) < 16 << 20


def test_eye_streams_are_freed():
    # 400 lines a call: 1,000 leaked would be about 20 MB of strings.
    assert grows(lambda: len(mocap.eye_stream(duration=10))) < 4 << 20
