// Error-bounded encoding of a motion into a compressed clip (compressed_clip.h).
//
// The method, in order:
//   1. Each channel (an AMC value: a rotation dof in radians, a translation
//      in metres) gets a tolerance from its lever arm: the farthest joint it
//      moves, along the chain of bone lengths below it (plus the shell radius
//      when the shell is bounded). A rotation error e moves that joint by at
//      most e * lever.
//      With the jitter bounds each channel also gets a rate tolerance (the
//      error of its central difference, from the velocity bound and the same
//      lever), and on the capture's foot contacts the channels that move a
//      foot get both tolerances scaled down.
//   2. Each channel is fitted alone within its tolerances: for each candidate
//      knot spacing a least-squares uniform B-spline (cubic by default), its
//      (and linear) control points quantised on the coarsest grid whose curve stays
//      within the tolerance on every frame; the spacing with the fewest
//      coded bits wins (delta order and Rice parameter chosen per track).
//      Whole-pose mode (pose_keys) keys every channel at the given frames
//      instead: the quantised key values, and the file decodes as
//      compress/rebuild.h's rebuild_motion of those key poses by
//      `interpolation` (recorded in the file).
//   3. The file is formatted, parsed back and decoded by the real decoder;
//      forward kinematics of the decoded motion is compared with the
//      original on every joint and frame (positions, velocity errors, the
//      planted feet). Channels on chains whose joints break a bound are
//      tightened, channels whose joints have room are loosened, each bound
//      steering its own share, and steps 2-3 repeat; the smallest file that
//      holds every bound is returned, and the stats are those of that
//      decoded file.
// Errors are in centimetres, lengths in metres.
#pragma once

#include <mocap/compress/compressed_clip.h>
#include <mocap/compress/jitter.h>
#include <mocap/core/error.h>
#include <mocap/core/motion.h>
#include <mocap/core/skeleton.h>

#include <cstddef>
#include <vector>

namespace mocap {

struct ClipEncodeOptions {
  double max_joint_error_cm = 1.0;  // bound on the worst joint error of the decoded motion, > 0
  // > 0: bound the worst shell-point error instead: points shell_radius_m
  // from each joint along its bone frame's x, y, z axes (as ACL measures).
  double max_shell_error_cm = 0.0;
  double shell_radius_m = 0.03;  // metres, > 0 when the shell is bounded
  // The jitter bounds (per-track clips only; whole-pose clips bound their
  // key frames alone). Their defaults make the default file look right in
  // motion, not only hold its position bound: without them the 1 cm file's
  // joints buzz (velocity error p99 40-62 cm/s on the 18 shared clips) and
  // its planted feet slide (8-18 cm/s faster than the capture's).
  // > 0: the 99th percentile, over every joint and frame, of the joint
  // velocity error |v' - v| (compress/jitter.h) within this, cm/s. 0: off.
  double max_velocity_error_cm_s = 20.0;
  // Planted feet (per-track clips of a skeleton with two feet, core/
  // foot_contacts.h; the capture's contacts): > 0 bounds, on each contact
  // frame, the foot's heel, ball and toe error (cm) on the foot in contact,
  // and the mean ball speed over the contact frames to the capture's + this
  // (cm/s): feet that stand in the capture stand in the file. 0: off.
  double max_contact_error_cm = 0.3;
  double max_contact_speed_cm_s = 1.5;
  // Non-empty: whole-pose mode: every track keyed at exactly these frame
  // indices (0-based, increasing, first and last frame included). The key
  // values are quantised within the bound (enforced on the key frames);
  // between keys the decoder rebuilds the poses by `interpolation`, as
  // rebuild_motion does for a key file, so the error there is the rebuild's
  // (reported over every frame, not bounded).
  std::vector<int> pose_keys;
  // Whole-pose mode: the rebuild between keys (compress/interpolation.h),
  // stored in the file. Ignored for per-track clips.
  Interpolation interpolation = Interpolation::kSlerp;
  // Techniques, each switchable for measurement:
  bool per_track_keys = true;  // false: one knot spacing shared by every track (the finest any needs)
  bool cubic = true;     // false: linear B-splines only (per-track clips; whole-pose clips follow `interpolation`)
  bool linear = true;    // with cubic: each track takes the cheaper of cubic and linear; false: cubic only
  bool quantise = true;  // false: float32 points
  bool entropy = true;   // false: fixed-width residuals instead of Rice codes
  bool delta = true;     // false: delta order 0 (codes coded as they are)
  // false: fit the channels as the motion holds them; true: first replace
  // each rotation angle by the equivalent (whole turns, the other Euler
  // solution) nearest to the previous frame's, so a flip costs no knots. The
  // decoded angles may then differ from the source's by such equivalents;
  // the rotations do not.
  bool continuous = true;
  int max_iterations = 12;  // refinement rounds of step 3, >= 1

  // Fails on a bound <= 0 or not finite, a velocity or contact bound < 0, a bad shell radius, pose keys out
  // of order or not starting at 0, max_iterations < 1.
  Result<void> validate() const;
};

struct ClipEncodeStats {
  std::size_t bytes = 0;      // the file
  std::size_t raw_bytes = 0;  // frames * channels * 4: every channel value as a float32
  // Of the DECODED file against the original, every joint (bone 0 the root
  // position, else the bone's end point) and frame; frame = frame index.
  double worst_joint_error_cm = 0;
  int worst_joint = -1;
  int worst_frame = -1;
  double worst_shell_error_cm = 0;
  int worst_shell_joint = -1;
  int worst_shell_frame = -1;
  double mean_joint_error_cm = 0;     // over every joint and frame
  JointVelocityError velocity;        // of the decoded file, cm/s (compress/jitter.h)
  PlantedFeetSpeed planted;           // of the decoded file on the capture's contacts (feet false: none found)
  double worst_contact_error_cm = 0;  // heel, ball or toe of the foot in contact, over its contact frames
  int keys = 0;                       // points stored over all tracks
  int iterations = 0;                 // rounds of step 3 run
  double encode_seconds = 0;          // wall clock
};

// Encodes `motion` of `skeleton`. Fails on invalid options, a motion that
// does not fit the skeleton (channel count), no frames, non-finite values,
// pose keys beyond the last frame, or when the bound cannot be held even at
// the finest setting (the error says how close it got).
Result<CompressedClip> encode_clip(const Skeleton& skeleton, const Motion& motion, const ClipEncodeOptions& options,
                                   ClipEncodeStats* stats = nullptr);

}  // namespace mocap
