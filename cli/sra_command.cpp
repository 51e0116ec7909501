// `redist sra --platform F -n N -P P -x X -y Y [--method tr|sra] [--orientation row|column]
// [--elem-bytes B] [--payload P] [--json]`: one redistribution of a symmetric n×n matrix (paper 002)
// simulated on a platform, with the phases the paper reports (comp, comm, total). Its run flags are
// the sra experiment's parameters (experiment_options.hpp).
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>

#include "command.hpp"
#include "experiment_options.hpp"
#include "options.hpp"
#include "redist/os/atomic_file.hpp"
#include "redist/experiments/experiments.hpp"
#include "redist/experiments/run_reports.hpp"

namespace redist::cli {
namespace {

struct SraOptions {
  std::string platform;
  std::shared_ptr<ExperimentOptions> run;
  Payload payload = kDefaultPayload;
  bool json = false;
  std::string trace;
};

int run_sra(const SraOptions& o) {
  const ParameterValues v = o.run->values();
  const auto& experiment = sim::find_experiment("sra");
  if (!std::filesystem::is_regular_file(o.platform)) throw std::invalid_argument("no platform file '" + o.platform + "'");
  // SimGrid writes the trace under a temporary name, published once the run succeeded.
  std::optional<os::PendingFile> trace;
  if (!o.trace.empty()) trace.emplace(o.trace);
  const auto result = experiment.run(o.platform, v.given(), o.payload,
                                     trace ? trace->path().string() : "");
  if (trace) trace->publish();
  if (o.json) {
    std::cout << sim::sra_run_json(o.platform, v, result).dump() << '\n';
  } else {
    std::cout << sim::sra_run_text(o.platform, v, result);
  }
  return 0;
}

}  // namespace

void add_sra_command(CLI::App& root, Commands& commands) {
  auto o = std::make_shared<SraOptions>();
  auto* app = root.add_subcommand("sra", "Simulate one symmetric matrix redistribution BC(x,*) -> BC(y,*) by TR or SRA (paper 002)");
  app->add_option("--platform", o->platform, "SimGrid platform file (platforms/*.xml)")->required();
  o->run = ExperimentOptions::add(app, sim::find_experiment("sra").spec);
  add_payload_options(app, o->payload);
  app->add_option("--trace", o->trace, "write SimGrid's Paje trace to this file");
  app->add_flag("--json", o->json, "print the phases as JSON");
  add_max_memory_option(app);
  commands.push_back({app, [o] { return run_sra(*o); }});
}

}  // namespace redist::cli
