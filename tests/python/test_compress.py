# compress / decompress / eval: the bytes and numbers of mocap compress,
# decompress and eval on the same clip.
import numpy as np
import pytest

import mocap
from conftest import BUNDLED, cli_json, run_cli

ASF, AMC = BUNDLED / "09.asf", BUNDLED / "09_06.amc"


@pytest.fixture(scope="module")
def clip():
    return mocap.read_clip(ASF, AMC)


def test_compress_gives_mocap_compresss_file(clip, tmp_path):
    for max_error in (1.0, 0.5):
        data = mocap.compress(clip, max_error=max_error)
        assert isinstance(data, bytes) and data[:4] == b"MKC\x1a"
        out = tmp_path / f"09_06_{max_error}.mkc"
        run_cli("compress", ASF, AMC, "--max-error", max_error, "-o", out)
        assert data == out.read_bytes()
    # The jitter bounds off: the position bound alone, a smaller file (README's sizes).
    alone = mocap.compress(clip, 1.0, max_velocity_error=0, contact_error=0, contact_speed=0)
    out = tmp_path / "alone.mkc"
    run_cli("compress", ASF, AMC, "--max-error", 1, "--max-velocity-error", 0, "--contact-error", 0,
            "--contact-speed", 0, "-o", out)
    assert alone == out.read_bytes() and len(alone) < len(mocap.compress(clip))


def test_decompress_keeps_the_skeleton_and_the_bound(clip, tmp_path):
    data = mocap.compress(clip, max_error=1.0)
    decoded = mocap.decompress(clip, data)
    assert decoded.joint_names == clip.joint_names
    np.testing.assert_array_equal(decoded.frame_numbers, clip.frame_numbers)
    assert decoded.fps == clip.fps and decoded.channels.shape == clip.channels.shape
    error_m = np.linalg.norm(decoded.world_positions() - clip.world_positions(), axis=2).max()
    assert 0 < error_m <= 0.01, f"{error_m * 100} cm"
    # From a file, the same motion.
    path = tmp_path / "09_06.mkc"
    path.write_bytes(data)
    assert np.array_equal(mocap.decompress(clip, path).channels, decoded.channels)
    # mocap decompress writes that motion as AMC text; read back, the same positions within its printing.
    amc = tmp_path / "decoded.amc"
    run_cli("decompress", ASF, path, "-o", amc)
    np.testing.assert_allclose(mocap.read_clip(ASF, amc).world_positions(), decoded.world_positions(), atol=1e-6)


def test_eval_is_mocap_evals_json(clip, tmp_path):
    data = mocap.compress(clip)
    path = tmp_path / "09_06.mkc"
    path.write_bytes(data)
    report = mocap.eval(clip, mocap.decompress(clip, data))
    assert report == cli_json("eval", ASF, AMC, path, "--json")
    assert report["worst_joint"] in clip.joint_names and 0 < report["joint_err_max_cm"] <= 1.0
    assert report["planted_feet_found"] and "joint_vel_err_p99_cm_s" in report
    assert report["pos_err_mean_cm"] > 0 and report["vel_err_mean_cm_per_frame"] > 0
    same = mocap.eval(clip, clip)
    assert same["joint_err_max_cm"] == 0 and same["planted_feet_difference_cm_s"] == 0
    assert mocap.eval(clip, clip, shell_radius_cm=5)["shell_radius_cm"] == 5


def test_other_skeletons_are_refused(clip):
    other = mocap.read_clip(BUNDLED / "16.asf", BUNDLED / "16_05.amc")
    with pytest.raises(mocap.Error, match="16_05.amc: the motions have 141 and 295 frames"):
        mocap.eval(clip, other)
    with pytest.raises(mocap.Error, match="bone"):
        mocap.decompress(clip, mocap.compress(other))
    with pytest.raises(mocap.Error, match="<bytes>: "):
        mocap.decompress(clip, b"MKC\x1a not a clip")
