// One way to write a file: the bytes go to a uniquely named temporary file beside the target,
// every write and the close are checked, the data is fsync'ed, and a rename publishes it whole.
// On any failure the target keeps its earlier content, the temporary is removed, and the error
// names the file and the operating system's reason ("No space left on device").
#pragma once

#include <filesystem>
#include <string_view>

namespace redist::os {

/// What sets redist's temporaries apart from a user's files (".NAME.redist-XXXXXX.tmp.EXT"): the
/// cleanup of a killed run's temporaries removes only names carrying it.
inline constexpr std::string_view kTemporaryMarker = ".redist-";

/// Replaces `path` with `bytes`, all or nothing. Throws std::runtime_error
/// "cannot write PATH: REASON" on failure, leaving any earlier `path` untouched.
void write_file_atomically(const std::filesystem::path& path, std::string_view bytes);

/// A temporary file beside `target` for another program to fill by name (a plot script, SimGrid's
/// trace). publish() checks it is not empty, syncs it and renames it over `target`; a PendingFile
/// destroyed unpublished removes its temporary. The temporary is also removed on a stop signal.
class PendingFile {
 public:
  /// Creates the temporary (".NAME.redist-XXXXXX.tmp.EXT", keeping the extension for programs
  /// that read it). Throws "cannot write TARGET: REASON" when the folder is missing or unwritable,
  /// or when `target` is a directory or a device. A symbolic link at `target` is replaced by the
  /// published file, not followed: nothing outside the target's folder is ever written.
  explicit PendingFile(std::filesystem::path target);
  ~PendingFile();
  PendingFile(const PendingFile&) = delete;
  PendingFile& operator=(const PendingFile&) = delete;

  const std::filesystem::path& path() const { return temporary_; }
  const std::filesystem::path& target() const { return target_; }
  /// Writes `bytes` into the temporary (replacing what is there), checked and synced.
  void write(std::string_view bytes);
  /// Publishes the temporary as the target. Throws "cannot write TARGET: REASON".
  void publish();

 private:
  std::filesystem::path target_;
  std::filesystem::path temporary_;
  bool written_ = false;    // by write(), checked: no need to look for a cut-short file
  bool published_ = false;
};

/// Creates `folder` (and its parents) when missing and proves a file can be written there, so a
/// long run fails before it starts rather than after. Throws "cannot write to FOLDER: REASON".
void ensure_writable_folder(const std::filesystem::path& folder);

/// True for the names PendingFile gives its temporaries (".NAME.redist-XXXXXX.tmp[.EXT]").
bool is_temporary_name(const std::string& file_name);

}  // namespace redist::os
