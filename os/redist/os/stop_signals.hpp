// Clean stops: SIGINT, SIGTERM and SIGHUP end every child process the command started and remove
// its temporary files before the command ends by the same signal (shell status 130, 143, 129).
// Children started through fork_child() also die when their parent dies, even by SIGKILL.
#pragma once

#include <sys/types.h>

#include <filesystem>

namespace redist::os {

/// Installs the stop handlers (once, at the start of main). A signal the caller ignores (nohup)
/// stays ignored.
void install_stop_handlers();

/// fork() for a child that must not outlive its parent: in the child the stop handlers are the
/// caller's original ones, no parent's child or temporary is remembered, and PR_SET_PDEATHSIG
/// ends it when the parent dies (with SIGKILL; SIGTERM for `own_group`). With `own_group` the
/// child leads a new process group, and a stop ends that whole group (mpirun and its ranks).
/// Returns as fork() does; throws std::runtime_error when fork fails.
pid_t fork_child(bool own_group = false);

/// Waits for a child of fork_child() and forgets it; returns its wait status.
int wait_child(pid_t pid);

/// Temporary files removed on a stop signal (PendingFile remembers its own), and temporary folders,
/// removed after the files when they are then empty.
void remember_temporary(const std::filesystem::path& path);
void forget_temporary(const std::filesystem::path& path);

}  // namespace redist::os
