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



def test_edge_stretch_is_every_triangle_edges_longest_as_the_cli_reports(bound, tmp_path):
    clip, mesh = bound
    posed = mocap.skin(clip, mesh, frames=[0, 70, 140])
    stretch = mocap.edge_stretch(mesh.vertices, mesh.triangles, posed, bound=1.5)
    # numpy's own: every triangle's edges once, their posed / rest ratios.
    t = mesh.triangles
    edges = np.unique(np.sort(np.concatenate([t[:, [0, 1]], t[:, [1, 2]], t[:, [2, 0]]]), axis=1), axis=0)
    rest = np.linalg.norm(mesh.vertices[edges[:, 0]] - mesh.vertices[edges[:, 1]], axis=1)
    edges, rest = edges[rest > 1e-5], rest[rest > 1e-5]
    ratio = np.linalg.norm(posed[:, edges[:, 0]] - posed[:, edges[:, 1]], axis=2) / rest
    frame, edge = np.unravel_index(np.argmax(ratio), ratio.shape)
    assert stretch["frames"] == 3 and stretch["frame"] == frame
    assert stretch["vertices"] == tuple(edges[edge]) and stretch["rest_length"] == pytest.approx(rest[edge])
    assert stretch["longest"] == pytest.approx(ratio.max(), rel=1e-6) and stretch["longest"] > 1.5
    assert stretch["past_bound"] == (ratio > 1.5).sum()
    # The CLI's report of the same frames names the same edge.
    out = run_cli("skin", ASF, AMC, "--mesh", MESH, "--mesh-units", "dm", "--auto-weights", "--bind-pose", POSE,
                  "--frames", "1:141:70", "--stretch-report", "-o", tmp_path / "f_%04d.obj")[1].decode()
    a, b = stretch["vertices"]
    assert f"longest edge {stretch['longest']:.2f}x" in out and f"vertices {a} and {b} at frame {frame * 70 + 1}," in out
    unmoved = mocap.edge_stretch(mesh.vertices, mesh.triangles, mesh.vertices[None])
    assert unmoved["past_bound"] == 0 and unmoved["longest"] == pytest.approx(1.0)
    with pytest.raises(ValueError, match="posed: expected"):
        mocap.edge_stretch(mesh.vertices, mesh.triangles, posed[:, :10])
    with pytest.raises(ValueError, match="triangles: vertex 13380 is not one"):
        mocap.edge_stretch(mesh.vertices, mesh.triangles + 1, posed)
