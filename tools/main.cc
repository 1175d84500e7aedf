// mocap: the command-line front end. Each verb lives in its own cmd_*.cc;
// this file only assembles them and maps failures to exit codes.
#include "cli_util.h"

#include <iostream>

int main(int argc, char** argv) {
  using namespace mocap::cli;
  CLI::App app{"mocap: read, measure and compress Acclaim ASF/AMC motion capture"};
  app.set_version_flag("--version", std::string("mocap ") + MOCAP_VERSION);
  app.require_subcommand(1);
  int exit_code = kOk;
  add_info_command(app, exit_code);
  add_fk_command(app, exit_code);
  add_skin_command(app, exit_code);
  add_eyes_command(app, exit_code);
  add_compress_commands(app, exit_code);
  add_report_command(app, exit_code);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return kUsage;
  }
  return exit_code;
}
