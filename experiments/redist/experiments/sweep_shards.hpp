// Sweeps too big for one machine run as batch job arrays: `redist sweep FILE --shard K/N` runs the
// K-th of N round-robin slices of the scenario's jobs and writes NAME.shard-K-of-N.json (the result
// lines of its jobs); `redist merge` checks that the slices of each sweep are all there, once, and of
// the same scenario file, and writes exactly the reports of the unsharded sweep. A sweep also keeps
// a journal of the jobs it has finished, so that `--resume` runs only the others after a stop.
#pragma once

#include <cstddef>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace redist {

struct Shard {
  std::size_t index = 0;  ///< K, 0-based
  std::size_t count = 1;  ///< N
};

/// "K/N" (0 <= K < N), or "auto/N" with K from $SLURM_ARRAY_TASK_ID. Throws std::invalid_argument.
Shard parse_shard(const std::string& text);

/// A digest of the bytes of every input of a sweep (its scenario file, then its platform file:
/// platforms include no other file, `<include>` is refused): slices, journals and merges of one
/// sweep must come from the same inputs, so a machine edited between them is refused.
std::string inputs_fingerprint(const std::vector<std::filesystem::path>& files);

/// One slice of a sweep as written to disk.
struct ShardFile {
  std::string scenario;     ///< the scenario's name
  std::string file;         ///< the scenario file, absolute
  std::string fingerprint;  ///< inputs_fingerprint of the scenario and its platform when the slice ran
  Shard shard;
  std::size_t jobs = 0;                      ///< jobs of the whole sweep
  std::map<std::size_t, std::string> lines;  ///< job -> result line, this slice's jobs only
};

std::string shard_file_name(const std::string& scenario, const Shard& shard);
void write_shard_file(const std::filesystem::path& folder, const ShardFile& shard);

/// Every NAME.shard-K-of-N.json under the folders, grouped by scenario name and checked: one
/// fingerprint, one N and one job count per scenario, every K present exactly once. Throws
/// std::invalid_argument with one line naming the scenario and the slice at fault.
std::map<std::string, std::vector<ShardFile>> read_complete_sweeps(const std::vector<std::string>& folders);

/// "" when `line` is a result line of a run ({"job":k,"phases":[...],"quantities":{...}} or
/// {"job":k,"error":"..."}), else what is wrong with it, naming the key ("'phases' is \"x\" (it must
/// be a list of 6 finite numbers)").
std::string result_line_problem(const nlohmann::json& line);

/// The journal of a sweep's finished jobs, OUT/.NAME.journal (NAME: the scenario, or its slice's
/// file name): a first line with the fingerprint, then one result line per job. Lines of failed runs
/// are not kept.
class Journal {
 public:
  /// `jobs`: the sweep's job count (a journalled job beyond it is damage).
  Journal(const std::filesystem::path& folder, const std::string& name, const std::string& fingerprint, std::size_t jobs);
  /// The finished jobs of an earlier run of the same inputs (none without a journal). A journal of
  /// other inputs (the scenario or its platform edited since) throws std::invalid_argument: its
  /// results are of another machine. A line that is not a result line of one of its jobs (but for
  /// a last line cut short by a stop) throws "FILE:LINE: the journal of an earlier run is damaged:
  /// PROBLEM; ...". A journal that is a symbolic link is refused, never followed.
  std::map<std::size_t, std::string> finished() const;
  ~Journal();
  Journal(const Journal&) = delete;
  Journal& operator=(const Journal&) = delete;
  /// Starts the journal afresh, keeping `known` (the jobs resumed): a new file renamed over the
  /// name, so a link there is replaced, not written through.
  void start(const std::map<std::size_t, std::string>& known);
  void add(const std::string& line);
  /// Removes the journal: the sweep's reports are written.
  void done();

 private:
  std::filesystem::path path_;
  std::string fingerprint_;
  std::size_t jobs_ = 0;
  int fd_ = -1;
  void append(const std::string& text);
};

}  // namespace redist
