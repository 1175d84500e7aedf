# Skinning: the mesh posed by each frame, as mocap skin writes it.
import numpy as np
import pytest

import mocap
from conftest import BUNDLED, run_cli

ASF, AMC = BUNDLED / "09.asf", BUNDLED / "09_06.amc"
MESH, POSE = BUNDLED / "humanoid.obj", BUNDLED / "makehuman_apose.amc"  # MakeHuman's body, decimetres


@pytest.fixture(scope="module")
def bound():
    clip = mocap.read_clip(ASF, AMC)
    return clip, mocap.bind_mesh(clip, MESH, units="dm", bind_pose=POSE)


def obj_vertices(path):
    return np.array([[float(x) for x in line.split()[1:4]] for line in open(path) if line.startswith("v ")])


@pytest.mark.parametrize("method", ["lbs", "dqs"])
def test_frames_are_mocap_skins_obj_files(bound, method, tmp_path):
    clip, mesh = bound
    assert mesh.automatic_weights and mesh.joint_names == clip.joint_names
    assert mesh.vertices.shape == (13380, 3) and mesh.triangles.shape[1] == 3
    assert mesh.triangles.max() < len(mesh.vertices) and mesh.vertices.dtype == np.float32
    run_cli("skin", ASF, AMC, "--mesh", MESH, "--mesh-units", "dm", "--auto-weights", "--bind-pose", POSE,
            "--method", method, "--frames", "1:141:70", "-o", tmp_path / "f_%04d.obj")
    posed = mocap.skin(clip, mesh, method=method, frames=[0, 70, 140])
    assert posed.shape == (3, 13380, 3) and posed.dtype == np.float32
    every = mocap.skin(clip, mesh, method=method, threads=1)
    assert every.shape == (141, 13380, 3) and np.array_equal(every[[0, 70, 140]], posed)
    for row, number in enumerate((1, 71, 141)):
        # The OBJ in decimetres with 6 significant digits.
        expected = obj_vertices(tmp_path / f"f_{number:04d}.obj")
        np.testing.assert_allclose(posed[row] * 10, expected, rtol=5e-6, atol=1e-6)
    # The figure moves: frame 141 is not frame 1.
    assert np.abs(posed[2] - posed[0]).max() > 0.1


def test_what_the_skinning_refuses(bound, tmp_path):
    clip, mesh = bound
    bvh = tmp_path / "09_06.bvh"  # the same capture, a BVH skeleton's joints
    mocap.write_bvh(clip, bvh)
    with pytest.raises(mocap.Error, match="not a motion of the skeleton"):
        mocap.skin(mocap.read_clip(bvh), mesh)
    with pytest.raises(IndexError, match="141 is not a frame index"):
        mocap.skin(clip, mesh, frames=[141])
    with pytest.raises(ValueError, match="method: expected 'lbs' or 'dqs'"):
        mocap.skin(clip, mesh, method="sdq")
    with pytest.raises(mocap.Error, match="none.obj"):
        mocap.bind_mesh(clip, tmp_path / "none.obj")

