// `redist validate --platform FILE [--quick] [--repeat K] [--max-error E] [--json]`: runs a set of
// 1-D redistributions (several P/Q/r/s, methods, schedules, sizes) for real under mpirun and in the
// simulator on a platform written by `redist calibrate`, and reports per case the measured and
// simulated total time (maximum over ranks) and their ratio, then the median |sim - real| / real.
// Simulated ranks sit on the platform's hosts in turn (rank i on node-(i mod hosts)), as
// oversubscribed MPI ranks share the cores.
#include <algorithm>
#include <cmath>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "command.hpp"
#include "mpi_launch.hpp"
#include "options.hpp"
#include "redist/sim/experiments.hpp"

namespace redist::cli {
namespace {

struct ValidateOptions {
  std::string platform;
  bool quick = false;
  int repeat = 5;
  double max_error = -1;
  bool json = false;
  MpiLauncher launcher;
};

struct Case {
  Index P, r, Q, s, N;
  const char* indexing;
  const char* schedule;
  bool disjoint = false;
  Index ranks() const { return disjoint ? P + Q : std::max(P, Q); }
  std::string label() const {
    return fmt::format("P={} r={} Q={} s={} N={} {}/{}{}", P, r, Q, s, N, indexing, schedule, disjoint ? " disjoint" : "");
  }
};

std::vector<Case> cases(bool quick) {
  if (quick) {
    return {{2, 4, 2, 16, 1 << 14, "prylli", "async"}, {2, 1, 2, 8, 1 << 14, "krr", "caterpillar"},
            {1, 100, 2, 1, 1 << 14, "pitfalls", "greedy"}};
  }
  return {{2, 4, 2, 16, 1 << 20, "prylli", "async"},       {2, 1, 2, 8, 1 << 21, "krr", "async"},
          {1, 1000, 2, 1, 1 << 20, "pitfalls", "caterpillar"}, {2, 64, 1, 64, 1 << 21, "naive", "async"},
          {2, 3, 2, 5, 1 << 20, "pitfalls", "greedy"},      {2, 1, 2, 1024, 1 << 22, "prylli", "stepwise"},
          {3, 8, 3, 2, 1 << 20, "krr", "async"},            {3, 5, 2, 7, 1 << 20, "prylli", "caterpillar"},
          {4, 1, 4, 16, 1 << 21, "krr", "async"},           {4, 32, 4, 8, 1 << 21, "pitfalls", "walker-otto"},
          {2, 4, 2, 8, 1 << 20, "prylli", "async", true},   {4, 7, 3, 11, 1 << 20, "naive", "greedy"},
          {2, 2, 2, 2, 1 << 16, "krr", "async"},            {4, 16, 4, 4, 1 << 18, "prylli", "greedy"}};
}

int host_count(const std::string& platform) {
  std::ifstream in(platform);
  if (!in) throw std::runtime_error("cannot read platform " + platform);
  std::stringstream text;
  text << in.rdbuf();
  const std::string xml = text.str();
  int hosts = 0;
  for (std::size_t at = xml.find("<host "); at != std::string::npos; at = xml.find("<host ", at + 1)) ++hosts;
  if (hosts == 0) throw std::runtime_error(platform + " declares no host");
  return hosts;
}

double measured_total(const ValidateOptions& o, const Case& c) {
  const auto out = o.launcher.run(
      static_cast<int>(c.ranks()),
      fmt::format("run -P {} -r {} -Q {} -s {} -N {} --indexing {} --schedule {} --placement {} --repeat {} --json", c.P,
                  c.r, c.Q, c.s, c.N, c.indexing, c.schedule, c.disjoint ? "disjoint" : "shared", o.repeat));
  const auto json = nlohmann::json::parse(out);
  if (!json.at("verified").get<bool>()) throw std::runtime_error("MPI run not verified: " + c.label());
  return json.at("phases").at("total").get<double>();
}

// The redistribute experiment of `redist simulate` and scenarios, its ranks on the platform's hosts in turn.
double simulated_total(const ValidateOptions& o, const Case& c, int hosts) {
  const Params params = {{"P", c.P}, {"r", c.r}, {"Q", c.Q}, {"s", c.s}, {"N", c.N},
                         {"indexing", c.indexing}, {"schedule", c.schedule},
                         {"placement", c.disjoint ? "disjoint" : "shared"}, {"hosts", hosts}};
  const auto result = sim::find_experiment("redistribute").run(o.platform, params, Payload::Real, "");
  if (!result.verified.value_or(false)) throw std::runtime_error("simulated run not verified: " + c.label());
  return result.phases.total;
}

int run_validate(const ValidateOptions& o) {
  const int hosts = host_count(o.platform);
  nlohmann::ordered_json rows = nlohmann::ordered_json::array();
  std::vector<double> errors;
  if (!o.json) std::cout << "| case | ranks | measured s | simulated s | simulated/measured |\n|---|---|---|---|---|\n";
  for (const Case& c : cases(o.quick)) {
    const double real = measured_total(o, c);
    const double simulated = simulated_total(o, c, hosts);
    errors.push_back(std::abs(simulated - real) / real);
    rows.push_back({{"case", c.label()}, {"ranks", c.ranks()}, {"measured", real}, {"simulated", simulated},
                    {"ratio", simulated / real}});
    if (!o.json) {
      std::cout << fmt::format("| {} | {} | {:.4e} | {:.4e} | {:.2f} |\n", c.label(), c.ranks(), real, simulated,
                               simulated / real)
                << std::flush;
    }
  }
  std::vector<double> sorted = errors;
  std::sort(sorted.begin(), sorted.end());
  const std::size_t n = sorted.size();
  const double median = n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  if (o.json) {
    std::cout << nlohmann::ordered_json{{"platform", o.platform}, {"cases", rows}, {"median_relative_error", median}}.dump()
              << "\n";
  } else {
    std::cout << fmt::format("median |simulated - measured| / measured: {:.1f}% over {} cases\n", 100 * median, n);
  }
  return o.max_error >= 0 && median > o.max_error ? 1 : 0;
}

}  // namespace

void add_validate_command(CLI::App& root, Commands& commands) {
  auto o = std::make_shared<ValidateOptions>();
  auto* app = root.add_subcommand("validate", "Compare real MPI runs with the simulator on a calibrated platform");
  app->add_option("--platform", o->platform, "platform written by `redist calibrate`")->required()->check(CLI::ExistingFile);
  app->add_flag("--quick", o->quick, "three small cases instead of the full set");
  app->add_option("--repeat", o->repeat, "MPI repetitions per case (the fastest counts)")
      ->check(CLI::Range(1, 1000))
      ->capture_default_str();
  app->add_option("--max-error", o->max_error, "exit 1 when the median relative error exceeds this (e.g. 0.25)")
      ->check(CLI::Range(0.0, 100.0));
  app->add_option("--redist-mpi", o->launcher.redist_mpi, "redist-mpi program (default: the one built with redist)");
  app->add_option("--mpirun", o->launcher.mpirun, "MPI launcher command")->capture_default_str();
  app->add_flag("--json", o->json, "print the cases and the median error as JSON");
  commands.push_back({app, [o] { return run_validate(*o); }});
}

}  // namespace redist::cli
