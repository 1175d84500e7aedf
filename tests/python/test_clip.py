# A clip read through the module: the CLI's numbers, bit for bit.
import numpy as np
import pytest

import mocap
from conftest import BUNDLED, BUNDLED_CLIPS, SHARED, cli_json, run_cli

CLIP_IDS = [name for name, _, _ in BUNDLED_CLIPS]


def fk_json(*args):
    """`mocap fk --format json`: JSON numbers round-trip doubles exactly (nlohmann writes the shortest form)."""
    out = cli_json("fk", *args, "--format", "json")
    names = list(out["frames"][0]["positions_m"].keys())
    numbers = np.array([f["frame"] for f in out["frames"]])
    xyz = np.array([[f["positions_m"][n] for n in names] for f in out["frames"]], dtype=np.float64)
    return out["fps"], numbers, names, xyz


def test_there_are_bundled_clips():
    assert len(BUNDLED_CLIPS) == 3, BUNDLED


@pytest.mark.parametrize("name,asf,amc", BUNDLED_CLIPS, ids=CLIP_IDS)
def test_world_positions_are_mocap_fk_bit_for_bit(name, asf, amc):
    clip = mocap.read_clip(asf, amc)
    fps, numbers, names, xyz = fk_json(asf, amc)
    assert clip.fps == fps == 120.0
    assert clip.joint_names == names
    assert clip.joint_names[0] == "root"
    np.testing.assert_array_equal(clip.frame_numbers, numbers)
    assert clip.frame_numbers.dtype == np.int32
    positions = clip.world_positions()
    assert positions.dtype == np.float64 and positions.shape == (len(numbers), len(names), 3)
    assert np.array_equal(positions, xyz), f"largest difference {np.abs(positions - xyz).max()} m"


def test_fps_and_frame_count_as_given():
    clip = mocap.read_clip(BUNDLED / "09.asf", str(BUNDLED / "09_06.amc"), fps=60)
    assert clip.fps == 60.0 and len(clip) == 141 and clip.duration == pytest.approx(141 / 60)


def test_channels_are_the_motions_values_and_read_only():
    clip = mocap.read_clip(BUNDLED / "09.asf", BUNDLED / "09_06.amc")
    channels = clip.channels
    assert channels.shape == (141, len(clip.channel_names)) and channels.dtype == np.float64
    assert clip.channel_names[:6] == ["root.TX", "root.TY", "root.TZ", "root.RX", "root.RY", "root.RZ"]
    # 09_06.amc line 5: "root 0.0917792 17.1113 -36.2281 4.68854 2.37172 2.1196"
    # (inches / 0.45 to metres, degrees to radians).
    np.testing.assert_allclose(channels[0, :3], np.array([0.0917792, 17.1113, -36.2281]) * 0.0254 / 0.45, rtol=1e-12)
    np.testing.assert_allclose(channels[0, 3:6], np.radians([4.68854, 2.37172, 2.1196]), rtol=1e-12)
    assert not channels.flags.writeable and not clip.frame_numbers.flags.writeable
    with pytest.raises(ValueError):
        channels[0, 0] = 1.0
    # A view of the clip's memory, alive after the clip's last name is gone.
    del clip
    assert channels[0, 1] == pytest.approx(17.1113 * 0.0254 / 0.45)


def test_joints_and_parents_are_mocap_infos():
    clip = mocap.read_clip(BUNDLED / "16.asf", BUNDLED / "16_05.amc")
    bones = cli_json("info", BUNDLED / "16.asf", BUNDLED / "16_05.amc", "--json")["bones"]
    assert clip.joint_names == [b["name"] for b in bones]
    names = clip.joint_names
    assert [names[p] if p >= 0 else None for p in clip.parents] == [b["parent"] for b in bones]
    assert clip.parents.dtype == np.int32


def test_world_transforms_positions_match_and_rotations_are_unit():
    clip = mocap.read_clip(BUNDLED / "49.asf", BUNDLED / "49_06.amc")
    positions, rotations = clip.world_transforms()
    assert np.array_equal(positions, clip.world_positions())
    assert rotations.shape == positions.shape[:2] + (4,)
    np.testing.assert_allclose(np.linalg.norm(rotations, axis=2), 1.0, atol=1e-12)


def test_bvh_with_units_is_mocap_fk_bit_for_bit():
    bvh = SHARED / "cmu-bvh" / "09_06.bvh"
    if not bvh.exists():
        pytest.skip(f"no shared data at {SHARED}: skipped")
    for units in ("cm", "0.0564444"):
        clip = mocap.read_clip(bvh, units=units)
        fps, numbers, names, xyz = fk_json(bvh, "--bvh-units", units)
        assert clip.is_bvh and clip.joint_names == names and clip.fps == fps
        np.testing.assert_array_equal(clip.frame_numbers, numbers)
        assert np.array_equal(clip.world_positions(), xyz)
    metres = mocap.read_clip(bvh, units="m").world_positions()
    centimetres = mocap.read_clip(bvh, units="cm").world_positions()
    np.testing.assert_allclose(metres, centimetres * 100, rtol=1e-12, atol=1e-12)


def test_foot_contacts_are_mocap_contacts():
    clip = mocap.read_clip(BUNDLED / "09.asf", BUNDLED / "09_06.amc")
    found = mocap.foot_contacts(clip)
    cli = cli_json("contacts", BUNDLED / "09.asf", BUNDLED / "09_06.amc", "--json")
    assert found["floor_m"] * 100 == pytest.approx(cli["floor_cm"], rel=1e-12)
    for foot, expected in zip(found["feet"], cli["feet"]):
        keys = ("foot", "heel", "ball", "toe")
        assert [foot[k] for k in keys] == [expected[k] for k in keys]
        numbers = clip.frame_numbers[foot["contacts"]]  # frame indices to the file's frame numbers
        assert numbers.tolist() == [[c["first"], c["last"]] for c in expected["contacts"]]
        assert len(expected["contacts"]) > 0


def test_repr_names_the_file():
    clip = mocap.read_clip(BUNDLED / "09.asf", BUNDLED / "09_06.amc")
    assert repr(clip) == "<mocap.Clip 09_06.amc: 141 frames at 120.0 fps, 31 joints>"
    assert mocap.__version__ == run_cli("--version")[1].decode().split()[-1]
