// How a motion meets the floor, to tell a motion that is not this skeleton's
// (or not in its units) from one that is.
//
// Motion capture stands its actor on a floor at height 0 along +Y (CMU's
// ASF/AMC, cgspeed's BVH and most BVH files), so over a whole clip some joint
// comes near that floor. A motion that never comes within a hip height of it,
// or sinks more than a hip height under it, was captured for another
// skeleton, in other units, or with another up axis. The check only warns:
// a capture on a platform is possible, so callers never refuse a clip for it.
#pragma once

#include <mocap/core/motion.h>
#include <mocap/core/skeleton.h>

#include <string>

namespace mocap {

struct FloorContact {
  double lowest_m = 0.0;        // the lowest joint height (world Y) over the clip, metres
  int lowest_frame = -1;        // frame index of that joint, -1 for an empty motion
  int lowest_frame_number = 0;  // the file's number of that frame (Motion::frame_numbers)
  int lowest_bone = -1;         // the bone whose end point it is (0: the root)
  // The skeleton's hip height: the root's height above the lowest joint of
  // the rest pose (a T-pose for CMU skeletons), metres.
  double hip_height_m = 0.0;
  // The rest pose's extent along Y (lowest to highest joint), metres.
  double rest_height_m = 0.0;
};

// Forward kinematics over every frame; allocates one pose and one row.
FloorContact floor_contact(const Skeleton& skeleton, const Motion& motion);

// A sentence for the user when the clip looks like a mistake (see above), or
// "" when it does not: the lowest joint more than a hip height above or below
// the floor, or a rest pose outside 0.3-3 m tall (a length unit mixed up).
std::string implausible_floor_contact(const Skeleton& skeleton, const FloorContact& contact);

}  // namespace mocap
