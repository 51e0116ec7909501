#include "redist/analysis/sweep_shards.hpp"

#include <cstdint>
#include <cstdlib>
#include <iterator>
#include <regex>
#include <set>
#include <stdexcept>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "redist/os/atomic_file.hpp"

namespace redist {
namespace {

namespace fs = std::filesystem;

// A whole number in [0, limit) from text, or throws naming `what`.
std::size_t index_in(const std::string& text, std::size_t limit, const std::string& what) {
  if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos || text.size() > 9 ||
      std::stoull(text) >= limit) {
    throw std::invalid_argument(fmt::format("{} must be a whole number from 0 to {}, got '{}'", what, limit - 1, text));
  }
  return static_cast<std::size_t>(std::stoull(text));
}

std::string slurp(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw std::invalid_argument("cannot read " + file.string());
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

ShardFile parse_shard_file(const fs::path& file) {
  try {
    const auto j = nlohmann::json::parse(slurp(file));
    ShardFile s{j.at("scenario"), j.at("file"), j.at("fingerprint"), {j.at("shard"), j.at("shards")}, j.at("jobs"), {}};
    if (s.shard.count == 0 || s.shard.index >= s.shard.count) {
      throw std::invalid_argument(file.string() + " is not a slice of a sweep: slice " + std::to_string(s.shard.index) +
                                  " of " + std::to_string(s.shard.count));
    }
    for (const auto& line : j.at("lines")) {
      const auto job = line.at("job").get<std::size_t>();
      if (job >= s.jobs || job % s.shard.count != s.shard.index) {
        throw std::invalid_argument(file.string() + " is not a slice of a sweep: job " + std::to_string(job) +
                                    " is not one of its runs");
      }
      s.lines[job] = line.dump();
    }
    return s;
  } catch (const nlohmann::json::exception& e) {
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

Shard parse_shard(const std::string& text) {
  const auto slash = text.find('/');
  if (slash == std::string::npos) throw std::invalid_argument("--shard must be K/N or auto/N, got '" + text + "'");
  const std::string k = text.substr(0, slash), n = text.substr(slash + 1);
  Shard shard;
  shard.count = index_in(n, 1000000000, "the slice count N of --shard K/N");
  if (shard.count == 0) throw std::invalid_argument("the slice count N of --shard K/N must be at least 1, got 0");
  if (k == "auto") {
    const char* task = std::getenv("SLURM_ARRAY_TASK_ID");
    if (task == nullptr) throw std::invalid_argument("--shard auto/N reads SLURM_ARRAY_TASK_ID, which is not set");
    shard.index = index_in(task, shard.count, "SLURM_ARRAY_TASK_ID (for --shard auto/" + n + ")");
  } else {
    shard.index = index_in(k, shard.count, "the slice K of --shard K/" + n);
  }
  return shard;
}

std::string scenario_fingerprint(const fs::path& file) {
  std::uint64_t hash = 0xcbf29ce484222325ull;  // FNV-1a, 64 bits
  for (const char c : slurp(file)) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 0x100000001b3ull;
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

Journal::Journal(const fs::path& folder, const std::string& name, const std::string& fingerprint)
    : path_(folder / ("." + name + ".journal")), fingerprint_(fingerprint) {}

std::map<std::size_t, std::string> Journal::finished() const {
  std::map<std::size_t, std::string> out;
  std::ifstream in(path_);
  std::string line;
  if (!std::getline(in, line) || line != fingerprint_) return out;
  while (std::getline(in, line)) {
    // A stop can cut the last line short: only whole, successful results count.
    const auto j = nlohmann::json::parse(line, nullptr, false);
    if (j.is_discarded() || !j.is_object() || !j.contains("job") || !j.contains("phases")) continue;
    out[j["job"].get<std::size_t>()] = line;
  }
  return out;
}

void Journal::start(const std::map<std::size_t, std::string>& known) {
  out_.open(path_, std::ios::trunc);
  out_ << fingerprint_ << '\n';
  for (const auto& [job, line] : known) out_ << line << '\n';
  out_.flush();
  if (!out_) throw std::runtime_error("cannot write " + path_.string());
}

void Journal::add(const std::string& line) {
  if (nlohmann::json::parse(line).contains("error")) return;  // a failed run is run again
  out_ << line << '\n' << std::flush;
}

void Journal::done() {
  out_.close();
  std::error_code ignored;
  fs::remove(path_, ignored);
}

}  // namespace redist
