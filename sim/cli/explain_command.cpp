// `redist explain --platform F -P -r -Q -s -N [--indexing|--schedule|--relabel NAME|auto] [--simulate]`:
// every candidate way of redistributing CYCLIC(r)/P -> CYCLIC(s)/Q, its phases as the prediction
// prices them on the platform's machine model (redist/predict/prediction.hpp), and the one `auto`
// picks. With --simulate each candidate also runs in the simulator (phantom payload), so that the
// prediction can be judged against it.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <iostream>
#include <memory>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "command.hpp"
#include "options.hpp"
#include "redist/core/atomic_file.hpp"
#include "redist/predict/machine_model_json.hpp"
#include "redist/predict/prediction.hpp"
#include "redist/sim/experiments.hpp"
#include "redist/sim/machine_model_from_platform.hpp"

namespace redist::cli {
namespace {

struct ExplainOptions {
  std::string platform;
  Index P = 0, Q = 0, r = 1, s = 1, N = 0, elem_bytes = 8, hosts = 0;
  std::string placement = "shared";
  CandidateRequest request{kAutoName, kAutoName, kAutoName};
  bool simulate = false;
  bool json = false;
  std::string write_model;
};

struct Row {
  Prediction predicted;
  double simulated_total = -1;  ///< < 0: not simulated
};

double simulated_total(const ExplainOptions& o, const Candidate& c) {
  Params params = {{"P", o.P}, {"r", o.r}, {"Q", o.Q}, {"s", o.s}, {"N", o.N}, {"elem_bytes", o.elem_bytes},
                   {"indexing", c.indexing}, {"schedule", c.schedule}, {"placement", o.placement},
                   {"relabel", std::string(relabel_method_names().name_of(c.relabel))}};
  if (o.hosts > 0) params["hosts"] = o.hosts;
  return sim::find_experiment("redistribute").run(o.platform, params, Payload::Phantom, "").phases.total;
}

nlohmann::ordered_json phases_json(const Phases& p) {
  return {{"index", p.index}, {"pack", p.pack}, {"comm", p.comm}, {"unpack", p.unpack}, {"total", p.total}};
}

void print_text(const ExplainOptions& o, const std::vector<Row>& rows, std::size_t choice, double seconds) {
  std::cout << fmt::format("CYCLIC({}) on {} -> CYCLIC({}) on {}, N = {} elements of {} bytes, {} processor sets, on {}\n",
                           o.r, o.P, o.s, o.Q, o.N, o.elem_bytes, o.placement, o.platform);
  std::cout << fmt::format("{} candidates predicted in {:.3g} ms (seconds below)\n\n", rows.size(), 1e3 * seconds);
  std::cout << "| candidate | index | pack | comm | unpack | total |" << (o.simulate ? " simulated total | simulated/predicted |" : "")
            << "\n|---|---:|---:|---:|---:|---:|" << (o.simulate ? "---:|---:|" : "") << "\n";
  for (std::size_t k = 0; k < rows.size(); ++k) {
    const Phases& p = rows[k].predicted.phases;
    std::cout << fmt::format("| {}{} | {:.3e} | {:.3e} | {:.3e} | {:.3e} | {:.3e} |", rows[k].predicted.candidate.label(),
                             k == choice ? " (chosen)" : "", p.index, p.pack, p.comm, p.unpack, p.total);
    if (o.simulate) std::cout << fmt::format(" {:.3e} | {:.2f} |", rows[k].simulated_total, rows[k].simulated_total / p.total);
    std::cout << "\n";
  }
  std::cout << fmt::format("\nchoice: {} (predicted total {:.3e} s)\n", rows[choice].predicted.candidate.label(),
                           rows[choice].predicted.phases.total);
}

int run_explain(const ExplainOptions& o) {
  const Layout source = BlockCyclic(o.N, o.r, o.P);
  const Layout dest = BlockCyclic(o.N, o.s, o.Q);
  const RankMap ranks = o.placement == "disjoint" ? RankMap::disjoint(o.P) : RankMap::shared();
  const MachineModel model = sim::machine_model_from_platform(o.platform, ranks.ranks_needed(o.P, o.Q), o.hosts);
  if (!o.write_model.empty()) {
    core::PendingFile file(o.write_model);
    file.write(machine_model_to_json(model) + "\n");
    file.publish();
  }
  const auto start = std::chrono::steady_clock::now();
  const auto candidates = redist::candidates(source, dest, ranks, o.request);
  const auto predictions = predict_all_ranks(source, dest, o.elem_bytes, ranks, candidates, model);
  const std::size_t choice = fastest(predictions);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::vector<Row> rows;
  for (const Prediction& p : predictions) {
    rows.push_back({p, o.simulate ? simulated_total(o, p.candidate) : -1});
  }
  if (!o.json) {
    print_text(o, rows, choice, seconds);
    return 0;
  }
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const Row& row : rows) {
    const Candidate& c = row.predicted.candidate;
    nlohmann::ordered_json entry = {{"indexing", c.indexing}, {"schedule", c.schedule},
                                    {"relabel", relabel_method_names().name_of(c.relabel)},
                                    {"predicted", phases_json(row.predicted.phases)}};
    if (o.simulate) entry["simulated_total"] = row.simulated_total;
    list.push_back(entry);
  }
  std::cout << nlohmann::ordered_json{{"platform", o.platform}, {"P", o.P}, {"Q", o.Q}, {"r", o.r}, {"s", o.s},
                                      {"N", o.N}, {"elem_bytes", o.elem_bytes}, {"placement", o.placement},
                                      {"prediction_seconds", seconds}, {"candidates", list},
                                      {"choice", rows[choice].predicted.candidate.label()}}
                   .dump()
            << "\n";
  return 0;
}

}  // namespace

