// mocap: the command-line front end. Each verb lives in its own cmd_*.cc;
// this file only assembles them and maps failures to exit codes.
#include "cli_util.h"

#include <iostream>
#include <string>

int main(int argc, char** argv) {
  using namespace mocap::cli;
  // Named "mocap", not argv[0]: usage lines read "mocap <verb>", not the build path.
  CLI::App app{"mocap: motion capture (ASF/AMC, BVH) read, measured, compressed, converted and put on meshes", "mocap"};
  // Before the verbs: each inherits it, and --help shows every default.
  app.option_defaults()->always_capture_default();
  app.set_version_flag("--version", std::string("mocap ") + MOCAP_VERSION);
  app.require_subcommand(1);
  int exit_code = kOk;
  add_info_command(app, exit_code);
  add_fk_command(app, exit_code);
  add_skin_command(app, exit_code);
  add_eyes_command(app, exit_code);
  add_compress_command(app, exit_code);
  add_decompress_command(app, exit_code);
  add_eval_command(app, exit_code);
  add_report_command(app, exit_code);
  add_convert_command(app, exit_code);
  add_retarget_command(app, exit_code);
  add_contacts_command(app, exit_code);
  // CLI11 would say only "A subcommand is required": name the verbs instead.
  std::string verbs;
  bool known = false;
  for (const CLI::App* verb : app.get_subcommands({})) {
    verbs += (verbs.empty() ? "" : ", ") + verb->get_name();
    known = known || (argc >= 2 && verb->check_name(argv[1]));
  }
  if (argc < 2 || (argv[1][0] != '-' && !known)) {
    if (argc < 2) {
      std::cerr << "mocap: expected a verb: " << verbs << " (mocap VERB --help for one)\n";
    } else {
      std::cerr << "mocap: unknown verb '" << argv[1] << "': expected one of " << verbs << "\n";
    }
    return kUsage;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    // CLI11's own errors (unknown flag, missing argument, failed check) in
    // the project's shape: one line, "mocap <verb>: ...", exit 1.
    std::string verb = "mocap";
    for (const CLI::App* command : app.get_subcommands({})) {
      if (command->check_name(argv[1])) verb += " " + command->get_name();
    }
    std::cerr << verb << ": " << e.what() << " (" << verb << " --help for the options)\n";
    return kUsage;
  }
  return exit_code;
}
