// The sampler's kernels compiled for AVX2 + FMA (clip_sampler_kernels.h):
// the whole fragment under one target pragma, so the default build stays
// portable x86-64 and the CPU is asked at run time, as the skin tier does.
// Elsewhere cpu_has_avx2() is false and the portable kernels stand in.
#include "compress/runtime/clip_sampler.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define MOCAP_CLIP_AVX2 1
#endif

namespace mocap::clip_sampler {

#if MOCAP_CLIP_AVX2
#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx2,fma"))), apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("avx2,fma")
#endif
namespace avx2 {
#include "compress/runtime/clip_sampler_kernels.h"
}  // namespace avx2
#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif

const Kernels& avx2_kernels() {
  static constexpr Kernels kernels{avx2::curves, avx2::sin_cos, avx2::compose};
  return kernels;
}

bool cpu_has_avx2() {
  static const bool has = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  return has;
}
#else
const Kernels& avx2_kernels() {
  return portable_kernels();
}
bool cpu_has_avx2() {
  return false;
}
#endif

}  // namespace mocap::clip_sampler
