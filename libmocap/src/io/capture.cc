#include <mocap/io/amc.h>
#include <mocap/io/asf.h>
#include <mocap/io/bvh.h>
#include <mocap/io/capture.h>

namespace mocap {

Result<Capture> read_capture(const std::string& asf_path, const std::string& amc_path, double fps) {
  if (amc_path.empty() && is_bvh_path(asf_path)) return read_bvh_capture(asf_path);
  Result<Skeleton> skeleton = read_asf(asf_path);
  if (!skeleton) return std::unexpected(skeleton.error());
  Result<AmcFile> amc = read_amc_file(amc_path, *skeleton, fps);
  if (!amc) return std::unexpected(amc.error());
  Capture capture{asf_path, amc_path, std::move(*skeleton), std::move(amc->motion), std::move(amc->layout), {}};
  capture.bone_names.reserve(capture.skeleton.bones.size());
  for (const Bone& bone : capture.skeleton.bones) capture.bone_names.push_back(bone.name);
  return capture;
}

Result<Capture> read_bvh_capture(const std::string& bvh_path, double metres_per_unit) {
  Result<BvhFile> bvh = read_bvh(bvh_path, metres_per_unit);
  if (!bvh) return std::unexpected(bvh.error());
  Capture capture{bvh_path, bvh_path, std::move(bvh->skeleton), std::move(bvh->motion), {}, {}};
  capture.bone_names.reserve(capture.skeleton.bones.size());
  for (const Bone& bone : capture.skeleton.bones) capture.bone_names.push_back(bone.name);
  return capture;
}

Result<std::string> format_capture_motion(const Skeleton& skeleton, const Motion& motion, bool bvh,
                                          double metres_per_unit, const AmcLayout* layout) {
  if (!skeleton.offsets_in_parent_frame && !bvh) {
    return layout ? format_amc(motion, skeleton, *layout) : format_amc(motion, skeleton);
  }
  return format_bvh(skeleton, motion, metres_per_unit);
}

}  // namespace mocap
