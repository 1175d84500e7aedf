# Writing a clip: the files mocap convert writes for the same clip, and
# files that read back to the same motion.
import numpy as np
import pytest

import mocap
from conftest import BUNDLED, run_cli

ASF, AMC = BUNDLED / "49.asf", BUNDLED / "49_06.amc"  # CRLF, angles past 1000 degrees


@pytest.fixture(scope="module")
def clip():
    return mocap.read_clip(ASF, AMC)


def test_amc_reads_back_to_the_same_values(clip, tmp_path):
    out = tmp_path / "49_06.amc"
    mocap.write_amc(clip, out)
    again = mocap.read_clip(ASF, out)
    assert np.array_equal(again.channels, clip.channels)
    np.testing.assert_array_equal(again.frame_numbers, clip.frame_numbers)


def test_bvh_is_mocap_converts(clip, tmp_path):
    for units in ("cm", "m"):
        ours, theirs = tmp_path / f"ours_{units}.bvh", tmp_path / f"cli_{units}.bvh"
        mocap.write_bvh(clip, ours, units=units)
        run_cli("convert", ASF, AMC, "-o", theirs, "--bvh-units", units)
        assert ours.read_bytes() == theirs.read_bytes()
        back = mocap.read_clip(ours, units=units)
        assert back.is_bvh and back.fps == pytest.approx(clip.fps, rel=1e-9)


def test_glb_is_mocap_converts(clip, tmp_path):
    ours, theirs = tmp_path / "49_06.glb", tmp_path / "cli.glb"
    mocap.write_glb(clip, ours)
    run_cli("convert", ASF, AMC, "-o", theirs)
    assert ours.read_bytes()[:4] == b"glTF" and ours.read_bytes() == theirs.read_bytes()


def test_asf_amc_of_a_bvh_clip_give_its_positions(clip, tmp_path):
    bvh = tmp_path / "49_06.bvh"
    mocap.write_bvh(clip, bvh)
    from_bvh = mocap.read_clip(bvh)
    asf, amc = tmp_path / "back.asf", tmp_path / "back.amc"
    mocap.write_asf_amc(from_bvh, asf, amc)
    cli_asf, cli_amc = tmp_path / "cli.asf", tmp_path / "cli.amc"
    run_cli("convert", bvh, "-o", cli_asf, cli_amc)
    assert amc.read_bytes() == cli_amc.read_bytes()
    back = mocap.read_clip(asf, amc)
    # bvh_to_asf's skeleton has its own bones; every BVH joint is the end of one of them,
    # and the root, the first joint, is the root in both.
    np.testing.assert_allclose(back.world_positions()[:, 0], from_bvh.world_positions()[:, 0], atol=1e-9)
    assert back.world_positions().shape[0] == from_bvh.world_positions().shape[0]


def test_an_amc_needs_an_asf_skeleton(clip, tmp_path):
    bvh = tmp_path / "49_06.bvh"
    mocap.write_bvh(clip, bvh)
    with pytest.raises(mocap.Error, match="an AMC needs an ASF skeleton"):
        mocap.write_amc(mocap.read_clip(bvh), tmp_path / "x.amc")


def test_an_unwritable_path_is_an_error(clip, tmp_path):
    with pytest.raises(mocap.Error, match="no_such_folder"):
        mocap.write_bvh(clip, tmp_path / "no_such_folder" / "x.bvh")
    assert not (tmp_path / "no_such_folder").exists()
