#include "redist/os/atomic_file.hpp"

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <regex>
#include <stdexcept>
#include <string>

#include "redist/os/stop_signals.hpp"

namespace redist::os {
namespace {

namespace fs = std::filesystem;

std::runtime_error cannot_write(const fs::path& target, const std::string& reason) {
  return std::runtime_error("cannot write " + target.string() + ": " + reason);
}
std::runtime_error cannot_write(const fs::path& target, int error) { return cannot_write(target, std::strerror(error)); }

// Published files get the usual permissions (0666 less the umask), not mkstemp's 0600.
mode_t file_mode() {
  static const mode_t mode = [] {
    const mode_t mask = ::umask(0);
    ::umask(mask);
    return static_cast<mode_t>(0666 & ~mask);
  }();
  return mode;
}

void write_all(int fd, std::string_view bytes, const fs::path& target) {
  for (std::size_t done = 0; done < bytes.size();) {
    const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw cannot_write(target, errno);
    if (n == 0) throw cannot_write(target, ENOSPC);
    done += static_cast<std::size_t>(n);
  }
}

// fsync, then close, both checked: a delayed write error (NFS, a full disk) shows up there.
void sync_and_close(int fd, const fs::path& target) {
  if (::fsync(fd) != 0 && errno != EINVAL) {
    const int error = errno;
    ::close(fd);
    throw cannot_write(target, error);
  }
  if (::close(fd) != 0 && errno != EINTR) throw cannot_write(target, errno);
}

// Another program's writes are not ours to check. A file that stopped exactly at the file size
// limit, or on a file system left with no free block, may have been cut short: refuse it.
void check_not_cut_short(int fd, const fs::path& target) {
  struct stat info {};
  if (::fstat(fd, &info) != 0) throw cannot_write(target, errno);
  if (info.st_size == 0) throw cannot_write(target, "the program writing it left it empty");
  rlimit limit{};
  if (::getrlimit(RLIMIT_FSIZE, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY &&
      static_cast<rlim_t>(info.st_size) >= limit.rlim_cur) {
    throw cannot_write(target, std::strerror(EFBIG));
  }
  struct statvfs space {};
  const bool full = ::fstatvfs(fd, &space) == 0 && space.f_blocks > 0 &&
                    (::geteuid() == 0 ? space.f_bfree : space.f_bavail) == 0;
  if (full) throw cannot_write(target, ENOSPC);
}

// A rename is durable once the folder itself is synced.
void sync_folder(const fs::path& folder) {
  const int fd = ::open(folder.empty() ? "." : folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  ::fsync(fd);
  ::close(fd);
}

fs::path folder_of(const fs::path& target) { return target.has_parent_path() ? target.parent_path() : fs::path("."); }

}  // namespace

PendingFile::PendingFile(fs::path target) : target_(std::move(target)) {
  std::error_code ec;
  // The name is replaced, never what it points to: a symbolic link at the target is replaced by
  // the file (the file it pointed to, perhaps outside the folder, is left as it was).
  const auto status = fs::symlink_status(target_, ec);
  if (fs::is_directory(status)) throw cannot_write(target_, EISDIR);
  if (fs::exists(status) && !fs::is_regular_file(status) && !fs::is_symlink(status)) {
    throw cannot_write(target_, "not a regular file");
  }
  const std::string extension = target_.extension().string();
  std::string pattern =
      (folder_of(target_) / ("." + target_.filename().string() + std::string(kTemporaryMarker) + "XXXXXX.tmp" + extension))
          .string();
  const int fd = ::mkostemps(pattern.data(), static_cast<int>(4 + extension.size()), O_CLOEXEC);
  if (fd < 0) throw cannot_write(target_, errno);
  temporary_ = pattern;
  remember_temporary(temporary_);
  const bool mode_set = ::fchmod(fd, file_mode()) == 0;
  const int error = errno;
  ::close(fd);
  if (!mode_set) throw cannot_write(target_, error);
}

PendingFile::~PendingFile() {
  if (published_) return;
  ::unlink(temporary_.c_str());
  forget_temporary(temporary_);
}

void PendingFile::write(std::string_view bytes) {
  // O_NOFOLLOW: the temporary is ours; a link put in its place since is not followed.
  const int fd = ::open(temporary_.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0) throw cannot_write(target_, errno);
  try {
    write_all(fd, bytes, target_);
  } catch (...) {
    ::close(fd);
    throw;
  }
  sync_and_close(fd, target_);
  written_ = true;
}

void PendingFile::publish() {
  if (!written_) {  // filled by another program: sync it here
    const int fd = ::open(temporary_.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0) throw cannot_write(target_, errno);
    try {
      check_not_cut_short(fd, target_);
    } catch (...) {
      ::close(fd);
      throw;
    }
    sync_and_close(fd, target_);
  }
  if (::rename(temporary_.c_str(), target_.c_str()) != 0) throw cannot_write(target_, errno);
  published_ = true;
  forget_temporary(temporary_);
  sync_folder(folder_of(target_));
}

void write_file_atomically(const fs::path& path, std::string_view bytes) {
  PendingFile file(path);
  file.write(bytes);
  file.publish();
}

void ensure_writable_folder(const fs::path& folder) {
  std::error_code ec;
  // A link to nothing cannot be made a folder: create_directories says only "File exists".
  if (fs::is_symlink(fs::symlink_status(folder, ec)) && !fs::exists(folder, ec)) {
    throw std::runtime_error("cannot write to " + folder.string() + ": a symbolic link to " +
                             fs::read_symlink(folder, ec).string() + ", which leads to no file or folder");
  }
  fs::create_directories(folder, ec);
  if (ec) throw std::runtime_error("cannot write to " + folder.string() + ": " + ec.message());
  if (!fs::is_directory(folder, ec)) throw std::runtime_error("cannot write to " + folder.string() + ": " + std::strerror(ENOTDIR));
  try {
    PendingFile probe(folder / ".redist-probe");
    probe.write("probe\n");
  } catch (const std::exception& e) {
    throw std::runtime_error("cannot write to " + folder.string() + ": " +
                             std::string(e.what()).substr(std::string(e.what()).rfind(": ") + 2));
  }
}

bool is_temporary_name(const std::string& file_name) {
  static const std::regex pattern(R"(\..+\.redist-[A-Za-z0-9]{6}\.tmp(\.[^.]*)?)");
  return std::regex_match(file_name, pattern);
}

}  // namespace redist::os
