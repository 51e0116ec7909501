// Runs a command line through the shell and captures its exit status, stdout and stderr.
#pragma once

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "temp_dir.hpp"

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
  static const TempDir dir("redist-test");  // one per process, removed at its exit
  const fs::path out = dir / ("out" + std::to_string(counter));
  const fs::path err = dir / ("err" + std::to_string(counter++));
  const std::string full = command + " </dev/null >" + out.string() + " 2>" + err.string();
  const int raw = std::system(full.c_str());
  CommandResult result{WIFEXITED(raw) ? WEXITSTATUS(raw) : 128 + WTERMSIG(raw), slurp(out), slurp(err)};
  fs::remove(out);
  fs::remove(err);
  return result;
}

/// The contract for bad input: a non-zero exit, nothing on stdout, one "redist: error: ..." line.
inline void expect_one_error_line(const CommandResult& result) {
  EXPECT_NE(result.status, 0);
  EXPECT_TRUE(result.out.empty()) << result.out;
  EXPECT_EQ(std::count(result.err.begin(), result.err.end(), '\n'), 1) << result.err;
  EXPECT_EQ(result.err.rfind("redist: error: ", 0), 0u) << result.err;
}

}  // namespace redist::test
