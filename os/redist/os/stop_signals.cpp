#include "redist/os/stop_signals.hpp"

#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <stdexcept>
#include <string>

namespace redist::os {
namespace {

// What the handler reads: fixed slots of atomics and plain characters, so that it stays
// async-signal-safe (no allocation, no lock) while the program adds and removes entries.
constexpr std::size_t kChildSlots = 1024;
constexpr std::size_t kTemporarySlots = 64;
constexpr std::size_t kPathBytes = 4096;

struct ChildSlot {
  std::atomic<pid_t> pid{0};  // negative: a process group
};
struct TemporarySlot {
  std::atomic<bool> used{false};
  char path[kPathBytes] = {};
};

std::array<ChildSlot, kChildSlots> children;
std::array<TemporarySlot, kTemporarySlots> temporaries;

constexpr std::array<int, 3> kStopSignals = {SIGINT, SIGTERM, SIGHUP};
struct sigaction original[3];
bool installed = false;

// Whether process group `group` (a negative pid) still has a member, its leader reaped if it ended
// (async-signal-safe: waitpid, kill).
bool group_alive(pid_t group) {
  ::waitpid(-group, nullptr, WNOHANG);
  return ::kill(group, 0) == 0;
}

void end_children_and_temporaries() {
  bool groups = false;
  for (auto& child : children) {
    const pid_t pid = child.pid.load();
    if (pid > 0) ::kill(pid, SIGKILL);
    if (pid < 0) groups = ::kill(pid, SIGTERM) == 0 || groups;  // mpirun's group: mpirun and its ranks end their way
  }
  // ... within 3 s; what is left of a group then (an mpirun that ignores SIGTERM) is killed.
  for (int wait = 0; groups && wait < 60; ++wait) {
    groups = false;
    for (auto& child : children) {
      const pid_t pid = child.pid.load();
      if (pid < 0 && group_alive(pid)) groups = true;
    }
    if (groups) {
      const timespec pause{0, 50'000'000};
      ::nanosleep(&pause, nullptr);
    }
  }
  for (auto& child : children) {
    const pid_t pid = child.pid.load();
    if (pid < 0 && group_alive(pid)) ::kill(pid, SIGKILL);
  }
  // Files first, then the folders remembered (empty by then: their files were remembered too).
  for (auto& temporary : temporaries) {
    if (temporary.used.load()) ::unlink(temporary.path);
  }
  for (auto& temporary : temporaries) {
    if (temporary.used.load()) ::rmdir(temporary.path);
  }
}

void on_stop(int signal) {
  end_children_and_temporaries();
  // End by the same signal, so that the caller sees how we ended (shell status 128 + signal).
  ::signal(signal, SIG_DFL);
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, signal);
  ::sigprocmask(SIG_UNBLOCK, &set, nullptr);
  ::raise(signal);
  ::_exit(128 + signal);
}

void remember_child(pid_t pid) {
  for (auto& child : children) {
    pid_t empty = 0;
    if (child.pid.compare_exchange_strong(empty, pid)) return;
  }
}

void forget_child(pid_t pid) {
  for (auto& child : children) {
    pid_t expected = pid;
    if (child.pid.compare_exchange_strong(expected, 0)) return;
    expected = -pid;
    if (child.pid.compare_exchange_strong(expected, 0)) return;
  }
}

// In a new child: the parent's children and temporaries are not its own to end.
void forget_everything() {
  for (auto& child : children) child.pid.store(0);
  for (auto& temporary : temporaries) temporary.used.store(false);
}

void restore_original_handlers() {
  if (!installed) return;
  for (std::size_t k = 0; k < kStopSignals.size(); ++k) ::sigaction(kStopSignals[k], &original[k], nullptr);
}

}  // namespace

void install_stop_handlers() {
  if (installed) return;
  for (std::size_t k = 0; k < kStopSignals.size(); ++k) {
    ::sigaction(kStopSignals[k], nullptr, &original[k]);
    if (original[k].sa_handler == SIG_IGN) continue;  // nohup and the like: keep ignoring
    struct sigaction action {};
    action.sa_handler = on_stop;
    sigfillset(&action.sa_mask);  // one handler at a time
    ::sigaction(kStopSignals[k], &action, nullptr);
  }
  installed = true;
}

pid_t fork_child(bool own_group) {
  // Signals wait until the child is remembered (parent) or has its own handlers (child).
  sigset_t all, previous;
  sigfillset(&all);
  ::pthread_sigmask(SIG_BLOCK, &all, &previous);
  const pid_t parent = ::getpid();
  const pid_t pid = ::fork();
  if (pid == 0) {
    restore_original_handlers();
    forget_everything();
    if (own_group) ::setpgid(0, 0);
    ::prctl(PR_SET_PDEATHSIG, own_group ? SIGTERM : SIGKILL);
    if (::getppid() != parent) ::_exit(1);  // the parent died before PR_SET_PDEATHSIG took hold
    ::pthread_sigmask(SIG_SETMASK, &previous, nullptr);
    return 0;
  }
  const int fork_errno = errno;
  if (pid > 0) {
    if (own_group) ::setpgid(pid, pid);  // also here: a stop may come before the child runs
    remember_child(own_group ? -pid : pid);
  }
  ::pthread_sigmask(SIG_SETMASK, &previous, nullptr);
  if (pid < 0) throw std::runtime_error(std::string("cannot start a process: ") + std::strerror(fork_errno));
  return pid;
}

int wait_child(pid_t pid) {
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  forget_child(pid);
  return status;
}

void remember_temporary(const std::filesystem::path& path) {
  const std::string text = std::filesystem::absolute(path).string();
  if (text.size() >= kPathBytes) return;  // still removed on errors, only not on a stop
  for (auto& temporary : temporaries) {
    if (temporary.used.load()) continue;
    std::memcpy(temporary.path, text.c_str(), text.size() + 1);
    temporary.used.store(true);
    return;
  }
}

void forget_temporary(const std::filesystem::path& path) {
  const std::string text = std::filesystem::absolute(path).string();
  for (auto& temporary : temporaries) {
    if (temporary.used.load() && text == temporary.path) {
      temporary.used.store(false);
      return;
    }
  }
}

}  // namespace redist::os
