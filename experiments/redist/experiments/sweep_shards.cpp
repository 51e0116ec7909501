#include "redist/experiments/sweep_shards.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <cmath>
#include <cstdint>
#include <limits>
#include <cstdlib>
#include <iterator>
#include <regex>
#include <set>
#include <stdexcept>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "redist/os/atomic_file.hpp"
#include "redist/os/input_file.hpp"
#include "redist/transport/phases.hpp"

namespace redist {
namespace {

namespace fs = std::filesystem;

// A whole number in [first, limit) from text, or throws naming `what` and that range.
std::size_t index_in(const std::string& text, std::size_t limit, const std::string& what, std::size_t first = 0) {
  if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos || text.size() > 9 ||
      std::stoull(text) >= limit || std::stoull(text) < first) {
    throw std::invalid_argument(fmt::format("{} must be a whole number from {} to {}, got '{}'", what, first, limit - 1, text));
  }
  return static_cast<std::size_t>(std::stoull(text));
}

// A slice is a few result lines per job: far below this bound even for millions of jobs.
constexpr std::uint64_t kMaxSliceBytes = 4ull << 30;

std::string slurp(const fs::path& file, std::uint64_t max_bytes = kMaxSliceBytes) {
  try {
    return os::read_input_file(file, max_bytes, "file");
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument("cannot read " + file.string() + ": " +
                                std::string(e.what()).substr(("file " + file.string() + ": ").size()));
  }
}

// A value of a slice or journal line, refused with its key, what it holds and what is allowed.
std::string shown(const nlohmann::json& value) {
  std::string text = value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  return text.size() > 40 ? text.substr(0, 37) + "..." : text;
}

[[noreturn]] void refuse_value(const std::string& key, const nlohmann::json& value, const std::string& allowed) {
  throw std::invalid_argument("'" + key + "' is " + shown(value) + " (" + allowed + ")");
}

const nlohmann::json& member(const nlohmann::json& j, const std::string& key, const std::string& path = "") {
  if (!j.is_object()) refuse_value(path.empty() ? "the file" : path, j, "it must be a JSON object");
  const auto it = j.find(key);
  if (it == j.end()) throw std::invalid_argument("'" + (path.empty() ? key : path + "." + key) + "' is missing");
  return *it;
}

std::size_t whole_member(const nlohmann::json& j, const std::string& key, std::size_t min, std::size_t max,
                         const std::string& path = "") {
  const auto& value = member(j, key, path);
  const std::string name = path.empty() ? key : path + "." + key;
  if (!value.is_number_unsigned() && !(value.is_number_integer() && value.get<std::int64_t>() >= 0)) {
    refuse_value(name, value, fmt::format("it must be a whole number from {} to {}", min, max));
  }
  const auto x = value.get<std::uint64_t>();
  if (x < min || x > max) refuse_value(name, value, fmt::format("it must be a whole number from {} to {}", min, max));
  return static_cast<std::size_t>(x);
}

std::string text_member(const nlohmann::json& j, const std::string& key) {
  const auto& value = member(j, key);
  if (!value.is_string()) refuse_value(key, value, "it must be a string");
  return value.get<std::string>();
}

ShardFile parse_shard_file(const fs::path& file) {
  try {
    nlohmann::json j;
    try {
      j = nlohmann::json::parse(slurp(file));
    } catch (const nlohmann::json::parse_error& e) {
      const std::string what = e.what();
      throw std::invalid_argument("not JSON: " + what.substr(what.find("] ") == std::string::npos ? 0 : what.find("] ") + 2));
    }
    ShardFile s;
    s.scenario = text_member(j, "scenario");
    s.file = text_member(j, "file");
    s.fingerprint = text_member(j, "fingerprint");
    s.shard.count = whole_member(j, "shards", 1, 999999999);
    s.shard.index = whole_member(j, "shard", 0, s.shard.count - 1);
    s.jobs = whole_member(j, "jobs", 0, std::numeric_limits<std::uint32_t>::max());
    const auto& lines = member(j, "lines");
    if (!lines.is_array()) refuse_value("lines", lines, "it must be a list of result lines");
    for (std::size_t k = 0; k < lines.size(); ++k) {
      const std::string path = "lines[" + std::to_string(k) + "]";
      const auto job = whole_member(lines[k], "job", 0, s.jobs == 0 ? 0 : s.jobs - 1, path);
      if (s.jobs == 0 || job % s.shard.count != s.shard.index) {
        refuse_value(path + ".job", lines[k]["job"], fmt::format("slice {} of {} runs jobs {}, {}, ...", s.shard.index,
                                                                 s.shard.count, s.shard.index, s.shard.index + s.shard.count));
      }
      if (const auto problem = result_line_problem(lines[k]); !problem.empty()) {
        throw std::invalid_argument(path + ": " + problem);
      }
      s.lines[job] = lines[k].dump();
    }
    return s;
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(file.string() + " is not a slice of a sweep: " + e.what());
  }
}

// Checks the slices of one scenario and returns them ordered by K.
std::vector<ShardFile> complete_sweep(const std::string& scenario, std::vector<std::pair<fs::path, ShardFile>> found) {
  const auto& [first_file, first] = found.front();
  std::map<std::size_t, fs::path> seen;
  for (const auto& [file, s] : found) {
    if (s.fingerprint != first.fingerprint || s.shard.count != first.shard.count || s.jobs != first.jobs) {
      throw std::invalid_argument(fmt::format("merge: {} and {} are slices of different sweeps named {} (scenario file "
                                              "or slice count differ)",
                                              first_file.string(), file.string(), scenario));
    }
    if (const auto twice = seen.find(s.shard.index); twice != seen.end()) {
      throw std::invalid_argument(fmt::format("merge: {}: slice {} of {} appears twice ({} and {})", scenario,
                                              s.shard.index, s.shard.count, twice->second.string(), file.string()));
    }
    seen[s.shard.index] = file;
  }
  for (std::size_t k = 0; k < first.shard.count; ++k) {
    if (!seen.count(k)) {
      throw std::invalid_argument(fmt::format("merge: {}: slice {} of {} is missing", scenario, k, first.shard.count));
    }
  }
  std::vector<ShardFile> out(first.shard.count);
  for (auto& [file, s] : found) out[s.shard.index] = std::move(s);
  return out;
}

}  // namespace

