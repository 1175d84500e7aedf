// The floor check behind the CLI's "is this motion the skeleton's?" warning,
// on real captures and on the mistakes it is there for.
#include <mocap/core/floor_contact.h>
#include <mocap/io/bvh.h>
#include <mocap/io/capture.h>

#include <gtest/gtest.h>

#include "test_data.h"

namespace mocap {
namespace {

// Every real capture touches the floor: lowest joint within 15 cm of y = 0
// (measured 2026-12-02 on the 18 shared clips: -13.0 cm (05_06 rtoes) to
// +3.5 cm (02_04 rtoes)), hip height about a metre, nothing to warn about.
TEST(FloorContact, RealCapturesTouchTheFloor) {
  for (const auto& files : test::all_real_clips()) {
    SCOPED_TRACE(files.name);
    Skeleton skeleton;
    Motion motion;
    ASSERT_TRUE(test::load(files, skeleton, motion));
    const FloorContact contact = floor_contact(skeleton, motion);
    EXPECT_NEAR(contact.lowest_m, 0.0, 0.15);
    EXPECT_GT(contact.hip_height_m, 0.6);
    EXPECT_LT(contact.hip_height_m, 1.3);
    EXPECT_GE(contact.lowest_frame, 0);
    EXPECT_GT(contact.lowest_bone, 0);  // a foot or toe, not the root
    EXPECT_EQ(implausible_floor_contact(skeleton, contact), "");
  }
}

// A motion lifted by two hip heights (another capture's root track, or the
// wrong units) is named, with the lowest joint and the direction.
TEST(FloorContact, LiftedMotionIsNamed) {
  const auto files = test::bundled_clips().front();
  Skeleton skeleton;
  Motion motion;
  ASSERT_TRUE(test::load(files, skeleton, motion));
  const FloorContact before = floor_contact(skeleton, motion);
  const int ty = skeleton.bones[0].first_channel + 1;  // CMU root order: TX TY TZ RX RY RZ
  ASSERT_EQ(skeleton.bones[0].dofs[1], Channel::TY);
  for (int f = 0; f < motion.frame_count(); ++f)
    motion.frame(f)[static_cast<std::size_t>(ty)] += 2.0 * before.hip_height_m;
  const FloorContact after = floor_contact(skeleton, motion);
  EXPECT_NEAR(after.lowest_m, before.lowest_m + 2.0 * before.hip_height_m, 1e-9);
  const std::string why = implausible_floor_contact(skeleton, after);
  EXPECT_NE(why.find("above the floor"), std::string::npos) << why;
  EXPECT_NE(why.find(skeleton.bones[static_cast<std::size_t>(after.lowest_bone)].name), std::string::npos) << why;

  for (int f = 0; f < motion.frame_count(); ++f)
    motion.frame(f)[static_cast<std::size_t>(ty)] -= 4.0 * before.hip_height_m;
  EXPECT_NE(implausible_floor_contact(skeleton, floor_contact(skeleton, motion)).find("below the floor"),
            std::string::npos);
}

// cgspeed's BVH read in the wrong unit (metres instead of its ASF unit):
// a figure 30 m tall is called out whatever its motion does.
TEST(FloorContact, WrongBvhUnitIsNamed) {
  const auto bvh = test::shared_data_dir() / "cmu-bvh" / "09_06.bvh";
  if (!std::filesystem::exists(bvh)) GTEST_SKIP() << bvh << " is absent (../shared/data)";
  auto right = read_bvh_capture(bvh.string(), 0.0564444);
  ASSERT_TRUE(right) << right.error().to_string();
  EXPECT_EQ(implausible_floor_contact(right->skeleton, floor_contact(right->skeleton, right->motion)), "");
  auto wrong = read_bvh_capture(bvh.string(), 1.0);
  ASSERT_TRUE(wrong) << wrong.error().to_string();
  const std::string why = implausible_floor_contact(wrong->skeleton, floor_contact(wrong->skeleton, wrong->motion));
  EXPECT_NE(why.find("length unit"), std::string::npos) << why;
}

}  // namespace
}  // namespace mocap
