// Running a job in a forked child process: SimGrid allows one engine per process and may abort on
// bad input, so each simulation runs where neither can hurt the caller.
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace redist::sim {

/// Runs `job` in a child process and returns its strings. An exception in the child becomes a
/// std::runtime_error with the same message; a child that dies (abort, signal, exit) becomes one
/// saying "<label> crashed (...)" and what the child wrote to stderr. Messages are made one line.
/// The child writes no core file; its stderr reaches ours only when it succeeds.
std::vector<std::string> run_isolated(const std::function<std::vector<std::string>()>& job, const std::string& label);

}  // namespace redist::sim
