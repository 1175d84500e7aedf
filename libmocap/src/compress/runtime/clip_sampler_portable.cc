// The sampler's kernels for the baseline CPU (clip_sampler_kernels.h).
#include "compress/runtime/clip_sampler.h"

namespace mocap::clip_sampler {
namespace portable {
#include "compress/runtime/clip_sampler_kernels.h"
}  // namespace portable

const Kernels& portable_kernels() {
  static constexpr Kernels kernels{portable::curves, portable::sin_cos, portable::compose};
  return kernels;
}

}  // namespace mocap::clip_sampler
