#!/usr/bin/env python3
"""Writes the malformed-input corpus of tests/cli/malformed/ from real CMU text.

Each file is data/09.asf or data/09_06.amc (CMU subject 09, run), cut down to
a few frames or to the left leg, with one thing broken. What each file must
make `mocap` print (file and line) is listed in tests/cli/cases.txt.
The files are committed; run this again only to change the corpus:
    python3 tests/cli/malformed/make_corpus.py
"""
import pathlib

HERE = pathlib.Path(__file__).resolve().parent
DATA = HERE.parents[2] / "data"

asf_lines = (DATA / "09.asf").read_text().split("\n")[:-1]
amc_lines = (DATA / "09_06.amc").read_text().split("\n")[:-1]

# 09.asf up to the end of ltoes (header, lhipjoint, lfemur, ltibia, lfoot,
# ltoes) and a hierarchy of that leg: 71 lines, a valid skeleton.
LEG = asf_lines[:63] + [
    ":hierarchy",
    "  begin",
    "    root lhipjoint",
    "    lhipjoint lfemur",
    "    lfemur ltibia",
    "    ltibia lfoot",
    "    lfoot ltoes",
    "  end",
]
# 09_06.amc: the header and frames 1 to 3 (93 lines). Frame f's number is on
# line 4 + 30 (f - 1); its bones follow in the file's order.
AMC = amc_lines[:93]
BONES = [line.split()[0] for line in AMC[4:33]]


def amc_line(frame, bone):
    """1-based line of `bone` in `frame`."""
    return 4 + 30 * (frame - 1) + 1 + BONES.index(bone)


def asf_line(lines, text, start=1):
    """1-based line, at or after `start`, whose stripped text is `text`."""
    for n in range(start, len(lines) + 1):
        if lines[n - 1].strip() == text:
            return n
    raise ValueError(text)


def write(name, lines, eol="\n"):
    (HERE / name).write_bytes((eol.join(lines) + eol).encode("latin-1"))


def write_bytes(name, data):
    (HERE / name).write_bytes(data)


def amc_with(changes):
    """AMC with {line: new text or None (deleted)}; later lines first."""
    lines = list(AMC)
    for n in sorted(changes, reverse=True):
        if changes[n] is None:
            del lines[n - 1]
        else:
            lines[n - 1] = changes[n]
    return lines


def leg_with(changes):
    lines = list(LEG)
    for n in sorted(changes, reverse=True):
        if changes[n] is None:
            del lines[n - 1]
        else:
            lines[n - 1] = changes[n]
    return lines


PNG = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\x01\0\0\0\x01\0\x08\x06\0\0\0\x5c\x72\xa8\x66"
ELF = b"\x7fELF\x02\x01\x01" + b"\0" * 9 + b"\x03\0\x3e\0\x01\0\0\0\x60\x10" + b"\0" * 6

# The valid bases, so that a failing case is known to fail for its one change.
write("09_leg.asf", LEG)
write("09_06_3frames.amc", AMC)

