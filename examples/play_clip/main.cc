// play_clip <clip.mkc>: plays a compressed clip as a game would, with the
// runtime alone (compress/clip_decoder.h): one sampler made once, every
// frame in order through one cursor; each pose checked against the
// reference sampler (the clip's arrays read track by track). Prints
// "<frames> frames, <bones> bones at <fps> fps: ..." and exits 0 when the
// two agree within 1e-4 (quaternion components, root translation in metres).
#include <mocap/compress/clip_decoder.h>
#include <mocap/compress/compressed_clip.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: play_clip <clip.mkc>\n");
    return 1;
  }
  const auto clip = mocap::read_compressed_clip(argv[1]);
  if (!clip) {
    std::fprintf(stderr, "play_clip: %s\n", clip.error().to_string().c_str());
    return 2;
  }
  const mocap::ClipSampler sampler = mocap::make_sampler(*clip);
  mocap::ClipCursor cursor = mocap::make_cursor(sampler), reference_cursor = mocap::make_cursor(*clip);
  const std::size_t bones = clip->bones.size();
  std::vector<Eigen::Quaternionf> pose(bones), reference(bones);
  Eigen::Vector3f root = Eigen::Vector3f::Zero(), reference_root = Eigen::Vector3f::Zero();
  float worst = 0.0f;
  for (int f = 0; f < clip->frame_count; ++f) {
    const double seconds = f / clip->fps;
    mocap::sample_clip(sampler, seconds, cursor, pose, root);
    mocap::sample_clip(*clip, seconds, reference_cursor, reference, reference_root);
    for (std::size_t b = 0; b < bones; ++b) {
      // q and -q are one rotation.
      const float same = (pose[b].coeffs() - reference[b].coeffs()).cwiseAbs().maxCoeff();
      const float flipped = (pose[b].coeffs() + reference[b].coeffs()).cwiseAbs().maxCoeff();
      worst = std::max(worst, std::min(same, flipped));
    }
    worst = std::max(worst, (root - reference_root).cwiseAbs().maxCoeff());
  }
  std::printf("%d frames, %zu bones at %g fps: %s kernels, largest difference to the reference %.2g\n",
              clip->frame_count, bones, clip->fps, mocap::clip_kernel_name(mocap::sampler_kernel(sampler)), worst);
  return worst <= 1e-4f ? 0 : 3;
}
