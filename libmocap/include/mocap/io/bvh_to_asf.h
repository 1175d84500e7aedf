// A BVH skeleton and motion as an Acclaim ASF skeleton and AMC motion that
// give the same world joint positions on every frame (io/bvh.h's to_bvh is
// the other direction).
//
// The two formats hang the offset on different rotations. A BVH joint J sits
// at a point and its rotation W_J turns the OFFSET of each child; an ASF bone
// is a segment from its parent's end to its own end that turns with its OWN
// rotation (core/fk.h). So the segment from J to a child K, which turns with
// W_J, is the ASF bone of J: named as J, its dofs J's rotation channels, its
// direction and length K's OFFSET (the rest pose of BVH has every rotation
// at identity, so the OFFSET is a world vector there).
//
// An ASF bone has one direction, and a BVH joint may have several children
// at different offsets (CMU's hips: the two legs and the spine). Such a
// joint becomes a bone of length 0 that carries its rotation dofs, and each
// child at a nonzero offset hangs from it through a link bone without
// rotation dofs ("<J>_to_<K>", or the End Site's own "<J>_end") whose
// direction and length are the child's OFFSET. This was chosen over one
// bone per child carrying copies of J's dofs because the AMC then holds each
// BVH angle once (editing it cannot make copies disagree), and it is how
// CMU's own skeletons already look (root -> lhipjoint -> lfemur, lhipjoint
// without dofs). Children at a zero offset hang from J's bone directly, and
// when all of J's children share one offset (one child, or CMU's thorax
// with the neck and both clavicles) J's bone takes that offset and no link
// is made. End Sites are not bones of their own: the end of J's bone (or of
// the link) is the End Site's point.
//
// Rotations. ASF readers differ: ours applies a bone's dofs in dof-line
// order, CMU's viewer always as rz * ry * rx (X first) with the dof line
// only giving the AMC's value order. To be read the same by both, every
// bone's dof line is a subset of "rx ry rz" in that order, and the BVH
// channel order is moved into the bone's axis C instead: C is the signed
// axis permutation that sends X, Y, Z to the BVH's first-applied, second and
// third axes (C M C^-1 turns rx, ry, rz into those turns), so an axis is a
// multiple of 90 degrees and a value may change sign. BVH's own
// "Zrotation Yrotation Xrotation" (cgspeed, Blender, ours) gives C = I and
// the BVH's angles unchanged. The root's rotation O * M cannot be
// conjugated, so the root states the BVH's order on its `order` line
// (TX TY TZ first, then the rotations first applied first; orientation 0);
// readers that take the root as RX RY RZ whatever the line says (CMU's
// viewer) read roots in BVH's Z Y X channel order only.
//
// Position channels on a non-root joint K (Blender and MotionBuilder read
// them as replacing the OFFSET on their axes) become tx/ty/tz dofs of K's
// link bone (always made for such a child), which Acclaim's format states
// and our reader applies; CMU's viewer ignores bone translations.
//
// Names: the ASF root is "root" (the BVH root joint's rotation and position
// are the root's); other bones are named as their joints, a name the ASF
// cannot take ("root", "begin", "end", or one taken already) gets "_2",
// "_3", ... appended; a leading ':' or '#' (a section, a comment) becomes '_'.
// Units: the ASF keeps the BVH's length unit (`:units length` = file units
// per inch), so the numbers are the BVH's; angles in degrees.
#pragma once

#include <mocap/core/error.h>
#include <mocap/core/motion.h>
#include <mocap/core/skeleton.h>
#include <mocap/io/asf_skeleton.h>

#include <vector>

namespace mocap {

struct AsfFromBvh {
  AsfSkeleton asf;    // what format_asf writes (no limits; name and documentation empty)
  Skeleton skeleton;  // build_skeleton(asf): what format_amc writes `motion` against
  Motion motion;      // frames of `skeleton`, at the BVH's rate and frame numbers
  // For each bone of the BVH skeleton (the input, or to_bvh's for an Acclaim
  // one): the ASF bone whose end point is that joint's (or End Site's)
  // position on every frame; 0 for the root.
  std::vector<int> bone_at;
};

// The ASF skeleton and motion of a BVH skeleton and motion as described
// above. An Acclaim skeleton goes through to_bvh first (io/bvh.h). Fails for
// a motion whose channel count is not the skeleton's or with no frames (an AMC
// holds at least one), or a skeleton to_bvh
// refuses (translation or length dofs below an Acclaim root).
Result<AsfFromBvh> bvh_to_asf(const Skeleton& skeleton, const Motion& motion);

}  // namespace mocap
