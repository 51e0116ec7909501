#include "redist/os/folder_lock.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

#include "redist/os/atomic_file.hpp"

namespace redist::os {
namespace {

namespace fs = std::filesystem;

// This process's command line, arguments separated by spaces.
std::string own_command_line() {
  std::ifstream in("/proc/self/cmdline", std::ios::binary);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  while (!text.empty() && text.back() == '\0') text.pop_back();
  for (char& c : text) c = c == '\0' ? ' ' : c;
  return text;
}

std::string read_holder(int fd) {
  std::string text(4096, '\0');
  const ssize_t n = ::pread(fd, text.data(), text.size(), 0);
  text.resize(n > 0 ? static_cast<std::size_t>(n) : 0);
  while (!text.empty() && (text.back() == '\n' || text.back() == '\0')) text.pop_back();
  return text;
}

// "1234 redist replay --all --out x" -> "pid 1234: redist replay --all --out x"
std::string describe(const std::string& holder) {
  const std::size_t space = holder.find(' ');
  if (holder.empty() || space == std::string::npos) return "another process";
  return "pid " + holder.substr(0, space) + ": " + holder.substr(space + 1);
}

std::string not_a_lock_file(const fs::path& path, const std::string& what) {
  return path.string() + " is " + what + ", not redist's lock file; remove it (redist writes nothing through it)";
}

// Only names carrying redist's marker (is_temporary_name): a user's ".notes.backup.tmp" stays.
void remove_stale_temporaries(const fs::path& folder) {
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(folder, ec)) {
    if (is_temporary_name(entry.path().filename().string()) && entry.is_regular_file(ec) && !entry.is_symlink(ec)) {
      fs::remove(entry.path(), ec);
    }
  }
}

// Whether `fd` is still the file at `path`: a run ending removes its lock file while holding the lock,
// so a run that opened the file before and locked it after holds a lock on a file no longer there.
bool still_at(int fd, const fs::path& path) {
  struct stat open_file {}, named {};
  return ::fstat(fd, &open_file) == 0 && ::stat(path.c_str(), &named) == 0 && open_file.st_dev == named.st_dev &&
         open_file.st_ino == named.st_ino;
}

}  // namespace

FolderLock::FolderLock(const fs::path& folder) : path_(folder / ".redist.lock") {
  for (;;) {
    // Never through a link (it would truncate the file it points to), never a FIFO or a device.
    fd_ = ::open(path_.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0666);
    if (fd_ < 0 && errno == ELOOP) throw std::runtime_error(not_a_lock_file(path_, "a symbolic link"));
    if (fd_ < 0) throw std::runtime_error("cannot write to " + folder.string() + ": " + std::strerror(errno));
    if (struct stat info {}; ::fstat(fd_, &info) != 0 || !S_ISREG(info.st_mode)) {
      ::close(fd_);
      fd_ = -1;
      throw std::runtime_error(not_a_lock_file(path_, "not a regular file"));
    }
    int locked = 0;
    while ((locked = ::flock(fd_, LOCK_EX | LOCK_NB)) != 0 && errno == EINTR) {
    }
    if (locked != 0) {
      const int error = errno;
      const std::string holder = error == EWOULDBLOCK ? read_holder(fd_) : "";
      ::close(fd_);
      fd_ = -1;
      if (error != EWOULDBLOCK) throw std::runtime_error("cannot lock " + path_.string() + ": " + std::strerror(error));
      throw std::runtime_error(folder.string() + " is being written by another redist run (" + describe(holder) +
                               "); wait for it to end or choose another --out");
    }
    if (still_at(fd_, path_)) break;
    ::close(fd_);  // the run before removed it: take the new one
  }
  const std::string holder = std::to_string(::getpid()) + " " + own_command_line() + "\n";
  if (::ftruncate(fd_, 0) != 0 ||
      ::pwrite(fd_, holder.data(), holder.size(), 0) != static_cast<ssize_t>(holder.size())) {
    const int error = errno;
    ::close(fd_);
    fd_ = -1;
    throw std::runtime_error("cannot write to " + folder.string() + ": " + std::strerror(error));
  }
  remove_stale_temporaries(folder);
}

FolderLock::~FolderLock() {
  if (fd_ < 0) return;
  ::unlink(path_.c_str());  // while still holding the lock: see still_at
  ::close(fd_);
}

}  // namespace redist::os
