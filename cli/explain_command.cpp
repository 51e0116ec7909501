// `redist explain --platform F -P -r -Q -s -N [--indexing|--schedule|--relabel NAME|auto] [--simulate]`:
// every candidate way of redistributing CYCLIC(r)/P -> CYCLIC(s)/Q, its phases as the prediction
// prices them on the platform's machine model (redist/predict/prediction.hpp), and the one `auto`
// picks. With --simulate each candidate also runs in the simulator (phantom payload), so that the
// prediction can be judged against it.
#include <iostream>
#include <memory>

#include "command.hpp"
#include "options.hpp"
#include "redist/analysis/explanation.hpp"
#include "redist/os/atomic_file.hpp"
#include "redist/os/outputs_apart.hpp"
#include "redist/predict/machine_model_json.hpp"
#include "redist/sim/candidate_predictions.hpp"

namespace redist::cli {
namespace {

struct ExplainOptions : ExplainRequest {
  bool json = false;
  std::string write_model;
};

int run_explain(const ExplainOptions& o) {
  os::refuse_outputs_onto_inputs({{o.write_model, "--write-model"}}, {{o.platform, "--platform"}});
  const MachineModel model = sim::request_machine_model(o);
  if (!o.write_model.empty()) {
    os::PendingFile file(o.write_model);
    file.write(machine_model_to_json(model) + "\n");
    file.publish();
  }
  const Explanation answer = sim::predict_candidates(o, model);
  if (o.json) {
    std::cout << explanation_json(o, answer).dump() << "\n";
  } else {
    std::cout << explanation_text(o, answer);
  }
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
