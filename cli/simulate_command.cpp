// `redist simulate --platform F -P -r -Q -s -N [--elem-bytes] [--indexing] [--schedule] [--json]`:
// one 1-D redistribution CYCLIC(r)/P -> CYCLIC(s)/Q of N elements on a simulated platform. Its run
// flags are the redistribute experiment's parameters (experiment_options.hpp).
#include <iostream>
#include <memory>
#include <optional>

#include "command.hpp"
#include "experiment_options.hpp"
#include "options.hpp"
#include "redist/os/atomic_file.hpp"
#include "redist/os/outputs_apart.hpp"
#include "redist/experiments/experiments.hpp"
#include "redist/experiments/run_reports.hpp"

namespace redist::cli {
namespace {

struct SimulateOptions {
  std::string platform;
  std::shared_ptr<ExperimentOptions> run;
  Payload payload = kDefaultPayload;
  bool json = false;
  std::string trace;
};

int run_simulate(const SimulateOptions& o) {
  const ParameterValues v = o.run->values();
  const auto& experiment = sim::find_experiment("redistribute");
  // SimGrid writes the trace under a temporary name, published once the run succeeded.
  os::refuse_outputs_onto_inputs({{o.trace, "--trace"}}, {{o.platform, "--platform"}});
  std::optional<os::PendingFile> trace;
  if (!o.trace.empty()) trace.emplace(o.trace);
  const auto result = experiment.run(o.platform, v.given(), o.payload, trace ? trace->path().string() : "");
  if (trace) trace->publish();
  if (o.json) {
    std::cout << sim::redistribution_run_json(o.platform, v, result).dump() << '\n';
  } else {
    std::cout << sim::redistribution_run_text(o.platform, v, result);
  }
  return 0;
}

}  // namespace

void add_simulate_command(CLI::App& root, Commands& commands) {
  auto o = std::make_shared<SimulateOptions>();
  auto* app = root.add_subcommand("simulate", "Simulate one redistribution CYCLIC(r)/P -> CYCLIC(s)/Q on a platform");
  app->add_option("--platform", o->platform, "SimGrid platform file (platforms/*.xml)")->required();
  o->run = ExperimentOptions::add(app, sim::find_experiment("redistribute").spec);
  add_payload_options(app, o->payload);
  app->add_option("--trace", o->trace, "write SimGrid's Paje trace to this file");
  app->add_flag("--json", o->json, "print JSON (the shape of docs/ARCHITECTURE.md §7)");
  add_max_memory_option(app);
  commands.push_back({app, [o] { return run_simulate(*o); }});
}

}  // namespace redist::cli
