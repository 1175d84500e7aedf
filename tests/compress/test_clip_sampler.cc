// The prepared sampler (clip_decoder.h: make_sampler, sample_clip on a
// ClipSampler) on real clips, per-track and whole-pose (slerp and cubic
// rebuilds): against the reference (sample_channel in double + core/fk.h
// pose_from_channels; for whole-pose clips the rebuild at that time), the
// scalar sample_clip, and its own portable kernels against the AVX2 ones, on
// every frame and at random times; cursors, threads, clamping, short
// outputs.
#include <gtest/gtest.h>
#include <mocap/compress/clip_decoder.h>
#include <mocap/compress/clip_encoder.h>
#include <mocap/compress/compressed_clip.h>
#include <mocap/core/fk.h>

#include <cmath>
#include <cstdio>
#include <limits>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "test_data.h"

namespace mocap {
namespace {

// Keys every `every` frames and the last: a whole-pose clip's options.
ClipEncodeOptions whole_pose(int frames, int every, Interpolation interpolation) {
  ClipEncodeOptions o;
  for (int f = 0; f < frames - 1; f += every) o.pose_keys.push_back(f);
  o.pose_keys.push_back(frames - 1);
  o.interpolation = interpolation;
  return o;
}

// The frame times a comparison visits: every frame, then random ones.
std::vector<double> frame_times(int frames, unsigned seed) {
  std::vector<double> t;
  for (int f = 0; f < frames; ++f) t.push_back(f);
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> any(0.0, frames - 1);
  for (int i = 0; i < 400; ++i) t.push_back(any(rng));
  return t;
}

struct Gap {
  double value = 0;
  int bone = 0;
  double frame = 0;
};
void keep_worst(Gap& g, double value, int bone, double frame) {
  if (value > g.value) g = {value, bone, frame};
}

// Every comparison on one clip; `what` names it in messages.
void expect_sampler_matches(const CompressedClip& clip, const Skeleton& skeleton, const std::string& what) {
  const std::size_t bones = skeleton.bones.size();
  const ClipSampler fast = make_sampler(clip);
  const ClipSampler portable = make_sampler(clip, ClipKernel::kPortable);
  const bool avx2 = clip_kernel_available(ClipKernel::kAvx2);
  const ClipSampler vector = make_sampler(clip, ClipKernel::kAvx2);
  EXPECT_EQ(sampler_kernel(portable), ClipKernel::kPortable);
  EXPECT_EQ(sampler_kernel(vector), avx2 ? ClipKernel::kAvx2 : ClipKernel::kPortable);
  EXPECT_EQ(sampler_kernel(fast), sampler_kernel(vector));

  std::vector<Eigen::Quaternionf> qf(bones), qp(bones), qv(bones), qs(bones);
  Eigen::Vector3f rf, rp, rv, rs;
  ClipCursor cf = make_cursor(clip), cp = make_cursor(clip), cv = make_cursor(clip), cs = make_cursor(clip);
  std::vector<double> channels(static_cast<std::size_t>(skeleton.channel_count));
  Pose pose = make_pose(skeleton);
  Gap reference, scalar, kernels;
  double reference_translation = 0, kernels_translation = 0;
  for (const double t : frame_times(clip.frame_count, 11)) {
    for (int c = 0; c < skeleton.channel_count; ++c) channels[c] = sample_channel(clip, c, t);
    pose_from_channels(skeleton, channels, pose);
    const double seconds = t / clip.fps;
    sample_clip(fast, seconds, cf, qf, rf);
    sample_clip(portable, seconds, cp, qp, rp);
    sample_clip(vector, seconds, cv, qv, rv);
    sample_clip(clip, seconds, cs, qs, rs);
    for (std::size_t b = 0; b < bones; ++b) {
      const int bone = static_cast<int>(b);
      keep_worst(reference, test::quaternion_gap(qf[b].cast<double>(), pose.rotation[b]), bone, t);
      keep_worst(scalar, test::quaternion_gap(qf[b].cast<double>(), qs[b].cast<double>()), bone, t);
      keep_worst(kernels, test::quaternion_gap(qp[b].cast<double>(), qv[b].cast<double>()), bone, t);
    }
    reference_translation = std::max(reference_translation, (rf.cast<double>() - pose.offset[0]).norm());
    kernels_translation = std::max(kernels_translation, static_cast<double>((rp - rv).norm()));
  }
  const auto at = [&](const Gap& g) {
    return what + ": worst " + skeleton.bones[static_cast<std::size_t>(g.bone)].name + " at frame time " +
           std::to_string(g.frame) + " (" + std::to_string(g.value) + " rad)";
  };
  // Float sampling against double, as the scalar sampler is held to.
  EXPECT_LT(reference.value, 2e-5) << at(reference);
  EXPECT_LT(reference_translation, 1e-4) << what;  // metres
  // Against the scalar float sampler: only rounding apart.
  EXPECT_LT(scalar.value, 1e-5) << at(scalar);
  // Portable against AVX2 kernels: the same code, FMA rounding apart.
  EXPECT_LT(kernels.value, 1e-5) << at(kernels);
  EXPECT_LT(kernels_translation, 1e-5) << what;
  std::printf("%-26s %s: worst gap %.2e rad to the reference, %.2e to the scalar sampler, %.2e portable/avx2%s\n",
              what.c_str(), clip_kernel_name(sampler_kernel(fast)), reference.value, scalar.value, kernels.value,
              avx2 ? "" : " (no AVX2 on this CPU: portable against itself)");
}

// The clip, or its first `max_frames` frames: the sampler's code paths do not
// depend on a clip's length, and the encoder's search costs most of the time.
void expect_on_clip(const test::ClipFiles& files, int max_frames = std::numeric_limits<int>::max()) {
  Skeleton skeleton;
  Motion loaded;
  if (!test::load(files, skeleton, loaded)) return;
  const Motion motion = test::first_frames(loaded, max_frames);
  auto per_track = encode_clip(skeleton, motion, {});
  ASSERT_TRUE(per_track.has_value()) << files.name << ": " << per_track.error().to_string();
  expect_sampler_matches(*per_track, skeleton, files.name + " per-track");
  for (const Interpolation interpolation : {Interpolation::kCubic, Interpolation::kSlerp}) {
    auto keyed = encode_clip(skeleton, motion, whole_pose(motion.frame_count(), 12, interpolation));
    ASSERT_TRUE(keyed.has_value()) << files.name << ": " << keyed.error().to_string();
    expect_sampler_matches(*keyed, skeleton,
                           files.name + " whole-pose " + std::string(interpolation_name(interpolation)));
  }
}

TEST(ClipSampler, MatchesReferenceOnBundledClips) {
  const auto clips = test::bundled_clips();
  ASSERT_FALSE(clips.empty());
  for (const auto& files : clips) expect_on_clip(files);
}

TEST(ClipSampler, MatchesReferenceOnSharedClips) {
  MOCAP_REQUIRE_SHARED_DATA();
  // 5 s of each: every skeleton and kind of motion of the set.
  for (const auto& files : test::shared_clips()) expect_on_clip(files, 600);
}

// A clip read back from its file samples as the clip the encoder returned.
TEST(ClipSampler, ParsedClipSamplesAsEncoded) {
  const auto l = test::load_bundled("16_05");
  auto clip = encode_clip(l.skeleton, l.motion, {});
  ASSERT_TRUE(clip.has_value());
  auto parsed = parse_compressed_clip(format_compressed_clip(*clip), "16_05.mkc");
  ASSERT_TRUE(parsed.has_value()) << parsed.error().to_string();
  expect_sampler_matches(*parsed, l.skeleton, "16_05 parsed");
}

TEST(ClipSampler, CursorInAnyOrderGivesAFreshCursorsPose) {
  const auto l = test::load_bundled("16_05");
  for (const bool keyed : {false, true}) {
    auto clip = encode_clip(l.skeleton, l.motion,
                            keyed ? whole_pose(l.motion.frame_count(), 9, Interpolation::kCubic) : ClipEncodeOptions{});
    ASSERT_TRUE(clip.has_value());
    const ClipSampler sampler = make_sampler(*clip);
    const std::size_t bones = clip->bones.size();
    std::vector<Eigen::Quaternionf> a(bones), b(bones);
    Eigen::Vector3f ra, rb;
    ClipCursor kept = make_cursor(*clip);
    std::vector<double> times;
    const double end = clip->duration_seconds();
    for (double t = 0; t < end; t += 1.0 / 120) times.push_back(t);                                     // forward
    for (double t = end; t > 0; t -= 1.0 / 97) times.push_back(t);                                      // backward
    for (int i = 0; i < 500; ++i) times.push_back(std::fmod(i * 0.6180339887 * end, end + 0.3) - 0.1);  // jumps
    for (int k = 0; k < clip->frame_count; k += 9) times.push_back(k / clip->fps);                      // on the keys
    for (const double t : times) {
      sample_clip(sampler, t, kept, a, ra);
      ClipCursor fresh = make_cursor(*clip);
      sample_clip(sampler, t, fresh, b, rb);
      for (std::size_t j = 0; j < bones; ++j) ASSERT_EQ(a[j].coeffs(), b[j].coeffs()) << "t " << t << " bone " << j;
      ASSERT_EQ(ra, rb) << "t " << t;
    }
  }
}

// Many threads, one sampler, a cursor each: the single thread's poses.
TEST(ClipSampler, ManyThreadsReadOneSampler) {
  const auto l = test::load_bundled("09_06");
  auto clip = encode_clip(l.skeleton, l.motion, whole_pose(l.motion.frame_count(), 10, Interpolation::kCubic));
  ASSERT_TRUE(clip.has_value());
  const ClipSampler sampler = make_sampler(*clip);
  const std::size_t bones = clip->bones.size();
  const int frames = clip->frame_count;
  const auto play = [&](int start, std::vector<Eigen::Quaternionf>& out) {
    ClipCursor cursor = make_cursor(*clip);
    Eigen::Vector3f root;
    out.assign(static_cast<std::size_t>(frames) * bones, Eigen::Quaternionf::Identity());
    for (int i = 0; i < frames; ++i) {
      const int f = (start + i) % frames;  // each thread from elsewhere
      sample_clip(sampler, f / clip->fps, cursor, std::span(out).subspan(static_cast<std::size_t>(f) * bones, bones),
                  root);
    }
  };
  std::vector<Eigen::Quaternionf> alone;
  play(0, alone);
  std::vector<std::vector<Eigen::Quaternionf>> results(4);
  std::vector<std::thread> threads;
  for (int i = 0; i < 4; ++i) threads.emplace_back([&, i] { play(i * frames / 4, results[i]); });
  for (auto& t : threads) t.join();
  for (const auto& r : results)
    for (std::size_t i = 0; i < alone.size(); ++i) ASSERT_EQ(r[i].coeffs(), alone[i].coeffs()) << i;
}

// Times clamp to the clip (NaN to its start); the sampler outlives its clip;
// a short output span gets only what fits.
TEST(ClipSampler, ClampsOutlivesItsClipAndFillsShortSpans) {
  const auto l = test::load_bundled("09_06");
  auto encoded = encode_clip(l.skeleton, l.motion, {});
  ASSERT_TRUE(encoded.has_value());
  std::optional<CompressedClip> clip = std::move(*encoded);
  const std::size_t bones = clip->bones.size();
  const double end = (clip->frame_count - 1) / clip->fps;
  std::vector<Eigen::Quaternionf> first(bones), last(bones), q(bones);
  Eigen::Vector3f root_first, root_last, root;
  ClipCursor cursor = make_cursor(*clip);
  sample_clip(*clip, 0.0, cursor, first, root_first);
  sample_clip(*clip, end, cursor, last, root_last);
  ClipSampler sampler = make_sampler(*clip);
  clip.reset();  // the sampler keeps what it needs
  cursor = make_cursor(sampler);
  const auto near = [&](const std::vector<Eigen::Quaternionf>& want, const Eigen::Vector3f& want_root, double t) {
    sample_clip(sampler, t, cursor, q, root);
    for (std::size_t b = 0; b < bones; ++b)
      EXPECT_LT(test::quaternion_gap(q[b].cast<double>(), want[b].cast<double>()), 4e-6) << "t " << t << " bone " << b;
    EXPECT_LT((root - want_root).norm(), 1e-5) << "t " << t;
  };
  near(first, root_first, -3.0);
  near(first, root_first, std::numeric_limits<double>::quiet_NaN());
  near(last, root_last, 1e12);
  near(last, root_last, std::numeric_limits<double>::infinity());

  const Eigen::Quaternionf sentinel(0.5f, 0.5f, 0.5f, 0.5f);
  std::vector<Eigen::Quaternionf> shorter(bones, sentinel);
  const std::size_t fits = bones / 2;
  sample_clip(sampler, end / 2, cursor, std::span(shorter).first(fits), root);
  sample_clip(sampler, end / 2, cursor, q, root);
  for (std::size_t b = 0; b < fits; ++b) EXPECT_EQ(shorter[b].coeffs(), q[b].coeffs()) << b;
  for (std::size_t b = fits; b < bones; ++b) EXPECT_EQ(shorter[b].coeffs(), sentinel.coeffs()) << b;
}

TEST(ClipSampler, KernelNames) {
  EXPECT_TRUE(clip_kernel_available(ClipKernel::kAuto));
  EXPECT_TRUE(clip_kernel_available(ClipKernel::kPortable));
  EXPECT_STREQ(clip_kernel_name(ClipKernel::kPortable), "portable");
  EXPECT_STREQ(clip_kernel_name(ClipKernel::kAvx2), "avx2");
  EXPECT_STREQ(clip_kernel_name(ClipKernel::kAuto), "auto");
}

}  // namespace
}  // namespace mocap