std::string result_line_problem(const nlohmann::json& line) {
  try {
    whole_member(line, "job", 0, std::numeric_limits<std::uint32_t>::max());
    if (line.contains("error")) {
      if (!line["error"].is_string()) refuse_value("error", line["error"], "it must be a string");
      return {};
    }
    const auto& phases = member(line, "phases");
    if (!phases.is_array() || phases.size() != kPhaseFields.size() ||
        !std::all_of(phases.begin(), phases.end(), [](const auto& x) { return x.is_number() && std::isfinite(x.template get<double>()); })) {
      refuse_value("phases", phases, fmt::format("it must be a list of {} finite numbers", kPhaseFields.size()));
    }
    const auto& quantities = member(line, "quantities");
    if (!quantities.is_object() && !quantities.is_null()) refuse_value("quantities", quantities, "it must be an object of numbers");
    for (const auto& [name, value] : quantities.items()) {
      if (!value.is_number()) refuse_value("quantities." + name, value, "it must be a number");
    }
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return {};
}

Shard parse_shard(const std::string& text) {
  const auto slash = text.find('/');
  if (slash == std::string::npos) throw std::invalid_argument("--shard must be K/N or auto/N, got '" + text + "'");
  const std::string k = text.substr(0, slash), n = text.substr(slash + 1);
  Shard shard;
  shard.count = index_in(n, 1000000000, "the slice count N of --shard K/N", 1);
  if (k == "auto") {
    const char* task = std::getenv("SLURM_ARRAY_TASK_ID");
    if (task == nullptr) throw std::invalid_argument("--shard auto/N reads SLURM_ARRAY_TASK_ID, which is not set");
    shard.index = index_in(task, shard.count, "SLURM_ARRAY_TASK_ID (for --shard auto/" + n + ")");
  } else {
    shard.index = index_in(k, shard.count, "the slice K of --shard K/" + n);
  }
  return shard;
}

std::string inputs_fingerprint(const std::vector<fs::path>& files) {
  std::uint64_t hash = 0xcbf29ce484222325ull;  // FNV-1a, 64 bits
  const auto add = [&hash](const std::string& bytes) {
    for (const char c : bytes) {
      hash ^= static_cast<unsigned char>(c);
      hash *= 0x100000001b3ull;
    }
  };
  for (const auto& file : files) {
    const std::string bytes = slurp(file, os::kMaxPlatformBytes);
    add(std::to_string(bytes.size()) + ":");  // each file's length first: no two splits of one text agree
    add(bytes);
  }
  return fmt::format("{:016x}", hash);
}

std::string shard_file_name(const std::string& scenario, const Shard& shard) {
  return fmt::format("{}.shard-{}-of-{}.json", scenario, shard.index, shard.count);
}

void write_shard_file(const fs::path& folder, const ShardFile& s) {
  nlohmann::ordered_json j = {{"scenario", s.scenario}, {"file", s.file},         {"fingerprint", s.fingerprint},
                              {"shard", s.shard.index}, {"shards", s.shard.count}, {"jobs", s.jobs}};
  j["lines"] = nlohmann::ordered_json::array();
  for (const auto& [job, line] : s.lines) j["lines"].push_back(nlohmann::ordered_json::parse(line));
  os::write_file_atomically(folder / shard_file_name(s.scenario, s.shard), j.dump(1) + "\n");
}

std::map<std::string, std::vector<ShardFile>> read_complete_sweeps(const std::vector<std::string>& folders) {
  static const std::regex kName(R"((.+)\.shard-[0-9]+-of-[0-9]+\.json)");
  std::map<std::string, std::vector<std::pair<fs::path, ShardFile>>> found;
  for (const auto& folder : folders) {
    if (!fs::is_directory(folder)) throw std::invalid_argument("merge: " + folder + " is not a folder");
    std::set<fs::path> files;  // sorted: the same errors whatever the directory order
    for (const auto& entry : fs::directory_iterator(folder)) {
      if (std::regex_match(entry.path().filename().string(), kName)) files.insert(entry.path());
    }
    for (const auto& file : files) {
      auto s = parse_shard_file(file);
      found[s.scenario].emplace_back(file, std::move(s));
    }
  }
  if (found.empty()) throw std::invalid_argument("merge: no slice of a sweep (NAME.shard-K-of-N.json) in the folders given");
  std::map<std::string, std::vector<ShardFile>> out;
  for (auto& [scenario, slices] : found) out[scenario] = complete_sweep(scenario, std::move(slices));
  return out;
}

Journal::Journal(const fs::path& folder, const std::string& name, const std::string& fingerprint, std::size_t jobs)
    : path_(folder / ("." + name + ".journal")), fingerprint_(fingerprint), jobs_(jobs) {}

std::map<std::size_t, std::string> Journal::finished() const {
  std::map<std::size_t, std::string> out;
  std::error_code ec;
  const auto status = fs::symlink_status(path_, ec);
  if (!fs::exists(status)) return out;
  if (!fs::is_regular_file(status)) {
    throw std::invalid_argument(path_.string() + " is " + (fs::is_symlink(status) ? "a symbolic link" : "not a regular file") +
                                ", not a journal redist wrote; remove it");
  }
  std::ifstream in(path_);
  std::string line;
  if (!std::getline(in, line)) return out;
  if (line != fingerprint_) {
    throw std::invalid_argument(path_.string() + ": the journal of an earlier run of other inputs (the scenario or its "
                                "platform changed since): its results are of another machine; remove it to run the "
                                "sweep afresh");
  }
  for (std::size_t number = 2; std::getline(in, line); ++number) {
    // A stop can cut the last line short: only whole, successful results count.
    const auto j = nlohmann::json::parse(line, nullptr, false);
    if (j.is_discarded() && in.peek() == std::char_traits<char>::eof()) continue;
    std::string problem = j.is_discarded() ? "it is not JSON" : result_line_problem(j);
    if (problem.empty() && j.contains("error")) problem = "it holds a failed run, which a journal does not keep";
    if (problem.empty() && jobs_ > 0 && j.at("job").get<std::uint64_t>() >= jobs_) {
      problem = fmt::format("'job' is {} (the sweep has jobs 0 to {})", j.at("job").get<std::uint64_t>(), jobs_ - 1);
    }
    if (!problem.empty()) {
      throw std::invalid_argument(fmt::format("{}:{}: the journal of an earlier run is damaged: {}; remove it to run the "
                                              "sweep afresh",
                                              path_.string(), number, problem));
    }
    out[j.at("job").get<std::size_t>()] = line;
  }
  return out;
}

Journal::~Journal() {
  if (fd_ >= 0) ::close(fd_);
}

void Journal::append(const std::string& text) {
  for (std::size_t done = 0; done < text.size();) {
    const ssize_t n = ::write(fd_, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) throw std::runtime_error("cannot write " + path_.string() + ": " + std::strerror(n < 0 ? errno : ENOSPC));
    done += static_cast<std::size_t>(n);
  }
}

void Journal::start(const std::map<std::size_t, std::string>& known) {
  std::string text = fingerprint_ + '\n';
  for (const auto& [job, line] : known) text += line + '\n';
  // Written whole beside the name and renamed over it: a link at the name is replaced, not followed.
  os::write_file_atomically(path_, text);
  if (fd_ >= 0) ::close(fd_);
  fd_ = ::open(path_.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC | O_NOFOLLOW);
  if (fd_ < 0) throw std::runtime_error("cannot write " + path_.string() + ": " + std::strerror(errno));
}

void Journal::add(const std::string& line) {
  if (nlohmann::json::parse(line).contains("error")) return;  // a failed run is run again
  append(line + '\n');  // one write per line: a stop cuts at most the last one short
}

void Journal::done() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  std::error_code ignored;
  fs::remove(path_, ignored);
}

}  // namespace redist
