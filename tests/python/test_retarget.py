# Rigged models and retargeting: the bytes and poses of `mocap retarget`
# and `mocap skin --model`.
import re

import numpy as np
import pytest

import mocap
from conftest import BUNDLED, SHARED, UNDER_CI, run_cli

ASF, AMC = BUNDLED / "09.asf", BUNDLED / "09_06.amc"
FBX = BUNDLED / "rigged_simple.fbx"  # two bones, not a humanoid


def khronos(name):
    path = SHARED / "meshes" / "khronos" / name
    if not path.exists():
        assert not UNDER_CI, f"under CI=true {path} must exist"
        pytest.skip(f"no shared data at {path}: skipped")
    return path


def obj_vertices(path):
    return np.array([[float(x) for x in line.split()[1:4]] for line in open(path) if line.startswith("v ")])


def cli_error(*args):
    code, out, err = run_cli(*args, check=False)
    assert code == 2 and err.startswith("mocap: "), err
    return err.splitlines()[-1][len("mocap: "):]


@pytest.fixture(scope="module")
def clip():
    return mocap.read_clip(ASF, AMC)


def test_a_rigged_models_arrays():
    model = mocap.read_rigged_model(khronos("CesiumMan.glb"))
    nodes, joints = len(model.node_names), len(model.joint_names)
    assert (nodes, joints, model.vertices.shape) == (22, 19, (2612, 3))
    parents = model.node_parents
    assert parents[0] == -1 and all(0 <= parents[n] < n for n in range(1, nodes))
    assert model.rest_translations.shape == (nodes, 3) and model.rest_scales.shape == (nodes, 3)
    np.testing.assert_allclose(np.linalg.norm(model.rest_rotations, axis=1), 1.0, atol=1e-6)
    assert [model.node_names[n] for n in model.joint_nodes] == model.joint_names
    assert model.joint_parents[0] == -1 and (model.joint_parents[1:] >= 0).all()
    assert model.inverse_bind_matrices.shape == (joints, 4, 4)
    np.testing.assert_array_equal(model.inverse_bind_matrices[:, 3], np.tile([0, 0, 0, 1], (joints, 1)))
    influences, weights = model.weights
    assert influences.shape == weights.shape == (2612, 4) and influences.max() < joints
    np.testing.assert_allclose(weights.sum(axis=1), 1.0, atol=1e-6)
    assert model.triangles.max() < 2612 and model.vertices.dtype == np.float32
    # The nodes' rest transforms down the hierarchy put every joint where its
    # inverse bind matrix says (the Khronos samples are bound in their rest pose).
    world = []
    for n in range(nodes):
        x, y, z, w = model.rest_rotations[n]
        local = np.eye(4)
        local[:3, :3] = np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
                                  [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
                                  [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)]])
        local[:3, :3] *= model.rest_scales[n]
        local[:3, 3] = model.rest_translations[n]
        world.append(local if parents[n] < 0 else world[parents[n]] @ local)
    rest = np.array([world[n] for n in model.joint_nodes])
    np.testing.assert_allclose(rest @ model.inverse_bind_matrices, np.tile(np.eye(4), (joints, 1, 1)), atol=1e-5)


@pytest.mark.parametrize("name, animation, frames", [("CesiumMan.glb", "", 61), ("RiggedFigure.dae", "", 38),
                                                     ("Fox.glb", "Run", None), ("rigged_simple.fbx", "", None)])
def test_a_models_own_animation_is_mocap_skin_model(name, animation, frames, tmp_path):
    path = FBX if name.endswith(".fbx") else khronos(name)
    model = mocap.read_rigged_model(path)
    every = model.skin(animation)
    if frames:
        assert len(every) == frames  # its length at 30 fps, as the CLI's
    step = (len(every) - 1) // 2
    picked = [0, step, 2 * step]
    args = ["--animation", animation] if animation else []
    run_cli("skin", "--model", path, *args, "--frames", f"0:{2 * step}:{step}", "-o", tmp_path / "f_%04d.obj")
    posed = model.skin(animation, frames=picked)
    np.testing.assert_array_equal(posed, every[picked])
    size = np.ptp(model.vertices, axis=0).max()
    for row, number in enumerate(picked):
        np.testing.assert_allclose(posed[row], obj_vertices(tmp_path / f"f_{number:04d}.obj"), rtol=5e-6,
                                   atol=1e-6 * size)
    assert np.abs(posed[1] - posed[0]).max() > 0.01 * size  # it moves
    joints = model.joint_transforms(animation, frames=picked)
    assert joints.shape == (3, len(model.joint_names), 4, 4)
    np.testing.assert_array_equal(joints[:, :, 3], np.tile([0, 0, 0, 1], (3, len(model.joint_names), 1)))
    with pytest.raises(mocap.Error, match="animation"):
        model.skin("no such animation")


