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
#include "redist/analysis/simulation_report.hpp"
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

void print_text(const SimulateOptions& o, const ParameterValues& v, const RunSummary& run, bool phantom) {
  std::cout << fmt::format("{}: CYCLIC({}) on {} -> CYCLIC({}) on {}, N = {} elements of {} bytes\n",
                           platform_name(o.platform), v.integer("r"), v.integer("P"), v.integer("s"), v.integer("Q"),
                           v.integer("N"), v.integer("elem_bytes"));
  std::cout << fmt::format("indexing {}, schedule {}, {} processor sets{}\n", v.text("indexing"), v.text("schedule"),
                           v.text("placement"), phantom ? ", phantom payload" : "");
  std::cout << "phase     seconds (max over ranks)\n";
  const PhaseTimes& t = run.phases;
  for (const auto& [name, value] : {std::pair{"index", t.index}, std::pair{"pack", t.pack}, std::pair{"comm", t.comm},
                                    std::pair{"unpack", t.unpack}, std::pair{"total", t.total}}) {
    std::cout << fmt::format("{:<9} {:.6e}\n", name, value);
  }
  std::cout << fmt::format("messages {}, bytes {}, verified {}\n", run.messages, run.bytes,
                           run.verified ? (*run.verified ? "yes" : "NO") : "n/a (phantom)");
}

nlohmann::ordered_json to_json(const SimulateOptions& o, const ParameterValues& v, const RunSummary& run, bool phantom) {
  nlohmann::ordered_json json = {{"platform", platform_name(o.platform)},
                                 {"P", v.integer("P")}, {"Q", v.integer("Q")}, {"r", v.integer("r")},
                                 {"s", v.integer("s")}, {"N", v.integer("N")},
                                 {"phases", phases_json(run.phases)},
                                 {"messages", run.messages}, {"bytes", run.bytes}};
  json["verified"] = run.verified ? nlohmann::ordered_json(*run.verified) : nlohmann::ordered_json(nullptr);
  json["elem_bytes"] = v.integer("elem_bytes");
  json["indexing"] = v.text("indexing");
  json["schedule"] = v.text("schedule");
  json["placement"] = v.text("placement");
  json["phantom"] = phantom;
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
  const RunSummary run{{result.phases.at("index"), result.phases.at("pack"), result.phases.at("comm"),
                        result.phases.at("unpack"), result.phases.at("total")},
                       result.messages, result.bytes, result.verified, 0};
  if (o.json) {
    std::cout << to_json(o, v, run, result.phantom).dump() << '\n';
  } else {
    print_text(o, v, run, result.phantom);
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
