# What the Python tests share: where the data and the `mocap` binary are
# (ctest sets MOCAP_CLI, MOCAP_BUNDLED_DATA_DIR, MOCAP_SHARED_DATA_DIR;
# tests/python/CMakeLists.txt), the bundled and shared clips, and running
# the CLI for the numbers the module must give.
import json
import os
import pathlib
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
BUNDLED = pathlib.Path(os.environ.get("MOCAP_BUNDLED_DATA_DIR", ROOT / "data"))
SHARED = pathlib.Path(os.environ.get("MOCAP_SHARED_DATA_DIR", ROOT.parent / "shared" / "data"))
CLI = os.environ.get("MOCAP_CLI", str(ROOT / "build" / "tools" / "mocap"))
UNDER_CI = os.environ.get("CI") == "true"
SHARED_CLIP_COUNT = 18  # PROVENANCE.md, as tests/test_data.h's kSharedClipCount


def clips_in(folder):
    """(name, asf, amc) of every NN_MM.amc in `folder` with its NN.asf, by name."""
    found = []
    for amc in sorted(pathlib.Path(folder).glob("*_*.amc")):
        asf = amc.with_name(amc.stem.split("_")[0] + ".asf")
        if asf.exists():
            found.append((amc.stem, asf, amc))
    return found


BUNDLED_CLIPS = clips_in(BUNDLED)


def shared_clips():
    """The shared clips; the test is skipped, saying so, where ../shared/data is absent (fails under CI)."""
    folder = SHARED / "cmu"
    clips = clips_in(folder) if folder.is_dir() else []
    if UNDER_CI:
        assert len(clips) == SHARED_CLIP_COUNT, f"under CI=true {folder} must hold {SHARED_CLIP_COUNT} clips"
    if not clips:
        pytest.skip(f"no shared data at {SHARED}: skipped")
    return clips


def run_cli(*args, check=True):
    """The `mocap` CLI's run: (exit code, stdout bytes, stderr text)."""
    done = subprocess.run([CLI, *map(str, args)], capture_output=True)
    if check and done.returncode != 0:
        raise AssertionError(f"mocap {' '.join(map(str, args))}: exit {done.returncode}: {done.stderr.decode()}")
    return done.returncode, done.stdout, done.stderr.decode()


def cli_json(*args):
    return json.loads(run_cli(*args)[1])
