#include "redist/calibration/validation_runs.hpp"

#include <algorithm>
#include <cstdlib>
#include <stdexcept>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "redist/layout/benchmark_pairs.hpp"
#include "redist/experiments/experiments.hpp"
#include "redist/os/input_file.hpp"
#include "redist/sim/platform_check.hpp"

namespace redist::calibration {

std::vector<ValidationCase> hand_picked_validation_cases(bool quick) {
  if (quick) {
    return {{2, 4, 2, 16, 1 << 14, "prylli", "async"}, {2, 1, 2, 8, 1 << 14, "krr", "caterpillar"},
            {1, 100, 2, 1, 1 << 14, "pitfalls", "greedy"}, {3, 4, 3, 2, 1 << 14, "naive", "stepwise", "exact"}};
  }
  return {{2, 4, 2, 16, 1 << 20, "prylli", "async"},       {2, 1, 2, 8, 1 << 21, "krr", "async"},
          {1, 1000, 2, 1, 1 << 20, "pitfalls", "caterpillar"}, {2, 64, 1, 64, 1 << 21, "naive", "async"},
          {2, 3, 2, 5, 1 << 20, "pitfalls", "greedy"},      {2, 1, 2, 1024, 1 << 22, "prylli", "stepwise"},
          {3, 8, 3, 2, 1 << 20, "krr", "async"},            {3, 5, 2, 7, 1 << 20, "prylli", "caterpillar"},
          {4, 1, 4, 16, 1 << 21, "krr", "async"},           {4, 32, 4, 8, 1 << 21, "pitfalls", "walker-otto"},
          {2, 4, 2, 8, 1 << 20, "prylli", "async", "none", true}, {4, 7, 3, 11, 1 << 20, "naive", "greedy"},
          {2, 2, 2, 2, 1 << 16, "krr", "async"},            {4, 16, 4, 4, 1 << 18, "prylli", "greedy"}};
}

std::vector<ValidationCase> benchmark_validation_cases(Index rows, Index cols) {
  std::vector<ValidationCase> cases;
  for (const DescriptorPair& pair : benchmark_pairs(4, rows, cols)) {
    ValidationCase c{.indexing = "prylli", .schedule = "async"};
    c.matrix = MatrixCopy::whole(pair.from, pair.to);
    cases.push_back(std::move(c));
  }
  return cases;
}

namespace {

// Bounded, and only from a regular file: an unbounded read of /dev/zero never ended, and the
// checks SimGrid's loader needs (its document type, a closed comment, a known routing) come first,
// so a damaged platform is named before any measurement rather than after all of them.
std::string platform_text(const std::string& platform) {
  sim::check_platform_text(platform);
  return os::read_input_file(platform, os::kMaxPlatformBytes, "platform");
}

// redist-mpi's layout flags of a case: 1-D, or the two descriptors and, for a submatrix copy, B's
// size and the submatrices (--dst-matrix, --src-at, --dst-at, --sub: the simulator's dst_matrix,
// src_at, dst_at and sub, read alike by requested_matrix_copy).
std::string layout_arguments(const ValidationCase& c) {
  if (!c.matrix) return fmt::format("-P {} -r {} -Q {} -s {} -N {}", c.P, c.r, c.Q, c.s, c.N);
  const auto side = [](const ScalapackDescriptor& d, const char* name) {
    return fmt::format(" --{0}-grid {1}x{2} --{0}-block {3}x{4} --{0}-first {5},{6} --{0}-order {7}", name, d.grid_rows,
                       d.grid_cols, d.row_block, d.col_block, d.first_row, d.first_col,
                       d.order == StorageOrder::RowMajor ? "row-major" : "column-major");
  };
  std::string arguments = fmt::format("--rows {} --cols {}", c.matrix->from.rows, c.matrix->from.cols) +
                          side(c.matrix->from, "src") + side(c.matrix->to, "dst");
  if (c.submatrix()) {
    const MatrixCopy& m = *c.matrix;
    arguments += fmt::format(" --dst-matrix {}x{} --src-at {},{} --dst-at {},{} --sub {}x{}", m.to.rows, m.to.cols,
                             m.from_row0 + 1, m.from_col0 + 1, m.to_row0 + 1, m.to_col0 + 1, m.rows, m.cols);
  }
  return arguments;
}

// How a case asks redist-mpi to move it: a submatrix copy runs the drop-in's plan, which takes no
// indexing, schedule or relabelling (redist-mpi refuses them, as the simulator does).
std::string method_arguments(const ValidationCase& c) {
  if (c.submatrix()) return "";
  return fmt::format(" --indexing {} --schedule {} --relabel {}", c.indexing, c.schedule, c.relabel);
}

}  // namespace

int platform_core_count(const std::string& platform) {
  const std::string xml = platform_text(platform);
  const auto host = xml.find("<host ");
  if (host == std::string::npos) throw std::runtime_error(platform + " declares no host");
  const auto end = xml.find('>', host);
  const auto core = xml.find("core=\"", host);
  if (core == std::string::npos || core > end) return 1;
  return std::max(1, std::atoi(xml.c_str() + core + 6));
}

int platform_host_count(const std::string& platform) {
  const std::string xml = platform_text(platform);
  int hosts = 0;
  for (std::size_t at = xml.find("<host "); at != std::string::npos; at = xml.find("<host ", at + 1)) ++hosts;
  if (hosts == 0) throw std::runtime_error(platform + " declares no host");
  return hosts;
}

Phases measure_case(const MpiLauncher& launcher, const ValidationCase& c, int repeat) {
  const std::string arguments =
      fmt::format("run {}{} --placement {} --repeat {}{} --json", layout_arguments(c), method_arguments(c),
                  c.placement(), repeat, c.pdgemr2d ? " --reference pdgemr2d" : "");
  const bool pdgemr2d = c.pdgemr2d;
  const auto [verified, phases] =
      launcher.read_json(static_cast<int>(c.ranks()), arguments, [pdgemr2d](const nlohmann::json& json) {
        if (pdgemr2d) {  // pdgemr2d's total alone: its phases are not timed apart
          const auto& reference = json.at("pdgemr2d");
          return std::pair(reference.at("verified").get<bool>() && reference.at("identical").get<bool>(),
                           Phases{.total = reference.at("seconds").get<double>()});
        }
        const auto& p = json.at("phases");
        return std::pair(json.at("verified").get<bool>(),
                         Phases{.index = p.at("index").get<double>(), .pack = p.at("pack").get<double>(),
                                .comm = p.at("comm").get<double>(), .unpack = p.at("unpack").get<double>(),
                                .total = p.at("total").get<double>()});
      });
  if (!verified) throw std::runtime_error("MPI run not verified: " + c.label());
  return phases;
}

// The redistribute experiment of `redist simulate` and scenarios, its ranks on the platform's hosts in turn.
Phases simulate_case(const std::string& platform, const ValidationCase& c, int hosts) {
  Params params = c.matrix ? sim::redistribute_matrix_params(*c.matrix)
                          : Params{{"P", c.P}, {"r", c.r}, {"Q", c.Q}, {"s", c.s}, {"N", c.N}};
  if (c.pdgemr2d) {
    params["method"] = "pdgemr2d";
  } else if (!c.submatrix()) {  // a submatrix copy runs the drop-in's plan: the simulator refuses choices
    params["indexing"] = c.indexing;
    params["schedule"] = c.schedule;
    params["relabel"] = c.relabel;
  }
  params["placement"] = c.placement();
  params["hosts"] = hosts;
  const auto result = sim::find_experiment("redistribute").run(platform, params, Payload::Real, "");
  if (!result.verified.value_or(false)) throw std::runtime_error("simulated run not verified: " + c.label());
  return result.phases;
}

CaseMeasurements measure_cases(const MpiLauncher& launcher, const std::vector<ValidationCase>& all, int repeat,
                               int rounds) {
  CaseMeasurements m{std::vector<Phases>(all.size()), std::vector<std::vector<double>>(all.size())};
  for (int round = 0; round < rounds; ++round) {
    for (std::size_t i = 0; i < all.size(); ++i) {
      const Phases run = measure_case(launcher, all[i], repeat);
      if (round == 0 || run.total < m.fastest[i].total) m.fastest[i] = run;
      m.totals[i].push_back(run.total);
    }
  }
  return m;
}

}  // namespace redist::calibration
