// `redist explain --platform F -P -r -Q -s -N [--indexing|--schedule|--relabel NAME|auto] [--simulate]`,
// or the 2-D form `--rows --cols --src-grid --src-block [--src-first --src-order] --dst-...`:
// every candidate way of redistributing CYCLIC(r)/P -> CYCLIC(s)/Q (or the whole matrix), its phases as the prediction
// prices them on the platform's machine model (redist/predict/prediction.hpp), and the one `auto`
// picks. With --simulate each candidate also runs in the simulator (phantom payload), so that the
// prediction can be judged against it.
#include <algorithm>
#include <iostream>
#include <memory>

#include "command.hpp"
#include "experiment_options.hpp"
#include "options.hpp"
#include "redist/reports/explanation.hpp"
#include "redist/os/atomic_file.hpp"
#include "redist/os/outputs_apart.hpp"
#include "redist/predict/machine_model_json.hpp"
#include "redist/experiments/candidate_predictions.hpp"
#include "redist/experiments/experiments.hpp"

namespace redist::cli {
namespace {

struct ExplainOptions : ExplainRequest {
  bool json = false;
  std::string write_model;
  std::shared_ptr<ExperimentOptions> matrix;  ///< the 2-D form's flags, as `redist simulate` takes them
};

int run_explain(const ExplainOptions& options) {
  os::refuse_outputs_onto_inputs({{options.write_model, "--write-model"}}, {{options.platform, "--platform"}});
  // -P, -Q, -N are 0 where not given (their flags take positive numbers).
  const ExplainRequest o = sim::with_layouts(options, options.matrix->values().given());
  const MachineModel model = sim::request_machine_model(o);
  if (!options.write_model.empty()) {
    os::PendingFile file(options.write_model);
    file.write(machine_model_to_json(model) + "\n");
    file.publish();
  }
  const Explanation answer = sim::predict_candidates(o, model);
  if (options.json) {
    std::cout << explanation_json(o, answer).dump() << "\n";
  } else {
    std::cout << explanation_text(o, answer);
  }
  return 0;
}

// Of the redistribute experiment's flags, explain takes the 2-D form's; the 1-D form and the
// choices are its own options above.
std::vector<std::string> explain_leaves_out() {
  const auto& matrix = sim::redistribute_matrix_parameters();
  std::vector<std::string> out;
  for (const std::string& name : sim::find_experiment("redistribute").spec.parameter_names()) {
    if (std::find(matrix.begin(), matrix.end(), name) == matrix.end()) out.push_back(name);
  }
  return out;
}

}  // namespace

void add_explain_command(CLI::App& root, Commands& commands) {
  auto o = std::make_shared<ExplainOptions>();
  auto* app = root.add_subcommand(
      "explain",
      "Predict every way of redistributing CYCLIC(r)/P -> CYCLIC(s)/Q, or a matrix between two ScaLAPACK descriptors, "
      "on a platform, and the one auto picks");
  app->add_option("--platform", o->platform, "SimGrid platform file (platforms/*.xml or one redist calibrate wrote)")
      ->required()
      ->check(CLI::ExistingFile);
  app->add_option("-P", o->P, "1-D: source processors")->check(whole_number())->check(positive());
  app->add_option("-Q", o->Q, "1-D: destination processors")->check(whole_number())->check(positive());
  app->add_option("-r", o->r, "source block size")->check(whole_number())->check(positive())->capture_default_str();
  app->add_option("-s", o->s, "destination block size")->check(whole_number())->check(positive())->capture_default_str();
  app->add_option("-N", o->N, "1-D: array size in elements")->check(whole_number())->check(positive());
  o->matrix = ExperimentOptions::add(app, sim::find_experiment("redistribute").spec, explain_leaves_out());
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
