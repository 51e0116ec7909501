// Runs a command line through the shell and captures its exit status, stdout and stderr.
#pragma once

#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace redist::test {

struct CommandResult {
  int status;
  std::string out;
  std::string err;
};

inline std::string slurp(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

inline CommandResult run_command(const std::string& command) {
  namespace fs = std::filesystem;
  static int counter = 0;
  const fs::path dir = fs::temp_directory_path() / ("redist-test-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const fs::path out = dir / ("out" + std::to_string(counter));
  const fs::path err = dir / ("err" + std::to_string(counter++));
  const std::string full = command + " </dev/null >" + out.string() + " 2>" + err.string();
  const int raw = std::system(full.c_str());
  CommandResult result{WIFEXITED(raw) ? WEXITSTATUS(raw) : 128 + WTERMSIG(raw), slurp(out), slurp(err)};
  fs::remove(out);
  fs::remove(err);
  return result;
}

}  // namespace redist::test
