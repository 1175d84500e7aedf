// fk_positions <asf> <amc>: the world position of every bone on every frame,
// in metres, as `mocap fk <asf> <amc> --format csv` prints it:
// frame (the AMC's number),bone,x,y,z with nine decimals.
#include <mocap/core/fk.h>
#include <mocap/io/amc.h>
#include <mocap/io/asf.h>

#include <cstdio>

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: fk_positions <asf> <amc>\n");
    return 1;
  }
  const auto skeleton = mocap::read_asf(argv[1]);
  if (!skeleton) {
    std::fprintf(stderr, "fk_positions: %s\n", skeleton.error().to_string().c_str());
    return 2;
  }
  const auto motion = mocap::read_amc(argv[2], *skeleton);
  if (!motion) {
    std::fprintf(stderr, "fk_positions: %s\n", motion.error().to_string().c_str());
    return 2;
  }
  // frame_count() * bones positions, frame-major; bone 0 is the root.
  const auto positions = mocap::world_positions(*skeleton, *motion);
  const std::size_t bones = skeleton->bones.size();
  std::printf("frame,bone,x,y,z\n");
  for (int f = 0; f < motion->frame_count(); ++f) {
    for (std::size_t b = 0; b < bones; ++b) {
      const Eigen::Vector3d& p = positions[static_cast<std::size_t>(f) * bones + b];
      std::printf("%d,%s,%.9f,%.9f,%.9f\n", motion->frame_numbers[f], skeleton->bones[b].name.c_str(), p.x(), p.y(),
                  p.z());
    }
  }
  return std::fflush(stdout) == 0 ? 0 : 4;
}