# --- AMC (read with data/09.asf) -------------------------------------------
write_bytes("amc_empty.amc", b"")
write("amc_header_only.amc", AMC[:3])
write("amc_truncated_frame.amc", AMC[: amc_line(3, "rtoes")])
write("amc_missing_bone.amc", amc_with({amc_line(2, "lhumerus"): None}))
write("amc_unknown_bone.amc", amc_with({amc_line(1, "lhumerus"): "lhumerous -10.0203 -20.6355 82.8192"}))
write("amc_too_few_values.amc", amc_with({amc_line(1, "lfemur"): "lfemur -7.00586 -1.73986"}))
write("amc_too_many_values.amc", amc_with({amc_line(2, "root"): AMC[amc_line(2, "root") - 1] + " 0"}))
write("amc_no_values.amc", amc_with({amc_line(1, "rtibia"): "rtibia"}))
write("amc_bad_number.amc", amc_with({amc_line(2, "rradius"): "rradius 8l.0784"}))
write("amc_comma_decimal.amc", amc_with({amc_line(3, "rtibia"): "rtibia 108,236"}))
write("amc_nan.amc", amc_with({amc_line(2, "lhumerus"): "lhumerus -10.0203 nan 82.8192"}))
write("amc_inf.amc", amc_with({amc_line(3, "root"): "root 0.0917792 17.1113 -inf 4.68854 2.37172 2.1196"}))
write("amc_overflow.amc", amc_with({amc_line(3, "ltibia"): "ltibia 4e999"}))
write("amc_plus_minus.amc", amc_with({amc_line(2, "lwrist"): "lwrist +-27.5011"}))
write("amc_bone_without_dofs.amc", amc_with({amc_line(1, "rfemur"): "lhipjoint 0 0 0"}))
dup = list(AMC)
dup.insert(amc_line(2, "lradius"), AMC[amc_line(2, "lradius") - 1])
write("amc_duplicate_bone.amc", dup)
early = list(AMC)
early.insert(3, AMC[4])
write("amc_bone_before_frame.amc", early)
write("amc_frames_backwards.amc", amc_with({4 + 60: "2"}))
write("amc_frame_not_whole.amc", amc_with({4 + 30: "2.5"}))
write("amc_keyword_after_frame.amc", amc_with({4 + 30: ":RADIANS\n2"}))
write("amc_unknown_keyword.amc", amc_with({2: ":PARTIALLY-SPECIFIED"}))
write_bytes("amc_elf.amc", ELF)
write_bytes("amc_png.amc", PNG)
nul = amc_with({})
nul[amc_line(2, "upperback") - 1] = "upperback 2.2\0\0\0\0 -3.50822 -1.96261"
write("amc_nul_in_line.amc", nul)
write("amc_crlf_too_few_values.amc", amc_with({amc_line(3, "lthumb"): "lthumb 1"}), eol="\r\n")
write("amc_cr_only.amc", AMC, eol="\r")

# --- ASF (read alone) -------------------------------------------------------
H = asf_line(LEG, ":hierarchy")
write_bytes("asf_empty.asf", b"")
write("asf_duplicate_bone.asf", leg_with({asf_line(LEG, "name ltibia"): "     name lfemur"}))
write("asf_cycle.asf", leg_with({asf_line(LEG, "lhipjoint lfemur"): "    ltibia lfemur"}))
write("asf_self_parent.asf", leg_with({asf_line(LEG, "lfemur ltibia"): "    lfemur lfemur ltibia"}))
write("asf_unknown_parent.asf", leg_with({asf_line(LEG, "ltibia lfoot"): "    ltibiaa lfoot"}))
write("asf_unknown_child.asf", leg_with({asf_line(LEG, "lfoot ltoes"): "    lfoot ltoe"}))
write("asf_second_parent.asf", leg_with({asf_line(LEG, "lhipjoint lfemur"): "    lhipjoint lfemur ltibia"}))
write("asf_no_bonedata.asf", LEG[: asf_line(LEG, ":bonedata") - 1] + LEG[H - 1 :])
write("asf_no_bonedata_keyword.asf", leg_with({asf_line(LEG, ":bonedata"): None}))
write("asf_missing_hierarchy.asf", LEG[: H - 1])
write("asf_hierarchy_not_closed.asf", LEG[:-1])
write("asf_bone_not_closed.asf", leg_with({asf_line(LEG, "end", asf_line(LEG, "name ltibia")): None}))
write("asf_truncated_in_bone.asf", LEG[: asf_line(LEG, "name lfoot") + 1])
write("asf_limits_count.asf", leg_with({asf_line(LEG, "(-70.0 70.0)"): None}))
write("asf_limit_unclosed.asf", leg_with({asf_line(LEG, "limits (-10.0 170.0)"): "    limits (-10.0 170.0"}))
write("asf_bad_number.asf", leg_with({asf_line(LEG, "length 7.71864"): "     length 7.7l864"}))
write("asf_plus_minus.asf", leg_with({asf_line(LEG, "name ltibia") + 1: "     direction +-0.34202 -0.939693 0"}))
write("asf_nan_direction.asf", leg_with({asf_line(LEG, "name lfoot") + 1: "     direction nan -0.212115 0.97419"}))
write("asf_inf_length.asf", leg_with({asf_line(LEG, "length 2.18429"): "     length inf"}))
write("asf_unknown_dof.asf", leg_with({asf_line(LEG, "dof rx rz"): "    dof rx rw"}))
write("asf_unknown_section.asf", leg_with({H: ":skin\n:hierarchy"}))
write_bytes("asf_elf.asf", ELF)
