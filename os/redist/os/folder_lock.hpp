// One writer per output folder: a run that writes a set of files into a folder holds an exclusive
// flock on FOLDER/.redist.lock, which names the holder (pid and command line). A second run into
// the same folder is refused at once, naming the first; the lock ends with the process holding it,
// however it ends, and a run that ends normally removes the file.
#pragma once

#include <filesystem>

namespace redist::os {

class FolderLock {
 public:
  /// Takes the lock of `folder` (which must exist) and removes temporaries left there by a run
  /// that was killed. Throws std::runtime_error naming the other run when one holds it.
  explicit FolderLock(const std::filesystem::path& folder);
  /// Removes the lock file, then lets the lock go.
  ~FolderLock();
  FolderLock(const FolderLock&) = delete;
  FolderLock& operator=(const FolderLock&) = delete;

 private:
  std::filesystem::path path_;
  int fd_ = -1;
};

}  // namespace redist::os
