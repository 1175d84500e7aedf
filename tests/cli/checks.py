#!/usr/bin/env python3
"""The checks of tests/cli/cases.txt that need Python.

`checks.py NAME` reads what a case's command wrote (its stdout, or a file it wrote)
on standard input and asserts what check NAME expects of it; a failed assertion
exits 1 and prints what came out. One function per check, named after its case;
$OUT is the folder the cases write to.
"""
import csv
import json
import os
import re
import struct
import sys


def json_in():
    return json.load(sys.stdin)


def csv_in():
    return list(csv.DictReader(sys.stdin))


def glb_json():
    """The JSON chunk of a binary glTF: 12-byte header, then chunk length, type, JSON."""
    b = sys.stdin.buffer.read()
    n = struct.unpack('<I', b[12:16])[0]
    return json.loads(b[20:20 + n])


def info_json():
    d = json_in()
    assert d['frames'] == 141 and len(d['bones']) == 31, d['frames']


def info_json_asf_only():
    d = json_in()
    assert 'frames' not in d and d['bones'][0]['name'] == 'root'


def fk_json():
    d = json_in()
    assert [f['frame'] for f in d['frames']] == [1, 2]


def fk_json_by_extension():
    d = json_in()
    assert [f['frame'] for f in d['frames']] == [1, 2] and d['units'] == 'm'


def fk_frames_step():
    d = json_in()
    assert [f['frame'] for f in d['frames']] == [1, 3, 5]


def compress_interp_cubic():
    d = json_in()
    assert (d['interp'] == 'cubic' and d['keys'] == 14 and 0 < d['pos_err_mean_cm'] < 0.8
            and 0 < d['uniform_pos_err_mean_cm'] < 0.8), d


def report_csv():
    rows = csv_in()
    assert len(rows) == 6 and all(r['status'] == 'ok' for r in rows), rows


def report_failed_clip():
    d = json_in()
    assert [c['status'] for c in d['clips']] == ['ok', 'failed'], d['clips']


def report_merge():
    names = [r['name'] for r in csv_in()]
    assert names == ['09_06', '16_05', '49_06'], names


def report_mkc_json():
    d = json_in()
    c = {x['name']: x for x in d['clips']}
    b = c['09_06']['budgets'][0]
    assert b['mkc']['bytes'] == os.path.getsize(os.path.join(os.environ['OUT'], 'report_09_06.mkc')), b['mkc']
    for x in d['clips']:
        for y in x['budgets']:
            assert y['mkc']['bytes_per_s'] == y['mkc']['bytes'] / x['duration_s'] and y['uniform_mkc']['bytes'] > 0, y
        assert x['track_mkc'][0]['joint_max_cm'] <= 2, x['track_mkc']
    s = d['summary']
    assert s['motion_seconds'] == sum(x['duration_s'] for x in d['clips'])
    kb = sum(x['budgets'][0]['mkc']['bytes'] for x in d['clips']) / 1000
    assert abs(s['budgets'][0]['mkc']['kb_per_s'] - kb / s['motion_seconds']) < 1e-12
    assert s['track_mkc'][0]['bytes'] == sum(x['track_mkc'][0]['bytes'] for x in d['clips'])
    r = d['run']
    assert re.match(r'^[0-9]+[.][0-9]+[.][0-9]+', r['tool_version']), r
    assert re.match(r'^[0-9-]+T[0-9:]+Z$', r['date_utc']), r
    line = r['command_line']
    assert line.startswith('mocap report ') and '--ratios 0.1' in line and '--bounds 2' in line, r
    assert d['options']['track_bounds_cm'] == [2] and d['options']['clip_file_error_cm'] == 1, d['options']


def report_mkc_html():
    h = sys.stdin.read()
    n = lambda s: h.count('class="' + s + '"')
    counts = (n('bytes-ours'), n('bytes-uniform'), n('bytes-track'), n('ratio-point'), n('track-point'))
    assert counts == (2, 2, 1, 4, 2), counts
    assert 'mocap report ' in h and '--ratios 0.05,0.1' in h and 'per-track .mkc bounds' in h
    assert 'selection passes' in h


def report_merge_run():
    d = json_in()
    r = d['run']
    assert r['command_line'].startswith('mocap report ') and '--merge' in r['command_line'] and r['tool_version'], r
    assert d['options']['budgets'] == [0.1]
    assert [c['name'] for c in d['clips']] == ['09_06', '16_05', '49_06']
    assert all(c['budgets'][0]['mkc']['bytes'] > 0 for c in d['clips'])


def report_default_bounds():
    d = json_in()
    assert d['options']['track_bounds_cm'] == [1, 0.1], d['options']
    for t, b in zip(d['clips'][0]['track_mkc'], [1, 0.1]):
        assert t['joint_max_cm'] <= b and t['jitter']['vel_cm_s']['p99'] <= 20 and t['bytes'] > 0, t
    assert len(d['clips'][0]['track_mkc']) == 2


def report_no_bounds():
    d = json_in()
    assert d['options']['track_bounds_cm'] == [] and d['clips'][0]['track_mkc'] == [], d['options']


def eyes_preview_png():
    b = sys.stdin.buffer.read()
    assert b[:8] == bytes([137, 80, 78, 71, 13, 10, 26, 10]), 'not a PNG'
    size = struct.unpack('>II', b[16:24])  # the IHDR chunk's width and height
    assert size == (528, 264), size


def bvh_convert_glb():
    j = glb_json()
    assert (len(j['nodes']) == 38 and len(j['animations']) == 1 and 'meshes' not in j
            and 'skins' not in j), j.keys()
    assert j['accessors'][0]['count'] == 141, j['accessors'][0]


def bvh_convert_bvh_to_glb():
    j = glb_json()
    assert len(j['nodes']) == 7 and j['nodes'][6]['name'] == 'LeftToeBase_end', j['nodes']


if __name__ == '__main__':
    checks = {k: v for k, v in globals().items() if callable(v) and k not in ('json_in', 'csv_in', 'glb_json')}
    if len(sys.argv) != 2 or sys.argv[1] not in checks:
        sys.exit('checks.py: expected one check name of ' + ', '.join(sorted(checks)))
    checks[sys.argv[1]]()
