// Keyframe compression: choosing key poses of a motion and rebuilding every
// frame from them.
//
// The method, in order:
//   1. Each bone gets a weight for how much of the body it moves
//      (default_joint_weights, or a weights file).
//   2. The distance between two poses is the weighted sum of the rotation
//      angles between the bones' local rotations, plus a root translation term
//      (pose_distance).
//   3. Extraction by threshold (extract_keys): the first frame is a key; a frame
//      farther than the threshold from the last key becomes a key; the last
//      frame is always a key.
//   4. Rebuild (rebuild_poses, rebuild_motion): every bone's rotation is slerped
//      along the short arc between the neighbouring keys, translations are
//      interpolated linearly, and key frames come back exactly. On request
//      (Interpolation::kCubic) a C1 cubic through all the keys instead.
//   5. Selection beyond the threshold (select_keys_for_count,
//      select_keys_for_max_error): keys chosen against the position error of
//      the rebuild itself, measured through the whole hierarchy: the count
//      against the mean over joints, max_error against the worst joint (or
//      the worst shell point) on every frame. The
//      selection always measures the slerp rebuild, whatever rebuild the keys
//      are later given to: its keys (and max_error's bound) are those that
//      suit slerp, and a cubic rebuild of them may be better or worse.
//
// Keys are indices of frames of the motion (0-based, increasing), not AMC frame
// numbers. Angles are in radians, lengths in metres, errors in centimetres.
//
// Each step has its own header, included here: core/pose_track.h,
// io/joint_weights.h, compress/extract.h (weights, distance, threshold),
// compress/interpolation.h and compress/rebuild.h, compress/selection.h;
// all of it in one call by a budget: compress/key_pipeline.h.
#pragma once

#include <mocap/compress/extract.h>
#include <mocap/compress/interpolation.h>
#include <mocap/compress/key_pipeline.h>
#include <mocap/compress/rebuild.h>
#include <mocap/compress/selection.h>
#include <mocap/core/pose_track.h>
#include <mocap/io/joint_weights.h>
