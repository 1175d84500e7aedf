// Foot contacts: synthetic trajectories for each rule of the method, then a
// real CMU walk.
#include <mocap/core/fk.h>
#include <mocap/core/foot_contacts.h>

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <string>

#include "test_data.h"

namespace mocap {
namespace {

constexpr double kFps = 120.0;

// An ankle on a floor at `floor` m: planted for `planted` frames, then
// swinging (10 cm up, 1.2 m/s forward) for `swing` frames, `steps` times.
std::vector<Eigen::Vector3d> steps(int steps, int planted, int swing, double floor) {
  std::vector<Eigen::Vector3d> out;
  double x = 0.0;
  for (int s = 0; s < steps; ++s) {
    for (int f = 0; f < planted; ++f) out.emplace_back(x, floor, 0.0);
    for (int f = 0; f < swing; ++f) {
      x += 1.2 / kFps;
      out.emplace_back(x, floor + 0.1 * std::sin(M_PI * (f + 1) / (swing + 1)), 0.0);
    }
  }
  return out;
}

TEST(FootContacts, PlantedPhasesFoundOnAnyFloor) {
  for (double floor : {0.0, 0.08, -0.5}) {
    const auto track = steps(3, 40, 50, floor);
    const FootContacts c = detect_foot_contacts(track, kFps);
    EXPECT_NEAR(c.floor_m, floor, 1e-9);
    ASSERT_EQ(c.contacts.size(), 3u) << floor;
    for (int s = 0; s < 3; ++s) {
      // Each planted phase, give or take the frames where the swing is still low and slow.
      EXPECT_NEAR(c.contacts[static_cast<std::size_t>(s)].first, s * 90, 3);
      EXPECT_NEAR(c.contacts[static_cast<std::size_t>(s)].last, s * 90 + 39, 3);
    }
  }
}

TEST(FootContacts, ShortContactsDropped) {
  const auto track = steps(3, 5, 50, 0.0);  // 5 frames planted: 42 ms < 80 ms
  EXPECT_TRUE(detect_foot_contacts(track, kFps).contacts.empty());
  FootContactOptions options;
  options.min_seconds = 0.02;
  EXPECT_EQ(detect_foot_contacts(track, kFps, Eigen::Vector3d::UnitY(), options).contacts.size(), 3u);
}

TEST(FootContacts, HysteresisKeepsOneContactThroughNoise) {
  // Planted with 4 cm of jitter: above height_on (3 cm) now and then, never above height_off (5 cm).
  std::vector<Eigen::Vector3d> track(200, Eigen::Vector3d::Zero());
  for (int f = 0; f < 200; ++f) track[static_cast<std::size_t>(f)].y() = (f % 7 == 3) ? 0.04 : 0.0;
  track[0].y() = 0.0;
  FootContactOptions options;
  options.speed_on_m_s = 100.0;  // heights only
  options.speed_off_m_s = 100.0;
  const FootContacts c = detect_foot_contacts(track, kFps, Eigen::Vector3d::UnitY(), options);
  ASSERT_EQ(c.contacts.size(), 1u);
  EXPECT_EQ(c.contacts[0].first, 0);
  EXPECT_EQ(c.contacts[0].last, 199);
}

TEST(FootContacts, EmptyTrajectory) {
  EXPECT_TRUE(detect_foot_contacts({}, kFps).contacts.empty());
}

TEST(FootContacts, RealWalkHasAlternatingContacts) {
  MOCAP_REQUIRE_SHARED_DATA();
  Skeleton skeleton;
  Motion motion;
  test::ClipFiles files{"16_15", test::shared_data_dir() / "cmu" / "16.asf",
                        test::shared_data_dir() / "cmu" / "16_15.amc"};
  ASSERT_TRUE(test::load(files, skeleton, motion));
  const auto positions = world_positions(skeleton, motion);
  const std::size_t bones = skeleton.bones.size();
  std::array<std::vector<Eigen::Vector3d>, 2> ankles;
  for (int f = 0; f < motion.frame_count(); ++f) {
    ankles[0].push_back(
        positions[static_cast<std::size_t>(f) * bones + static_cast<std::size_t>(skeleton.find_bone("ltibia"))]);
    ankles[1].push_back(
        positions[static_cast<std::size_t>(f) * bones + static_cast<std::size_t>(skeleton.find_bone("rtibia"))]);
  }
  const FootContacts left = detect_foot_contacts(ankles[0], motion.fps),
                     right = detect_foot_contacts(ankles[1], motion.fps);
  EXPECT_GE(left.contacts.size(), 3u);
  EXPECT_GE(right.contacts.size(), 3u);
  // In a walk the feet take turns: no moment with both swinging for long, and each contact ends before the same foot's
  // next.
  for (const auto* c : {&left, &right}) {
    for (std::size_t i = 1; i < c->contacts.size(); ++i) EXPECT_GT(c->contacts[i].first, c->contacts[i - 1].last + 10);
  }
}

// Hand marks: each foot's contacts in the file's frame numbers, marked by a
// person (this session's helper, December 2026) from the per-frame heights
// above the floor and speeds of the heel (tibia end), ball (foot end) and
// toe tip that `mocap fk` prints, and checked on the viewer's side view
// (mocap-viewer --target lfoot --azimuth 90 --elevation 0, frames 72-102 of
// 09_06). A contact starts on the frame the falling foot stops on the floor
// (the heel's or, in the runs, the ball's height levels off and its speed
// drops below about half a metre a second) and ends on the last frame before
// the foot leaves it (the toe tip, last to go, accelerates past about 1 m/s).
// A clip that starts or ends in a stance starts or ends its contact there.
struct HandMarks {
  const char* subject;
  const char* clip;
  std::array<std::vector<FootContact>, 2> feet;  // left, right; file frame numbers
};

const HandMarks kHandMarks[] = {
    {"16",
     "16_15",  // walk
     {{{{1, 87}, {138, 223}, {279, 361}, {418, 471}}, {{1, 16}, {65, 155}, {204, 294}, {345, 436}}}}},
    {"09",
     "09_06",  // run
     {{{{1, 10}, {76, 97}}, {{32, 55}, {121, 141}}}}},
    {"16",
     "16_35",  // run/jog
     {{{{5, 36}, {103, 127}}, {{54, 85}, {151, 162}}}}},
};

TEST(FootContacts, AgreesWithHandMarksWithinTwoFrames) {
  MOCAP_REQUIRE_SHARED_DATA();
  for (const HandMarks& marks : kHandMarks) {
    SCOPED_TRACE(marks.clip);
    Skeleton skeleton;
    Motion motion;
    const auto dir = test::shared_data_dir() / "cmu";
    test::ClipFiles files{marks.clip, dir / (std::string(marks.subject) + ".asf"),
                          dir / (std::string(marks.clip) + ".amc")};
    ASSERT_TRUE(test::load(files, skeleton, motion));
    const auto found = clip_foot_contacts(skeleton, motion, files.asf.string());
    ASSERT_TRUE(found) << found.error().message;
    for (std::size_t s = 0; s < 2; ++s) {
      SCOPED_TRACE(found->feet[s].name);
      const auto& got = found->contacts[s].contacts;
      const auto& want = marks.feet[s];
      ASSERT_EQ(got.size(), want.size());
      for (std::size_t i = 0; i < want.size(); ++i) {
        EXPECT_NEAR(motion.frame_numbers[static_cast<std::size_t>(got[i].first)], want[i].first, 2) << i;
        EXPECT_NEAR(motion.frame_numbers[static_cast<std::size_t>(got[i].last)], want[i].last, 2) << i;
      }
    }
  }
}

TEST(FootContacts, FeetByNameAndByTopology) {
  MOCAP_REQUIRE_SHARED_DATA();
  Skeleton skeleton;
  Motion motion;
  test::ClipFiles files{"09_06", test::shared_data_dir() / "cmu" / "09.asf",
                        test::shared_data_dir() / "cmu" / "09_06.amc"};
  ASSERT_TRUE(test::load(files, skeleton, motion));
  const auto named = find_feet(skeleton, "09.asf");
  ASSERT_TRUE(named);
  EXPECT_EQ((*named)[0].toe, skeleton.find_bone("ltoes"));
  // Without CMU names the same bones are found by the skeleton's shape.
  for (Bone& bone : skeleton.bones) bone.name = "b" + bone.name;
  const auto shaped = find_feet(skeleton, "09.asf");
  ASSERT_TRUE(shaped) << shaped.error().message;
  for (std::size_t s = 0; s < 2; ++s) {
    EXPECT_EQ((*shaped)[s].toe, (*named)[s].toe) << s;
    EXPECT_EQ((*shaped)[s].ball, (*named)[s].ball) << s;
    EXPECT_EQ((*shaped)[s].heel, (*named)[s].heel) << s;
  }
  // A skeleton of the upper body alone has no feet: an error naming the file.
  Skeleton trunk;
  trunk.bones.push_back(skeleton.bones[0]);
  ASSERT_TRUE(finalize(trunk));
  const auto none = find_feet(trunk, "trunk.asf");
  ASSERT_FALSE(none);
  EXPECT_EQ(none.error().file, "trunk.asf");
  EXPECT_NE(none.error().message.find("no feet"), std::string::npos);
}

// The simple rule: low (within 4 cm of the lowest) and slow (under 25 cm/s
// across the ground, forward differences) for 6 frames at 120 Hz. A foot
// down for 6 frames is one contact, for 5 none; one that creeps at 24 cm/s
// stands, at 26 cm/s it does not; 3.9 cm up stands, 4.1 cm does not.
TEST(PlantedByRule, LowAndSlowForSixFrames) {
  auto walk = [](int down, double speed_m_s, double height_m) {
    std::vector<Eigen::Vector3d> p;
    double x = 0.0;
    for (int f = 0; f < 40; ++f) {
      const bool planted = f >= 10 && f < 10 + down;
      p.emplace_back(x, planted ? height_m : 0.3, 0.0);
      x += planted ? speed_m_s / 120.0 : 0.02;
    }
    p[0].y() = 0.0;  // the lowest height over the clip
    return p;
  };
  const auto six = planted_by_rule(walk(6, 0.0, 0.0), 120.0);
  ASSERT_EQ(six.size(), 1u);
  EXPECT_EQ(six[0].first, 10);
  EXPECT_EQ(six[0].last, 15);
  EXPECT_TRUE(planted_by_rule(walk(5, 0.0, 0.0), 120.0).empty());
  EXPECT_EQ(planted_by_rule(walk(12, 0.24, 0.0), 120.0).size(), 1u);
  EXPECT_TRUE(planted_by_rule(walk(12, 0.26, 0.0), 120.0).empty());
  EXPECT_EQ(planted_by_rule(walk(12, 0.0, 0.039), 120.0).size(), 1u);
  EXPECT_TRUE(planted_by_rule(walk(12, 0.0, 0.041), 120.0).empty());
}

TEST(MergeContacts, OverlappingAndAdjacentBecomeOne) {
  const std::vector<FootContact> a{{0, 5}, {20, 30}}, b{{6, 8}, {25, 40}, {50, 51}};
  const auto merged = merge_contacts(a, b);
  ASSERT_EQ(merged.size(), 3u);
  EXPECT_EQ(merged[0].first, 0);
  EXPECT_EQ(merged[0].last, 8);
  EXPECT_EQ(merged[1].first, 20);
  EXPECT_EQ(merged[1].last, 40);
  EXPECT_EQ(merged[2].first, 50);
}

}  // namespace
}  // namespace mocap
