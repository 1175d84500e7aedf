"""Peer skinning ratios from a bench_skin JSON (Google Benchmark output).

    python3 scripts/peer_skin_ratios.py build-bench/bench-results/bench_skin.json

For every BM_PeerSkin case: vertices per CPU second over BM_PeerMemcpy's
with the same normals argument (medians when the run has repetitions), and
for packed=1 also the ratio to the same case with packed=0 (the 24-byte
VertexWeights layout), all from the one run.
"""
import json
import re
import statistics
import sys


def main(path):
    runs = json.load(open(path))["benchmarks"]
    rates = {}
    for b in runs:
        if b.get("run_type") == "aggregate" or "vertices/cpu-s" not in b:
            continue
        rates.setdefault(b["run_name"], []).append(b["vertices/cpu-s"])
    rate = {name: statistics.median(values) for name, values in rates.items()}
    memcpy = {}
    for name, value in rate.items():
        m = re.match(r"BM_PeerMemcpy/normals:(\d)", name)
        if m:
            memcpy[m.group(1)] = value
    print(f"  {'case':62s} {'M vert/cpu-s':>12s} {'x memcpy':>9s} {'packed/old':>10s}")
    for name, value in rate.items():
        m = re.match(r"BM_PeerSkin/influences:(\d)/normals:(\d)/dqs:(\d)/kernel:(\d)/packed:(\d)", name)
        if not m:
            continue
        influences, normals, dqs, kernel, packed = m.groups()
        ratio = value / memcpy[normals] if normals in memcpy else float("nan")
        gain = ""
        if packed == "1":
            old = rate.get(name[: -len("packed:1")] + "packed:0")
            gain = f"{value / old:9.2f}x" if old else ""
        print(f"  {name:62s} {value / 1e6:12.1f} {ratio:8.2f}x {gain:>10s}")


if __name__ == "__main__":
    main(sys.argv[1])
