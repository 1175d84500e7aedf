// Finding the clips of a motion database: AMC and BVH files from files and
// folders, each AMC paired with its ASF the CMU way (a BVH is a whole clip),
// sorted by path, and split into shards for runs on many machines.
#pragma once

#include <mocap/core/error.h>

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace mocap {

// An AMC to measure and the ASF it was paired with, or a BVH.
struct ClipInput {
  std::string path;          // the AMC or .bvh, as found (relative when the input was)
  std::string asf;           // the paired ASF; empty when none was found, and for a .bvh
  std::string name;          // the AMC's stem: "09_06"
  std::uintmax_t bytes = 0;  // the AMC's size, for progress estimates
  std::string error;         // why this input cannot run (no ASF, no such file); empty when it can
};

// The ASF for the AMC at `amc`, the CMU way, first match wins:
//   1. NN.asf beside NN_MM.amc (the stem up to its first '_'),
//   2. the same stem (walk.amc -> walk.asf),
//   3. the only .asf in the AMC's folder,
//   4. `fallback_asf` (--asf) when not empty.
// Extensions match in any case. Fails, naming the AMC and what was tried,
// when none applies.
Result<std::string> pair_asf(const std::string& amc, const std::string& fallback_asf = "");

// The clips of `inputs`: a folder gives every .amc and .bvh below it
// (recursively), a file gives itself (an .asf is skipped, being a skeleton).
// Every AMC is paired with pair_asf; a .bvh needs no pairing. Inputs that do
// not exist, files that are neither .amc nor .bvh and AMCs without an ASF
// come back with `error` set, to be reported as failed.
// Sorted by path, each path once.
std::vector<ClipInput> find_clips(std::span<const std::string> inputs, const std::string& fallback_asf = "");

// Every `count`-th clip starting at `index` (0 <= index < count): shards
// 0..count-1 partition the list. Clips outside [0, count) give nothing.
std::vector<ClipInput> shard_clips(std::span<const ClipInput> clips, int index, int count);

// Shard `index` of `count`, as `mocap report --shard k/n` names it.
struct Shard {
  int index = 0;
  int count = 1;
};
// "k/n", two whole numbers with 0 <= k < n. Fails, naming `text`, on
// anything else.
Result<Shard> parse_shard(std::string_view text);

}  // namespace mocap
