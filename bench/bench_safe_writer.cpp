// The cost of the safe writer (os/atomic_file.hpp: a temporary, checked writes, fsync, rename)
// against a plain unchecked std::ofstream, writing every file of a results folder as a replay
// writes them. Prints the best wall time of each over a few rounds (the cost is waiting for the
// disk, not CPU); bench/safe_writer_cost.sh sets it beside the time of `redist replay --all`.
//   bench_safe_writer RESULTS_FOLDER
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "redist/os/atomic_file.hpp"

namespace {

namespace fs = std::filesystem;

struct OutputFile {
  std::string name;
  std::string bytes;
};

std::vector<OutputFile> read_folder(const fs::path& folder) {
  std::vector<OutputFile> files;
  for (const auto& entry : fs::directory_iterator(folder)) {
    if (!entry.is_regular_file() || entry.path().filename().string().front() == '.') continue;
    std::ifstream in(entry.path(), std::ios::binary);
    std::ostringstream bytes;
    bytes << in.rdbuf();
    files.push_back({entry.path().filename().string(), bytes.str()});
  }
  return files;
}

void write_safely(const fs::path& target, const OutputFile& file) {
  redist::os::write_file_atomically(target / file.name, file.bytes);
}

void write_plainly(const fs::path& target, const OutputFile& file) {
  std::ofstream out(target / file.name, std::ios::binary | std::ios::trunc);
  out.write(file.bytes.data(), static_cast<std::streamsize>(file.bytes.size()));
}

/// Best of `rounds` wall times of writing every file once.
double best_seconds(const std::vector<OutputFile>& files, const fs::path& target,
                    const std::function<void(const fs::path&, const OutputFile&)>& write, int rounds) {
  double best = 1e300;
  for (int round = 0; round < rounds; ++round) {
    const auto start = std::chrono::steady_clock::now();
    for (const auto& file : files) write(target, file);
    best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  return best;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2 || !fs::is_directory(argv[1])) {
    std::cerr << "usage: bench_safe_writer RESULTS_FOLDER\n";
    return 2;
  }
  const auto files = read_folder(argv[1]);
  std::size_t bytes = 0;
  for (const auto& file : files) bytes += file.bytes.size();
  const fs::path target = fs::temp_directory_path() / fmt::format("redist-bench-safe-writer-{}", ::getpid());
  fs::create_directories(target);
  constexpr int kRounds = 5;
  const double safe = best_seconds(files, target, write_safely, kRounds);
  const double plain = best_seconds(files, target, write_plainly, kRounds);
  fs::remove_all(target);
  std::cout << fmt::format("{} files, {} bytes: safe writer {:.4f} s, plain ofstream {:.4f} s (best of {})\n",
                           files.size(), bytes, safe, plain, kRounds);
  return 0;
}