@pytest.mark.parametrize("name", ["CesiumMan.glb", "RiggedFigure.dae"])
def test_retargeting_is_mocap_retarget(clip, name, tmp_path):
    path = khronos(name)
    out = tmp_path / "cli.glb"
    run_cli("retarget", ASF, AMC, "--model", path, "-o", out)
    retargeted = mocap.retarget(clip, path)
    assert retargeted.glb == out.read_bytes()
    mocap.write_glb(retargeted, tmp_path / "py.glb")
    assert (tmp_path / "py.glb").read_bytes() == out.read_bytes()
    assert mocap.retarget(clip, mocap.read_rigged_model(path)).glb == retargeted.glb
    assert (retargeted.name, retargeted.fps, len(retargeted)) == ("09_06", 120.0, 141)
    model = retargeted.model
    keyed = len(retargeted.keyed_nodes)
    assert retargeted.translations.shape == (141, keyed, 3) and retargeted.rotations.shape == (141, keyed, 4)
    assert [len(c) for c in retargeted.contacts] == [1, 2]  # as the CLI prints
    # The poses are the .glb's: its animation read back (float keys) and played.
    joints = retargeted.joint_transforms()
    assert joints.shape == (141, len(model.joint_names), 4, 4)
    played = mocap.read_rigged_model(out)
    assert played.joint_names == model.joint_names and "09_06" in played.animation_names
    size = np.ptp(model.vertices, axis=0).max()
    # (Its keys' times are float32: 140 / 120 s read back is a hair short of
    # frame 140, so at 120 fps the animation plays 140 frames, not 141.)
    replayed = played.joint_transforms("09_06", fps=120.0)
    assert len(replayed) == 140
    np.testing.assert_allclose(replayed, joints[:140], atol=1e-5 * size)
    skinned = retargeted.skin(frames=[0, 70, 139])
    assert skinned.shape == (3, len(model.vertices), 3)
    np.testing.assert_array_equal(skinned[1], retargeted.skin()[70])
    np.testing.assert_allclose(played.skin("09_06", fps=120.0, frames=[0, 70, 139]), skinned, atol=1e-5 * size)
    # And the skinned mesh is what `mocap skin --model out.glb` writes.
    run_cli("skin", "--model", out, "--animation", "09_06", "--fps", 120, "--frames", "70:70", "-o",
            tmp_path / "f_%04d.obj")
    np.testing.assert_allclose(skinned[1], obj_vertices(tmp_path / "f_0070.obj"), rtol=1e-5, atol=1e-5 * size)
    assert np.abs(skinned[2] - skinned[0]).max() > 0.05 * size  # the character moves


def test_an_image_found_nowhere_is_a_warning(clip, tmp_path):
    # CesiumMan.dae names CesiumMan.jpg: beside it, embedded; alone, left out and said.
    assert mocap.retarget(clip, khronos("CesiumMan.dae")).warnings == []
    alone = tmp_path / "CesiumMan.dae"
    alone.write_bytes(khronos("CesiumMan.dae").read_bytes())
    warnings = mocap.retarget(clip, alone).warnings
    assert len(warnings) == 1 and "CesiumMan.jpg" in warnings[0]


def test_options_reach_the_library(clip, tmp_path):
    path = khronos("CesiumMan.glb")
    run_cli("retarget", ASF, AMC, "--model", path, "--no-plant", "-o", tmp_path / "free.glb")
    free = mocap.retarget(clip, path, plant_feet=False, name="walk")
    assert free.name == "walk" and free.glb != (tmp_path / "free.glb").read_bytes()  # the name is in the file
    assert mocap.retarget(clip, path, plant_feet=False).glb == (tmp_path / "free.glb").read_bytes()


def test_a_fbx_model_is_read_and_refused_as_a_humanoid(clip, tmp_path):
    model = mocap.read_rigged_model(FBX)
    assert len(model.joint_names) >= 2 and len(model.vertices) > 0
    with pytest.raises(mocap.Error) as raised:
        mocap.retarget(clip, FBX, name="x")
    assert raised.value.file == str(FBX) and "no hips joint" in str(raised.value)
    assert str(raised.value) == cli_error("retarget", ASF, AMC, "--model", FBX, "-o", tmp_path / "x.glb")


def test_bad_models_raise_with_their_file(clip, tmp_path):
    broken = tmp_path / "broken.glb"
    broken.write_bytes(b"glTF\x02\x00\x00\x00garbage")
    with pytest.raises(mocap.Error) as raised:
        mocap.read_rigged_model(broken)
    assert raised.value.file == str(broken)
    with pytest.raises(mocap.Error, match=re.escape(f"{broken}")):
        mocap.retarget(clip, broken)
    obj = BUNDLED / "humanoid.obj"
    with pytest.raises(mocap.Error) as raised:
        mocap.retarget(clip, obj)
    assert str(raised.value) == cli_error("retarget", ASF, AMC, "--model", obj, "-o", tmp_path / "x.glb")
    assert "has no skin" in raised.value.message
    missing = tmp_path / "none.glb"
    with pytest.raises(mocap.Error, match=re.escape(str(missing))):
        mocap.read_rigged_model(missing)


def test_a_bad_map_names_its_line(clip, tmp_path):
    path = khronos("CesiumMan.glb")
    bad = tmp_path / "map.json"
    bad.write_text('{\n  "Skeleton_torso_joint_1": "nobone"\n}\n')
    with pytest.raises(mocap.Error) as raised:
        mocap.retarget(clip, path, map=bad)
    assert raised.value.file == str(bad)
    assert str(raised.value) == cli_error("retarget", ASF, AMC, "--model", path, "--map", bad, "-o",
                                          tmp_path / "x.glb")


def test_frames_out_of_range(clip):
    retargeted = mocap.retarget(clip, khronos("CesiumMan.glb"))
    with pytest.raises(IndexError, match="141 is not a frame index"):
        retargeted.skin(frames=[141])
    with pytest.raises(ValueError, match="method: expected"):
        retargeted.skin(method="x")
