#include "redist/os/input_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace redist::os {

std::string read_input_file(const std::filesystem::path& path, std::uint64_t max_bytes, const std::string& kind) {
  const auto refuse = [&](const std::string& reason) {
    return std::invalid_argument(kind + " " + path.string() + ": " + reason);
  };
  // O_NONBLOCK: opening a FIFO would wait for a writer. It is refused below, before any read.
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) throw refuse(errno == ENOENT ? "no such file" : std::strerror(errno));
  struct stat info {};
  if (::fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) {
    ::close(fd);
    throw refuse(S_ISDIR(info.st_mode) ? "a folder, not a file" : "not a regular file (a device, FIFO or socket is not read)");
  }
  if (static_cast<std::uint64_t>(info.st_size) > max_bytes) {
    ::close(fd);
    throw refuse(std::to_string(info.st_size) + " bytes, more than the " + std::to_string(max_bytes) + " a " + kind +
                 " file may have");
  }
  // Read to the end, not to the size seen: a file still growing is refused at the bound.
  std::string text;
  text.resize(static_cast<std::size_t>(info.st_size) + 1);
  std::size_t done = 0;
  for (;;) {
    if (done == text.size()) {
      if (text.size() > max_bytes) break;
      text.resize(std::min<std::uint64_t>(max_bytes + 1, text.size() * 2 + 4096));
    }
    const ssize_t n = ::read(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int error = errno;
      ::close(fd);
      throw refuse(std::strerror(error));
    }
    if (n == 0) break;
    done += static_cast<std::size_t>(n);
  }
  ::close(fd);
  if (done > max_bytes) throw refuse("more than the " + std::to_string(max_bytes) + " bytes a " + kind + " file may have");
  text.resize(done);
  return text;
}

}  // namespace redist::os
