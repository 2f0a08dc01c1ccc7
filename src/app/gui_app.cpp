// gui_app.cpp — the desktop app's entry point: parses its command line (options.hpp), runs the App
// (app.hpp) and turns what ends it into the exit status.
#include "app/gui_app.hpp"

#include <CLI/CLI.hpp>

#include <iostream>

#include "app/app.hpp"
#include "app/options.hpp"
#include "control/numbers.hpp"
#include "control/script_runner.hpp"
#include "core/error.hpp"

namespace ls {

int gui_main(int argc, char** argv) {
  app::Options options;
  app::OptionText text;
  CLI::App cli{"lifestreams: N Game of Life simulations side by side (window, or --headless)", "lifestreams"};
  app::define_options(cli, options, text);
  return exit_status_of("lifestreams", [&] {
    if (!parse_command_line(cli, argc, argv)) {
      std::cout << cli.help();
      return 0;
    }
    app::convert_numbers(text, cli, options);
    try {
      app::App application(options);
      return application.run();
    } catch (const app::ScriptFailure& f) {
      std::cerr << "lifestreams: " << f.what() << "\n";
      return f.status();
    }
  });
}

}  // namespace ls
