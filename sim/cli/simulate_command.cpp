// `redist simulate --platform F -P -r -Q -s -N [--elem-bytes] [--indexing] [--schedule] [--json]`:
// one 1-D redistribution CYCLIC(r)/P -> CYCLIC(s)/Q of N elements on a simulated platform.
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>

#include <fmt/format.h>

#include "command.hpp"
#include "redist/core/atomic_file.hpp"
#include "options.hpp"
#include "redist/analysis/redistribution_json.hpp"
#include "redist/sim/experiments.hpp"

namespace redist::cli {
namespace {

struct SimulateOptions {
  std::string platform;
  Index P = 0, r = 0, Q = 0, s = 0, N = 0;
  Index elem_bytes = 8;
  std::string indexing = "naive";
  std::string schedule = "async";
  std::string placement = "shared";
  std::string work = "redist";
  bool phantom = false;
  bool json = false;
  std::string trace;
};

std::string platform_name(const std::string& path) { return std::filesystem::path(path).stem().string(); }

void print_text(const SimulateOptions& o, const sim::ExperimentResult& run) {
  std::cout << fmt::format("{}: CYCLIC({}) on {} -> CYCLIC({}) on {}, N = {} elements of {} bytes\n",
                           platform_name(o.platform), o.r, o.P, o.s, o.Q, o.N, o.elem_bytes);
  std::cout << fmt::format("indexing {}, schedule {}, {} processor sets{}\n", o.indexing, o.schedule, o.placement,
                           o.phantom ? ", phantom payload" : "");
  std::cout << phases_text(run.phases, redistribution_phases());
  std::cout << fmt::format("messages {}, bytes {}, verified {}\n", run.messages, run.bytes,
                           run.verified ? (*run.verified ? "yes" : "NO") : "n/a (phantom)");
}

nlohmann::ordered_json to_json(const SimulateOptions& o, const sim::ExperimentResult& run) {
  return redistribution_json({platform_name(o.platform), std::nullopt, o.P, o.Q,
                              nlohmann::ordered_json{{"r", o.r}, {"s", o.s}}, o.N,
                              run.phases, run.messages, run.bytes, run.verified, o.elem_bytes, o.indexing,
                              o.schedule, o.placement, o.phantom});
}

int run_simulate(const SimulateOptions& o) {
  Params params = {{"P", o.P}, {"Q", o.Q}, {"r", o.r}, {"s", o.s}, {"N", o.N}, {"elem_bytes", o.elem_bytes},
                   {"indexing", o.indexing}, {"schedule", o.schedule}, {"placement", o.placement},
                   {"work", o.work}};
  const auto& experiment = sim::find_experiment("redistribute");
  for (const auto& [name, value] : params.items()) experiment.spec.check_value(name, value);
  // SimGrid writes the trace under a temporary name, published once the run succeeded.
  std::optional<core::PendingFile> trace;
  if (!o.trace.empty()) trace.emplace(o.trace);
  const auto result = experiment.run(o.platform, params, o.phantom ? sim::Payload::Phantom : sim::Payload::Real,
                                     trace ? trace->path().string() : "");
  if (trace) trace->publish();
  if (o.json) {
    std::cout << to_json(o, result).dump() << '\n';
  } else {
    print_text(o, result);
  }
  return 0;
}

}  // namespace

void add_simulate_command(CLI::App& root, Commands& commands) {
  auto o = std::make_shared<SimulateOptions>();
  auto* app = root.add_subcommand("simulate", "Simulate one redistribution CYCLIC(r)/P -> CYCLIC(s)/Q on a platform");
  app->add_option("--platform", o->platform, "SimGrid platform file (platforms/*.xml)")->required();
  app->add_option("-P", o->P, "source processors")->required()->check(whole_number());
  app->add_option("-r", o->r, "source block size")->required()->check(whole_number());
  app->add_option("-Q", o->Q, "destination processors")->required()->check(whole_number());
  app->add_option("-s", o->s, "destination block size")->required()->check(whole_number());
  app->add_option("-N", o->N, "array size in elements")->required()->check(whole_number());
  app->add_option("--elem-bytes", o->elem_bytes, "bytes per element")->check(whole_number())->capture_default_str();
  app->add_option("--indexing", o->indexing, "indexing method")->capture_default_str();
  app->add_option("--schedule", o->schedule, "communication schedule")->capture_default_str();
  app->add_option("--placement", o->placement, "source and destination processors: shared ranks or disjoint")
      ->check(CLI::IsMember({"shared", "disjoint"}))
      ->capture_default_str();
  app->add_option("--work", o->work, "whose local work is charged: redist's own code, or paper 000's programs")
      ->check(CLI::IsMember({"redist", "paper"}))
      ->capture_default_str();
  app->add_flag("--phantom", o->phantom, "payload sizes only, no bytes (for sizes that do not fit in memory)");
  app->add_option("--trace", o->trace, "write SimGrid's Paje trace to this file");
  app->add_flag("--json", o->json, "print JSON (the shape of docs/ARCHITECTURE.md §7)");
  add_max_memory_option(app);
  commands.push_back({app, [o] { return run_simulate(*o); }});
}

}  // namespace redist::cli
