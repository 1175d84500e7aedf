# Eye tracks as arrays: mocap eyes' CSV track, number for number.
import numpy as np
import pytest

import mocap
from conftest import BUNDLED, run_cli


def cli_track(tmp_path, *args):
    out = tmp_path / "track.csv"
    run_cli("eyes", *args, "-o", out)
    return np.loadtxt(out, delimiter=",", skiprows=1, ndmin=2)


def as_columns(track):
    return np.column_stack([track["time"], track["left"], track["right"], track["brow"]])


def test_a_clips_track_is_mocap_eyes(tmp_path):
    clip = mocap.read_clip(BUNDLED / "09.asf", BUNDLED / "09_06.amc")
    track = mocap.eye_track(clip, seed=3, mode="listen")
    assert track["left"].shape == (141, 4) and track["time"][1] == pytest.approx(1 / 120)
    expected = cli_track(tmp_path, "--asf", BUNDLED / "09.asf", "--amc", BUNDLED / "09_06.amc", "--seed", 3,
                         "--mode", "listen")
    np.testing.assert_allclose(as_columns(track), expected, atol=5e-7)  # the CSV's 6 decimals


def test_a_track_alone_and_its_options(tmp_path):
    track = mocap.eye_track(rate=60, duration=3, seed=7, model="physio", pad=(0.2, 0.5, -0.3))
    expected = cli_track(tmp_path, "--rate", 60, "--duration", 3, "--seed", 7, "--model", "physio", "--pad",
                         "0.2,0.5,-0.3")
    assert len(track["time"]) == 180
    np.testing.assert_allclose(as_columns(track), expected, atol=5e-7)
    assert track["left"][:, 2].min() < 0.5  # it blinks in 3 s
    assert not np.array_equal(mocap.eye_track(duration=3, seed=8)["left"], mocap.eye_track(duration=3, seed=7)["left"])
    assert len(mocap.eye_track()["time"]) == 400  # 10 s at 40 Hz, as mocap eyes


def test_bad_options():
    with pytest.raises(ValueError, match="mode: expected"):
        mocap.eye_track(mode="sing")
    with pytest.raises(ValueError, match="pad: expected"):
        mocap.eye_track(pad=(2, 0, 0))
    with pytest.raises(mocap.Error, match="target"):
        mocap.eye_track(target=(0, 1.6, 2))  # a world target needs a clip's head
