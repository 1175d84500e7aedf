#!/usr/bin/env python3
"""Load a clip, plot one joint's trajectory and the compression error over time, save a PNG.

    PYTHONPATH=build/python /usr/bin/python3 examples/python/plot_clip.py \
        data/09.asf data/09_06.amc --joint ltoes --max-error 1 -o clip.png

Top: the joint's height (metres) over the clip, the original and the .mkc
decoded at --max-error cm. Bottom: per frame, the worst joint's distance
from the original (cm) and the mean over joints, with the bound.
"""
import argparse

import matplotlib

matplotlib.use("Agg")  # files only, no display
import matplotlib.pyplot as plt
import numpy as np

import mocap


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("asf", help="ASF skeleton, or a .bvh alone")
    parser.add_argument("amc", nargs="?", help="AMC motion (after an ASF)")
    parser.add_argument("--joint", default="ltoes", help="joint to plot (default ltoes)")
    parser.add_argument("--max-error", type=float, default=1.0, help="the .mkc's bound, cm (default 1)")
    parser.add_argument("-o", "--output", default="clip.png", help="PNG to write (default clip.png)")
    args = parser.parse_args()

    clip = mocap.read_clip(args.asf, args.amc)
    if args.joint not in clip.joint_names:
        parser.error(f"--joint {args.joint}: not a joint of {clip.asf_path} ({', '.join(clip.joint_names)})")
    data = mocap.compress(clip, max_error=args.max_error)
    decoded = mocap.decompress(clip, data)
    report = mocap.eval(clip, decoded)

    original, rebuilt = clip.world_positions(), decoded.world_positions()  # (frames, joints, 3), metres
    error_cm = np.linalg.norm(rebuilt - original, axis=2) * 100  # (frames, joints)
    seconds = np.arange(len(clip)) / clip.fps
    j = clip.joint_names.index(args.joint)

    figure, (top, bottom) = plt.subplots(2, 1, figsize=(9, 6), sharex=True, constrained_layout=True)
    top.plot(seconds, original[:, j, 1], label="capture", color="black", linewidth=1.5)
    top.plot(seconds, rebuilt[:, j, 1], label=f".mkc ({len(data):,} bytes)", color="tab:orange", linewidth=1,
             linestyle="--")
    top.set_ylabel(f"{args.joint} height (m)")
    top.set_title(f"{clip.amc_path.split('/')[-1]}: {len(clip)} frames at {clip.fps:g} Hz")
    top.legend(loc="best")
    bottom.plot(seconds, error_cm.max(axis=1), label="worst joint", color="tab:red", linewidth=1)
    bottom.plot(seconds, error_cm.mean(axis=1), label="mean over joints", color="tab:blue", linewidth=1)
    bottom.plot(seconds, error_cm[:, j], label=args.joint, color="tab:orange", linewidth=0.8)
    bottom.axhline(args.max_error, color="gray", linestyle=":", label=f"bound {args.max_error:g} cm")
    bottom.set_xlabel("time (s)")
    bottom.set_ylabel("error (cm)")
    # worst_joint/worst_frame are the mean position error's; the worst single joint has its own keys.
    bottom.set_title(f"worst {report['worst_joint_error_cm']:.3f} cm ({report['worst_joint_error_joint']} at frame "
                     f"{report['worst_joint_error_frame']}), joint velocity error p99 "
                     f"{report['joint_vel_err_p99_cm_s']:.1f} cm/s")
    bottom.legend(loc="upper right", fontsize="small")
    figure.savefig(args.output, dpi=110)
    print(f"{args.output}: {args.joint} and the error of a {len(data):,}-byte .mkc "
          f"(worst joint {report['joint_err_max_cm']:.3f} cm)")


if __name__ == "__main__":
    main()
