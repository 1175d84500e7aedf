#include <mocap/io/amc.h>
#include <mocap/io/asf.h>
#include <mocap/io/clip.h>

namespace mocap {

Result<ClipFile> read_clip(const std::string& asf_path, const std::string& amc_path, double fps) {
  Result<Skeleton> skeleton = read_asf(asf_path);
  if (!skeleton) return std::unexpected(skeleton.error());
  Result<Motion> motion = read_amc(amc_path, *skeleton, fps);
  if (!motion) return std::unexpected(motion.error());
  ClipFile clip{asf_path, amc_path, std::move(*skeleton), std::move(*motion), {}};
  clip.bone_names.reserve(clip.skeleton.bones.size());
  for (const Bone& bone : clip.skeleton.bones) clip.bone_names.push_back(bone.name);
  return clip;
}

}  // namespace mocap
