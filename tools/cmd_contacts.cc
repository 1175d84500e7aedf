// mocap contacts <asf> <amc> | <bvh>: each foot's contact intervals (the
// file's frame numbers) and the floor height (core/foot_contacts.h).
#include <mocap/core/foot_contacts.h>

#include <nlohmann/json.hpp>

#include <cstdio>
#include <iostream>

#include "cli_util.h"

namespace mocap::cli {
namespace {

struct ContactsOptions {
  std::string asf;
  std::string amc;
  bool json = false;
  double fps = 120.0;
  std::string bvh_units = "cm";
};

std::string fixed(double v, int digits) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

int run_contacts(const ContactsOptions& options) {
  auto clip = load_capture("contacts", options.asf, options.amc, options.fps, options.bvh_units);
  if (!clip) return clip.error();
  const Skeleton& skeleton = clip->skeleton;
  const Motion& motion = clip->motion;
  const auto found = clip_foot_contacts(skeleton, motion, options.asf);
  if (!found) {
    std::cerr << "mocap: " << found.error().file << ": " << found.error().message << "\n";
    return kBadInput;
  }
  auto number = [&](int f) { return motion.frame_numbers[static_cast<std::size_t>(f)]; };
  std::string out;
  if (options.json) {
    nlohmann::ordered_json feet = nlohmann::ordered_json::array();
    for (std::size_t s = 0; s < 2; ++s) {
      const Foot& foot = found->feet[s];
      nlohmann::ordered_json intervals = nlohmann::ordered_json::array();
      int frames = 0;
      for (const FootContact& c : found->contacts[s].contacts) {
        intervals.push_back({{"first", number(c.first)}, {"last", number(c.last)}});
        frames += c.last - c.first + 1;
      }
      feet.push_back({{"foot", foot.name},
                      {"heel", skeleton.bones[static_cast<std::size_t>(foot.heel)].name},
                      {"ball", skeleton.bones[static_cast<std::size_t>(foot.ball)].name},
                      {"toe", skeleton.bones[static_cast<std::size_t>(foot.toe)].name},
                      {"floor_cm", found->contacts[s].floor_m * 100.0},
                      {"contact_frames", frames},
                      {"contacts", std::move(intervals)}});
    }
    nlohmann::ordered_json j = {{"fps", motion.fps},
                                {"frames", motion.frame_count()},
                                {"floor_cm", found->floor_m * 100.0},
                                {"feet", std::move(feet)}};
    out = j.dump() + "\n";
  } else {
    out = "floor " + fixed(found->floor_m * 100.0, 2) + " cm (" + std::to_string(motion.frame_count()) + " frames at " +
          fixed(motion.fps, 0) + " Hz)\n";
    for (std::size_t s = 0; s < 2; ++s) {
      const Foot& foot = found->feet[s];
      const auto& contacts = found->contacts[s].contacts;
      out += foot.name + " foot (" + skeleton.bones[static_cast<std::size_t>(foot.heel)].name + ", " +
             skeleton.bones[static_cast<std::size_t>(foot.ball)].name + ", " +
             skeleton.bones[static_cast<std::size_t>(foot.toe)].name + "): " + std::to_string(contacts.size()) +
             " contacts, floor " + fixed(found->contacts[s].floor_m * 100.0, 2) + " cm\n";
      for (const FootContact& c : contacts) {
        out += "  " + std::to_string(number(c.first)) + "-" + std::to_string(number(c.last)) + " (" +
               std::to_string(c.last - c.first + 1) + " frames)\n";
      }
    }
  }
  return emit("", out);
}

}  // namespace

void add_contacts_command(CLI::App& app, int& exit_code) {
  auto options = std::make_shared<ContactsOptions>();
  CLI::App* command =
      app.add_subcommand("contacts", "Each foot's contact intervals (frame numbers) and the floor height");
  command->add_option("asf", options->asf, "ASF skeleton, or a BVH clip (.bvh) alone")->required();
  command->add_option("amc", options->amc, "AMC motion");
  command->add_flag("--json", options->json, "JSON instead of text");
  add_fps_option(*command, options->fps);
  add_bvh_units_option(*command, options->bvh_units);
  command->callback([options, &exit_code] { exit_code = run_contacts(*options); });
}

}  // namespace mocap::cli
