// gui_app.hpp — the desktop app: a window (GLFW) or --headless (EGL), tiles, the ImGui panel,
// keys, mouse and --script, all changing the scene through one command executor.
#pragma once

namespace ls {

/// Runs the app with the command line (argv[0] is the program name). Returns the exit status:
/// 0 done; 1 a script's expect-agree / expect-hash failed; 2 bad input; 3 device, GL or display
/// failure.
int gui_main(int argc, char** argv);

}  // namespace ls
