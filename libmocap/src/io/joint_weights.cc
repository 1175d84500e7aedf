#include <mocap/io/joint_weights.h>

#include <cmath>

#include "io/text.h"

namespace mocap {

Result<std::vector<double>> parse_joint_weights(std::string_view content, const std::string& name,
                                                const Skeleton& skeleton) {
  text::LineReader in(content, name);
  std::vector<double> weights(skeleton.bones.size(), 0.0);
  std::vector<bool> seen(skeleton.bones.size(), false);
  std::string_view line;
  while (in.next(line)) {
    std::string_view rest = text::trim(line);
    if (rest.empty() || rest.front() == '#') continue;
    const std::string_view bone_name = text::next_word(rest);
    const std::string_view number = text::next_word(rest);
    const int b = skeleton.find_bone(bone_name);
    if (b < 0)
      return fail(name, in.line_number(),
                  "unknown bone " + text::quote(bone_name) + "; expected a bone of the skeleton");
    if (seen[b]) return fail(name, in.line_number(), "bone " + text::quote(bone_name) + " is given twice");
    const auto w = text::parse_number(number);
    if (!w || *w < 0.0 || !text::trim(rest).empty()) {
      return fail(name, in.line_number(), "expected 'bone weight' with a weight >= 0");
    }
    seen[b] = true;
    weights[b] = *w;
  }
  if (in.error()) return std::unexpected(*in.error());
  double total = 0.0;
  for (const double w : weights) total += w;
  if (!(total > 0.0) || !std::isfinite(total)) return fail(name, 0, "every weight is 0; expected at least one above 0");
  for (double& w : weights) w /= total;
  return weights;
}

Result<std::vector<double>> read_joint_weights(const std::string& path, const Skeleton& skeleton) {
  auto in = text::LineReader::open(path);
  if (!in) return std::unexpected(in.error());
  std::string content;
  std::string_view line;
  while (in->next(line)) {
    content += line;
    content += '\n';
  }
  if (in->error()) return std::unexpected(*in->error());
  return parse_joint_weights(content, path, skeleton);
}

}  // namespace mocap
