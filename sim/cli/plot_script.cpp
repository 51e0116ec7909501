#include "plot_script.hpp"

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

extern char** environ;

namespace redist::cli {
namespace {

// The interpreter: $REDIST_PYTHON, else Debian's python3 (scripts/install-deps.sh gives it
// matplotlib; a python3 earlier on PATH, such as a pyenv shim, may lack it), else python3 on PATH.
std::string python() {
  if (const char* chosen = std::getenv("REDIST_PYTHON"); chosen != nullptr && *chosen != '\0') return chosen;
  if (access("/usr/bin/python3", X_OK) == 0) return "/usr/bin/python3";
  return "python3";
}

// The last non-empty line of a program's output: where Python puts the error that stopped it.
std::string last_line(const std::string& text) {
  std::size_t end = text.find_last_not_of("\n\r ");
  if (end == std::string::npos) return "";
  const std::size_t start = text.rfind('\n', end);
  return text.substr(start == std::string::npos ? 0 : start + 1, end - (start == std::string::npos ? 0 : start + 1) + 1);
}

struct Outcome {
  int status;
  std::string output;  // stdout and stderr, interleaved
};

// Spawns `argv` with stdout and stderr into a pipe; throws when the program cannot be started.
Outcome run(const std::vector<std::string>& argv) {
  int pipe_fds[2];
  if (pipe(pipe_fds) != 0) throw std::runtime_error(std::string("cannot create a pipe: ") + std::strerror(errno));
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addclose(&actions, pipe_fds[0]);
  posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], STDERR_FILENO);
  posix_spawn_file_actions_addclose(&actions, pipe_fds[1]);
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  const int spawned = posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  close(pipe_fds[1]);
  if (spawned != 0) {
    close(pipe_fds[0]);
    throw std::runtime_error(spawned == ENOENT ? argv[0] + " is not installed (scripts/install-deps.sh installs it)"
                                               : "cannot run " + argv[0] + ": " + std::strerror(spawned));
  }
  Outcome outcome{0, {}};
  char buffer[4096];
  for (ssize_t n; (n = read(pipe_fds[0], buffer, sizeof buffer)) != 0;) {
    if (n > 0) outcome.output.append(buffer, static_cast<std::size_t>(n));
    else if (errno != EINTR) break;
  }
  close(pipe_fds[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  outcome.status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return outcome;
}

}  // namespace

void run_plot_script(const std::filesystem::path& script, const std::vector<std::string>& args,
                     const std::filesystem::path& output) {
  if (!std::filesystem::is_regular_file(script)) throw std::runtime_error("plot script " + script.string() + " not found");
  std::vector<std::string> argv{python(), script.string()};
  argv.insert(argv.end(), args.begin(), args.end());
  const Outcome outcome = run(argv);
  if (outcome.status == 0 && std::filesystem::exists(output)) return;
  std::error_code ignored;
  std::filesystem::remove(output, ignored);
  const std::string why = last_line(outcome.output);
  throw std::runtime_error("plotting " + output.string() + " failed: " +
                           (why.empty() ? "python3 exited with status " + std::to_string(outcome.status) : why));
}

}  // namespace redist::cli
