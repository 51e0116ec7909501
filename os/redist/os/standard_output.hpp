// A command's answer on standard output is its result: a full device, a closed pipe or a write
// error there must end the command with an error, not a status of 0 with the output lost.
#pragma once

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <string>

namespace redist::os {

/// Flushes std::cout and stdout; "" when everything written reached the file, else
/// "cannot write standard output: REASON".
inline std::string standard_output_problem() {
  errno = 0;
  std::cout.flush();
  const bool failed = !std::cout || std::fflush(stdout) != 0 || std::ferror(stdout) != 0;
  if (!failed) return {};
  const int error = errno;
  return std::string("cannot write standard output: ") + (error != 0 ? std::strerror(error) : "write error");
}

}  // namespace redist::os
