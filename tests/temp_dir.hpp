// A test's own directory under the system's temporary directory, removed with all it holds when its
// owner goes out of scope (also after a failed assertion): the tests leave /tmp as they found it.
#pragma once

#include <stdlib.h>  // mkdtemp
#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <string>
#include <system_error>

namespace redist::test {

class TempDir {
 public:
  /// Creates PREFIX-XXXXXX; mkdtemp's name is unique across ctest's parallel processes too.
  explicit TempDir(const std::string& prefix) : owner_(::getpid()) {
    std::string name = (std::filesystem::temp_directory_path() / (prefix + "-XXXXXX")).string();
    if (::mkdtemp(name.data()) == nullptr) throw std::system_error(errno, std::generic_category(), "cannot create " + name);
    path_ = name;
  }
  ~TempDir() {
    // Only in the process that made it: a forked child that exits must not take it away.
    if (::getpid() != owner_) return;
    std::error_code ignored;  // nothing to do about what cannot be removed, and a destructor must not throw
    std::filesystem::remove_all(path_, ignored);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::filesystem::path& path() const { return path_; }
  std::filesystem::path operator/(const std::filesystem::path& name) const { return path_ / name; }

 private:
  std::filesystem::path path_;
  pid_t owner_;
};

}  // namespace redist::test
