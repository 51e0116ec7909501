// `redist simulate --platform F -P -r -Q -s -N [--elem-bytes] [--indexing] [--schedule] [--json]`:
// one 1-D redistribution CYCLIC(r)/P -> CYCLIC(s)/Q of N elements on a simulated platform. Its run
// flags are the redistribute experiment's parameters (experiment_options.hpp).
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>

#include <fmt/format.h>

#include "command.hpp"
#include "experiment_options.hpp"
#include "redist/core/atomic_file.hpp"
#include "options.hpp"
#include "redist/analysis/redistribution_json.hpp"
#include "redist/sim/experiments.hpp"

namespace redist::cli {
namespace {

struct SimulateOptions {
  std::string platform;
  std::shared_ptr<ExperimentOptions> run;
  Payload payload = kDefaultPayload;
  bool json = false;
  std::string trace;
};

std::string platform_name(const std::string& path) { return std::filesystem::path(path).stem().string(); }

void print_text(const SimulateOptions& o, const ParameterValues& v, const sim::ExperimentResult& run) {
  std::cout << fmt::format("{}: CYCLIC({}) on {} -> CYCLIC({}) on {}, N = {} elements of {} bytes\n",
                           platform_name(o.platform), v.integer("r"), v.integer("P"), v.integer("s"), v.integer("Q"),
                           v.integer("N"), v.integer("elem_bytes"));
  std::cout << fmt::format("indexing {}, schedule {}, {} processor sets{}\n", v.text("indexing"), v.text("schedule"),
                           v.text("placement"), run.phantom ? ", phantom payload" : "");
  if (v.integer("repeat") > 1) {
    std::cout << fmt::format("one plan executed {} times: index is the plan, the other phases the mean execution\n",
                             v.integer("repeat"));
  }
  std::cout << phases_text(run.phases, redistribution_phases());
  std::cout << fmt::format("messages {}, bytes {}, verified {}\n", run.messages, run.bytes,
                           run.verified ? (*run.verified ? "yes" : "NO") : "n/a (phantom)");
  if (v.text("relabel") != "none") {
    std::cout << fmt::format("relabelled ({}): bytes kept on their rank {} (unrelabelled {})\n", v.text("relabel"),
                             run.quantities.at("bytes_kept"), run.quantities.at("bytes_kept_unrelabelled"));
  }
}

nlohmann::ordered_json to_json(const SimulateOptions& o, const ParameterValues& v, const sim::ExperimentResult& run) {
  auto json = redistribution_json({platform_name(o.platform), std::nullopt, v.integer("P"), v.integer("Q"),
                              nlohmann::ordered_json{{"r", v.integer("r")}, {"s", v.integer("s")}}, v.integer("N"),
                              run.phases, run.messages, run.bytes, run.verified, v.integer("elem_bytes"),
                              v.text("indexing"), v.text("schedule"), v.text("placement"), run.phantom});
  if (v.integer("repeat") > 1) json["repeat"] = v.integer("repeat");  // one plan, executed this many times
  if (v.text("relabel") != "none") {
    json["relabel"] = {{"method", v.text("relabel")},
                       {"bytes_kept", run.quantities.at("bytes_kept")},
                       {"bytes_kept_unrelabelled", run.quantities.at("bytes_kept_unrelabelled")}};
  }
  return json;
}

int run_simulate(const SimulateOptions& o) {
  const ParameterValues v = o.run->values();
  const auto& experiment = sim::find_experiment("redistribute");
  // SimGrid writes the trace under a temporary name, published once the run succeeded.
  std::optional<core::PendingFile> trace;
  if (!o.trace.empty()) trace.emplace(o.trace);
  const auto result = experiment.run(o.platform, v.given(), o.payload, trace ? trace->path().string() : "");
  if (trace) trace->publish();
  if (o.json) {
    std::cout << to_json(o, v, result).dump() << '\n';
  } else {
    print_text(o, v, result);
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
