// The joint-weights file: how much each bone counts in the pose distance of
// compress/extract.h, one `bone weight` line per bone.
#pragma once

#include <mocap/core/error.h>
#include <mocap/core/skeleton.h>

#include <string>
#include <string_view>
#include <vector>

namespace mocap {

// Weights from text of lines `bone weight` (a finite number >= 0); blank lines
// and lines starting with '#' are skipped. Bones the text does not name get 0;
// the result is normalised to sum 1. Fails, naming the line, on an unknown
// bone, a bone named twice, a malformed or negative weight, or when every
// weight is 0. `name` stands for the file in errors.
Result<std::vector<double>> parse_joint_weights(std::string_view text, const std::string& name,
                                                const Skeleton& skeleton);
// The same from a file.
Result<std::vector<double>> read_joint_weights(const std::string& path, const Skeleton& skeleton);

}  // namespace mocap
