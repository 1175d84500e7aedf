# Bad input raises mocap.Error (a ValueError) whose message is the library's
# "file:line: what was expected", the line mocap prints after "mocap: ".
import re

import pytest

import mocap
from conftest import BUNDLED, run_cli


def damaged_copy(tmp_path, name, line, old, new):
    """A copy of data/<name> with `old` replaced by `new` on 1-based line `line`."""
    lines = (BUNDLED / name).read_bytes().split(b"\n")
    assert old in lines[line - 1], (name, line, lines[line - 1])
    lines[line - 1] = lines[line - 1].replace(old, new, 1)
    path = tmp_path / name
    path.write_bytes(b"\n".join(lines))
    return path


def cli_error(*args):
    code, out, err = run_cli(*args, check=False)
    assert code == 2 and err.startswith("mocap: "), err
    return err.splitlines()[0][len("mocap: "):]


def test_a_bad_number_in_an_amc_names_its_file_and_line(tmp_path):
    amc = damaged_copy(tmp_path, "09_06.amc", 6, b"19.257", b"19.2x7")
    with pytest.raises(mocap.Error) as raised:
        mocap.read_clip(BUNDLED / "09.asf", amc)
    error = raised.value
    assert isinstance(error, ValueError)
    assert error.file == str(amc) and error.line == 6
    assert str(error).startswith(f"{amc}:6: ") and error.message in str(error)
    assert str(error) == cli_error("info", BUNDLED / "09.asf", amc)


def test_a_bad_asf_fails_before_the_motion(tmp_path):
    asf = damaged_copy(tmp_path, "09.asf", 22, b"2.5165", b"long")
    with pytest.raises(mocap.Error, match=re.escape(f"{asf}:22: ")) as raised:
        mocap.read_clip(asf, BUNDLED / "09_06.amc")
    assert str(raised.value) == cli_error("info", asf, BUNDLED / "09_06.amc")


def test_a_crlf_file_keeps_its_line_numbers(tmp_path):
    amc = damaged_copy(tmp_path, "49_06.amc", 35, b"root", b"rooot")
    with pytest.raises(mocap.Error) as raised:
        mocap.read_clip(BUNDLED / "49.asf", amc)
    assert raised.value.line == 35 and str(raised.value) == cli_error("info", BUNDLED / "49.asf", amc)


def test_a_missing_file_is_a_mocap_error(tmp_path):
    with pytest.raises(mocap.Error, match=re.escape(str(tmp_path / "none.amc"))) as raised:
        mocap.read_clip(BUNDLED / "09.asf", tmp_path / "none.amc")
    assert raised.value.line == 0


def test_a_damaged_bvh(tmp_path):
    bvh = tmp_path / "bad.bvh"
    bvh.write_text("HIERARCHY\nROOT Hips\n{\n  OFFSET 0 0 zero\n}\n")
    with pytest.raises(mocap.Error, match=re.escape(f"{bvh}:4: ")):
        mocap.read_clip(bvh)


def test_arguments_the_library_never_sees_are_plain_value_errors():
    with pytest.raises(ValueError, match="expected an AMC motion after the ASF skeleton"):
        mocap.read_clip(BUNDLED / "09.asf")
    with pytest.raises(ValueError, match="units: expected m, cm, mm, in, ft"):
        mocap.read_clip(BUNDLED / "x.bvh", units="parsec")
    with pytest.raises(TypeError):
        mocap.read_clip(42)


def test_a_bvh_and_an_asf_clip_are_not_compared(tmp_path):
    clip = mocap.read_clip(BUNDLED / "09.asf", BUNDLED / "09_06.amc")
    bvh = tmp_path / "09_06.bvh"
    mocap.write_bvh(clip, bvh)
    with pytest.raises(mocap.Error, match=re.escape(f"{bvh}: not a motion of {BUNDLED / '09.asf'}'s joints")):
        mocap.eval(clip, mocap.read_clip(bvh))


def test_a_bound_out_of_range_is_the_librarys_message():
    clip = mocap.read_clip(BUNDLED / "09.asf", BUNDLED / "09_06.amc")
    with pytest.raises(mocap.Error, match="max"):
        mocap.compress(clip, max_error=-1)