void add_explain_command(CLI::App& root, Commands& commands) {
  auto o = std::make_shared<ExplainOptions>();
  auto* app = root.add_subcommand(
      "explain", "Predict every way of redistributing CYCLIC(r)/P -> CYCLIC(s)/Q on a platform, and the one auto picks");
  app->add_option("--platform", o->platform, "SimGrid platform file (platforms/*.xml or one redist calibrate wrote)")
      ->required()
      ->check(CLI::ExistingFile);
  app->add_option("-P", o->P, "source processors")->required()->check(whole_number())->check(positive());
  app->add_option("-Q", o->Q, "destination processors")->required()->check(whole_number())->check(positive());
  app->add_option("-r", o->r, "source block size")->check(whole_number())->check(positive())->capture_default_str();
  app->add_option("-s", o->s, "destination block size")->check(whole_number())->check(positive())->capture_default_str();
  app->add_option("-N", o->N, "array size in elements")->required()->check(whole_number())->check(positive());
  app->add_option("--elem-bytes", o->elem_bytes, "bytes per element")->check(whole_number())->check(positive())->capture_default_str();
  app->add_option("--placement", o->placement, "source and destination processors: the same ranks or disjoint ones")
      ->check(CLI::IsMember({"shared", "disjoint"}))
      ->capture_default_str();
  app->add_option("--hosts", o->hosts, "hosts the ranks run on in turn (rank i on node-(i mod hosts)); absent: one per rank")
      ->check(whole_number())
      ->check(positive());
  app->add_option("--indexing", o->request.indexing, "an indexing method, or auto: every method that takes the pair")->capture_default_str();
  app->add_option("--schedule", o->request.schedule, "a schedule, or auto: every one that applies")->capture_default_str();
  app->add_option("--relabel", o->request.relabel, "none, exact, greedy, or auto: all three (shared placement only)")->capture_default_str();
  app->add_flag("--simulate", o->simulate, "also simulate every candidate (phantom payload) beside its prediction");
  app->add_option("--write-model", o->write_model,
                  "also write the machine model of these ranks on the platform, for redist-mpi run --model and "
                  "redist::mpi's options.model");
  app->add_flag("--json", o->json, "print JSON");
  commands.push_back({app, [o] { return run_explain(*o); }});
}

}  // namespace redist::cli
