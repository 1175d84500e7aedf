#!/usr/bin/env python3
"""Compares two mocap report JSON files field by field.

What a run records about itself (its date, command line, times and, with
--threads-may-differ, thread count) differs between any two runs of the same
report; every other field, every number measured, must be equal.

    same_report.py A.json B.json [--names A_NAME B_NAME] [--threads-may-differ]

Prints which run-record fields differ and how many others are equal; exit 0
when the numbers agree, 1 (listing up to 20 differences) when they do not.
"""
import argparse
import json
import sys

RUN_FIELDS = {"seconds", "select_seconds", "encode_seconds", "wall_seconds", "clip_seconds"}


def flat(node, prefix=""):
    if isinstance(node, dict):
        for key, value in node.items():
            yield from flat(value, f"{prefix}.{key}" if prefix else key)
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from flat(value, f"{prefix}[{i}]")
    else:
        yield prefix, node


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("a")
    parser.add_argument("b")
    parser.add_argument("--names", nargs=2, default=["first", "second"])
    parser.add_argument("--threads-may-differ", action="store_true")
    args = parser.parse_args()
    run_fields = RUN_FIELDS | ({"threads"} if args.threads_may_differ else set())
    with open(args.a) as fa, open(args.b) as fb:
        a, b = dict(flat(json.load(fa))), dict(flat(json.load(fb)))
    allowed, other = set(), []
    for key in sorted(a.keys() | b.keys()):
        if a.get(key) == b.get(key):
            continue
        leaf = key.rsplit(".", 1)[-1]
        if leaf in run_fields or key.startswith("run."):
            allowed.add(leaf if leaf in run_fields else key)
        else:
            other.append(f"{key}: {a.get(key)!r} {args.names[0]}, {b.get(key)!r} {args.names[1]}")
    print("differ (times and the run record): " + (", ".join(sorted(allowed)) or "nothing"))
    if other:
        print("differ (numbers!):\n  " + "\n  ".join(other[:20]), file=sys.stderr)
        return 1
    print(f"equal: {len(a)} other fields")
    return 0


if __name__ == "__main__":
    sys.exit(main())
