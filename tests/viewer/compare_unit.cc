// viewer.compare.unit: the compare layer (compare.h) against the library.
//   mocap-viewer-compare-test data-dir
// The error of a motion beside the main clip is mocap eval's: its summary
// equals measure_error's, and its per-frame values are the mean and the max of
// its per-joint distances; its jitter is measure_jitter's, its velocity curve
// per frame the worst joint's, and the main clip's foot contacts are
// clip_foot_contacts'. Another subject's skeleton gets no error; frames pair
// by number at one rate and by time at two.
#include "compare.h"

#include <mocap/compress/jitter.h>
#include <mocap/compress/motion_error.h>
#include <mocap/core/foot_contacts.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

namespace {

int failures = 0;

void expect(bool ok, const std::string& what) {
  std::printf("%s: %s\n", ok ? "ok" : "FAIL", what.c_str());
  failures += !ok;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace mocap::viewer;
  if (argc != 2) return std::fprintf(stderr, "usage: mocap-viewer-compare-test data-dir\n"), 2;
  const std::string data = argv[1];
  auto main_clip = load_capture(data + "/09.asf", data + "/09_06.amc");
  auto same = load_capture(data + "/09.asf", data + "/09_06.amc");
  auto other = load_capture(data + "/16.asf", data + "/16_05.amc");
  if (!main_clip || !same || !other) return std::fprintf(stderr, "cannot read the bundled clips\n"), 2;
  // A rebuilt-like motion: every channel of the frames past the middle off by 0.05.
  for (int f = same->frame_count() / 2; f < same->frame_count(); ++f) {
    for (double& v : same->capture.motion.frame(f)) v += 0.05;
  }
  const auto reference =
      mocap::measure_error(main_clip->capture.skeleton, main_clip->capture.motion, same->capture.motion);
  if (!reference) return std::fprintf(stderr, "measure_error failed\n"), 2;
  const auto jitter =
      mocap::measure_jitter(main_clip->capture.skeleton, main_clip->capture.motion, same->capture.motion);
  if (!jitter) return std::fprintf(stderr, "measure_jitter failed\n"), 2;

  CompareState state;
  add_motion(state, std::move(*same), *main_clip);
  add_motion(state, std::move(*other), *main_clip);
  const CompareError& e = state.motions[0].error;
  expect(e.valid, "a motion of the same skeleton has an error");
  expect(std::abs(e.summary.joint.max - reference->joint.max) < 1e-9 &&
             e.summary.joint.worst_frame == reference->joint.worst_frame &&
             e.summary.joint.worst_joint == reference->joint.worst_joint,
         "worst joint as mocap eval's (" + std::to_string(reference->joint.max) + " cm)");
  expect(std::abs(e.summary.position.mean - reference->position.mean) < 1e-9, "mean over joints as mocap eval's");
  expect(reference->joint.max > 1.0, "the perturbed motion is off by more than 1 cm");
  const std::size_t bones = main_clip->capture.skeleton.bones.size();
  double worst_gap = 0.0;
  for (std::size_t f = 0; f < e.worst_cm.size(); ++f) {
    float top = 0.0f;
    double sum = 0.0;
    for (std::size_t j = 0; j < bones; ++j)
      top = std::max(top, e.joint_cm[f * bones + j]), sum += e.joint_cm[f * bones + j];
    worst_gap = std::max({worst_gap, static_cast<double>(std::abs(top - e.worst_cm[f])),
                          std::abs(sum / static_cast<double>(bones) - e.mean_cm[f])});
  }
  expect(worst_gap < 1e-3, "per-frame worst and mean are the max and mean of the per-joint distances");
  expect(e.worst_cm.front() < 1e-6 && e.worst_cm.back() > 1.0, "no error before the change, some after");
  expect(!state.motions[1].error.valid, "another subject's skeleton has no error: " + state.motions[1].error.note);

  // Jitter: mocap eval's figures, and a curve that is the worst joint's per frame.
  const auto& v = e.velocity;
  expect(std::abs(v.p99_cm_s - jitter->velocity.p99_cm_s) < 1e-9 &&
             std::abs(v.max_cm_s - jitter->velocity.max_cm_s) < 1e-9 &&
             std::abs(v.mean_cm_s - jitter->velocity.mean_cm_s) < 1e-9 &&
             v.worst_joint == jitter->velocity.worst_joint && v.worst_frame == jitter->velocity.worst_frame,
         "velocity error as mocap eval's (p99 " + std::to_string(jitter->velocity.p99_cm_s) + " cm/s)");
  expect(e.planted.feet && e.planted.frames == jitter->planted.frames &&
             std::abs(e.planted.difference_cm_s - jitter->planted.difference_cm_s) < 1e-9,
         "planted feet as mocap eval's (" + std::to_string(jitter->planted.difference_cm_s) + " cm/s)");
  const int mid = main_clip->frame_count() / 2;
  const auto top = std::max_element(e.velocity_cm_s.begin(), e.velocity_cm_s.end());
  expect(static_cast<int>(e.velocity_cm_s.size()) == main_clip->frame_count() && top != e.velocity_cm_s.end() &&
             std::abs(*top - v.max_cm_s) < 1e-3 * v.max_cm_s && top - e.velocity_cm_s.begin() == v.worst_frame,
         "one velocity value per frame, its max the worst joint's max");
  expect(e.velocity_cm_s[static_cast<std::size_t>(mid - 3)] < 1e-3f &&
             e.velocity_cm_s[static_cast<std::size_t>(mid)] > 10.0f,
         "no velocity error before the step, some at it");

  // Foot contacts of the main clip (09_06 runs: two on each foot), as the library finds them.
  set_main(state, *main_clip);
  const auto contacts = mocap::clip_foot_contacts(main_clip->capture.skeleton, main_clip->capture.motion, "");
  bool same_frames = contacts.has_value() && state.contacts.feet;
  for (std::size_t foot = 0; same_frames && foot < 2; ++foot) {
    const auto& on = foot == 0 ? state.contacts.left : state.contacts.right;
    std::size_t frames_on = 0, expected = 0;
    for (const auto& c : contacts->contacts[foot].contacts) {
      expected += static_cast<std::size_t>(c.last - c.first + 1);
      same_frames = same_frames && on[static_cast<std::size_t>(c.first)] && on[static_cast<std::size_t>(c.last)];
    }
    for (const unsigned char x : on) frames_on += x;
    same_frames = same_frames && frames_on == expected && expected > 10;
  }
  expect(same_frames, "the contact bars are clip_foot_contacts' frames, each foot");
  expect(!contact_bars(state.motions[1].clip).left.empty(), "16_05 has feet too");

  // Joint colours: green where a joint is on the original, red past Red at.
  std::vector<mocap::viewer::colors::Rgb> colours;
  pose_frame(*main_clip, main_clip->frame_count() - 1);
  pose_motions(state, *main_clip);
  const auto last = error_colors(state, 0, colours);
  expect(last.size() == bones, "one colour per joint");
  pose_frame(*main_clip, 0);
  pose_motions(state, *main_clip);
  const auto first = error_colors(state, 0, colours);
  expect(!first.empty() && first[0] == error_scale(0.0f), "a joint without error is the scale's 0");

  // Side by side: the motions stand apart across the run; overlaid, on the main clip's start.
  expect((state.motions[0].placed[0] - main_clip->positions[0]).norm() > 1.0, "side by side, the motions stand apart");
  state.side_by_side = false;
  lay_out(state, *main_clip);
  pose_motions(state, *main_clip);
  expect((state.motions[0].placed[0] - main_clip->positions[0]).norm() < 1e-9, "overlaid, the same clip lies on it");

  // Frames: by number at one rate, by time at two.
  PosedCapture half = state.motions[0].clip;
  expect(matching_frame(*main_clip, 60, half) == 60, "the same rate pairs frame numbers");
  half.capture.motion.fps = 60.0;
  expect(matching_frame(*main_clip, 60, half) == 30, "at half the rate, half the frames (by time)");
  std::printf(failures ? "FAILED\n" : "OK\n");
  return failures ? 1 : 0;
}
