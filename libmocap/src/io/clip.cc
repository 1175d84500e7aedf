#include <mocap/io/amc.h>
#include <mocap/io/asf.h>
#include <mocap/io/bvh.h>
#include <mocap/io/clip.h>

namespace mocap {

Result<ClipFile> read_clip(const std::string& asf_path, const std::string& amc_path, double fps) {
  if (amc_path.empty() && is_bvh_path(asf_path)) return read_bvh_clip(asf_path);
  Result<Skeleton> skeleton = read_asf(asf_path);
  if (!skeleton) return std::unexpected(skeleton.error());
  Result<AmcFile> amc = read_amc_file(amc_path, *skeleton, fps);
  if (!amc) return std::unexpected(amc.error());
  ClipFile clip{asf_path, amc_path, std::move(*skeleton), std::move(amc->motion), std::move(amc->layout), {}};
  clip.bone_names.reserve(clip.skeleton.bones.size());
  for (const Bone& bone : clip.skeleton.bones) clip.bone_names.push_back(bone.name);
  return clip;
}

Result<ClipFile> read_bvh_clip(const std::string& bvh_path, double metres_per_unit) {
  Result<BvhFile> bvh = read_bvh(bvh_path, metres_per_unit);
  if (!bvh) return std::unexpected(bvh.error());
  ClipFile clip{bvh_path, bvh_path, std::move(bvh->skeleton), std::move(bvh->motion), {}, {}};
  clip.bone_names.reserve(clip.skeleton.bones.size());
  for (const Bone& bone : clip.skeleton.bones) clip.bone_names.push_back(bone.name);
  return clip;
}

Result<std::string> format_clip_motion(const Skeleton& skeleton, const Motion& motion, bool bvh, double metres_per_unit,
                                       const AmcLayout* layout) {
  if (!skeleton.offsets_in_parent_frame && !bvh) {
    return layout ? format_amc(motion, skeleton, *layout) : format_amc(motion, skeleton);
  }
  return format_bvh(skeleton, motion, metres_per_unit);
}

}  // namespace mocap
