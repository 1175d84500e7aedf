# Eye tracks as arrays: mocap eyes' CSV track, number for number.
import io
import json

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


def cli_stream(tmp_path, *args):
    """`mocap eyes --left L --right R ...` into two plain files: (left text, right text, frames each dropped)."""
    left, right = tmp_path / "left", tmp_path / "right"
    left.write_bytes(b"")
    right.write_bytes(b"")
    err = run_cli("eyes", *args, "--left", left, "--right", right, "--stats")[2]
    stats = json.loads(err.strip().splitlines()[-1])
    return left.read_text(), right.read_text(), (stats["left"]["dropped"], stats["right"]["dropped"])


def same_stream(lines, text, dropped):
    """The CLI's stream is the lines, or, where its clock dropped frames under load, the lines without those."""
    if dropped == 0:
        assert "".join(lines) == text
    else:
        written = text.splitlines(keepends=True)
        assert len(written) == len(lines) - dropped and set(written) <= set(lines)


def test_the_serial_stream_is_mocap_eyes_bit_for_bit(tmp_path):
    clip = mocap.read_clip(BUNDLED / "09.asf", BUNDLED / "09_06.amc")
    left, right = mocap.eye_stream(clip)
    assert len(left) == len(right) == 48  # 1.175 s at 40 Hz, then the neutral frame
    assert left[0] == '{"req":"c","d":{"x":0,"y":0,"l":1}}\n' and left[-1] == right[-1]
    text_left, text_right, dropped = cli_stream(tmp_path, "--asf", BUNDLED / "09.asf", "--amc", BUNDLED / "09_06.amc")
    same_stream(left, text_left, dropped[0])
    same_stream(right, text_right, dropped[1])


def test_the_streams_options_are_the_clis(tmp_path):
    asf, amc = BUNDLED / "09.asf", BUNDLED / "09_06.amc"
    clip = mocap.read_clip(asf, amc)
    kwargs = dict(rate=50, seed=5, mode="speak", target=(0.3, 1.6, 1.0), swap=True, keys=("a", "b", "c"),
                  x_range=(1, -1), l_range=(0, 255), pupil_key="p", sequence_key="n", decimals=5)
    left, right = mocap.eye_stream(clip, **kwargs)
    assert len(left) == 60 and '"n":59}' in left[-1] and '"p":' in left[0]  # 1.175 s at 50 Hz, then neutral
    assert left[:-1] != right[:-1] and len(set(left)) > 20  # the eyes converge on the target, and move
    text_left, text_right, dropped = cli_stream(
        tmp_path, "--asf", asf, "--amc", amc, "--rate", 50, "--seed", 5, "--mode", "speak", "--target", "0.3,1.6,1.0",
        "--swap", "--keys", "a,b,c", "--x-range", "1,-1", "--l-range", "0,255", "--pupil-key", "p", "--seq-key", "n",
        "--decimals", 5)
    same_stream(left, text_left, dropped[0])
    same_stream(right, text_right, dropped[1])
    # Written to paths (both or neither) and file objects, as returned.
    out = io.StringIO()
    again = mocap.eye_stream(clip, **kwargs, left=tmp_path / "l.jsonl", right=out)
    assert again == (left, right)
    assert (tmp_path / "l.jsonl").read_text() == "".join(left) and out.getvalue() == "".join(right)
    # The track's frames at the same rate: swapped (the right display shows
    # the left eye), x mirrored, the lid scaled.
    track = mocap.eye_track(clip, rate=50, seed=5, mode="speak", target=(0.3, 1.6, 1.0))
    shown = json.loads(right[10])["d"]
    assert shown["n"] == 10 and shown["c"] == pytest.approx(255 * track["left"][10, 2], abs=1e-5)
    assert shown["a"] == pytest.approx(-track["left"][10, 0], abs=1e-5)


def test_bad_stream_options():
    with pytest.raises(ValueError, match="decimals"):
        mocap.eye_stream(decimals=12)
    with pytest.raises(ValueError, match="duration"):
        mocap.eye_stream(duration=0)
    with pytest.raises(mocap.Error, match="cannot"):
        mocap.eye_stream(left="/nonexistent/dir/left")
