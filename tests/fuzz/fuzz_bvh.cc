// libFuzzer target: BVH text. Any bytes give a skeleton and motion or an
// error, never a crash; a clip that parses must survive write + read: the
// same channel count and frames, world positions within 1e-6 of the file's
// unit per unit of the clip's size, and the text written again identical.
// It must also survive BVH -> ASF + AMC (io/bvh_to_asf.h) -> our ASF and AMC
// readers: every joint where the BVH puts it.
#include <mocap/core/fk.h>
#include <mocap/io/amc.h>
#include <mocap/io/asf.h>
#include <mocap/io/bvh.h>
#include <mocap/io/bvh_to_asf.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const auto file = mocap::parse_bvh(text, "fuzz.bvh", 1.0);
  if (!file) {
    if (file.error().message.empty()) std::abort();
    return 0;
  }
  const auto written = mocap::format_bvh(file->skeleton, file->motion, 1.0);
  // Only names BVH cannot hold (none that parsed) or absurd magnitudes fail.
  if (!written) return 0;
  const auto back = mocap::parse_bvh(*written, "again.bvh", 1.0);
  if (!back || back->motion.channel_count != file->motion.channel_count ||
      back->motion.frame_count() != file->motion.frame_count() ||
      back->skeleton.bones.size() != file->skeleton.bones.size())
    std::abort();
  const auto again = mocap::format_bvh(back->skeleton, back->motion, 1.0);
  if (!again || *again != *written) std::abort();
  // Positions: values are rounded to 1e-6 (units, degrees) when written, so
  // compare only clips of moderate size where that bound is meaningful.
  const auto p = mocap::world_positions(file->skeleton, file->motion);
  const auto q = mocap::world_positions(back->skeleton, back->motion);
  double extent = 1.0;
  for (const auto& v : p) extent = std::max(extent, v.cwiseAbs().maxCoeff());
  for (const double v : file->motion.values) extent = std::max(extent, std::abs(v));
  if (extent > 1e6) return 0;
  const double tolerance = 1e-4 * extent * static_cast<double>(file->skeleton.bones.size());
  for (std::size_t i = 0; i < p.size(); ++i) {
    if (!((p[i] - q[i]).norm() <= tolerance)) std::abort();
  }

  // As ASF + AMC text, read back by the Acclaim readers. The conversion may
  // refuse (a name the ASF cannot hold); what it writes must read back.
  const auto acclaim = mocap::bvh_to_asf(file->skeleton, file->motion);
  if (!acclaim) return 0;
  const auto skeleton = mocap::parse_asf(mocap::format_asf(acclaim->asf), "fuzz.asf");
  if (!skeleton) std::abort();
  const auto motion =
      mocap::parse_amc(mocap::format_amc(acclaim->motion, *skeleton), "fuzz.amc", *skeleton, file->motion.fps);
  if (!motion || motion->frame_count() != file->motion.frame_count()) std::abort();
  const auto r = mocap::world_positions(*skeleton, *motion);
  const std::size_t joints = file->skeleton.bones.size(), bones = skeleton->bones.size();
  for (int f = 0; f < file->motion.frame_count(); ++f) {
    for (std::size_t b = 0; b < joints; ++b) {
      const auto& bvh = p[static_cast<std::size_t>(f) * joints + b];
      const auto& asf = r[static_cast<std::size_t>(f) * bones + static_cast<std::size_t>(acclaim->bone_at[b])];
      if (!((bvh - asf).norm() <= tolerance)) std::abort();
    }
  }
  return 0;
}
