// redist._simulator: the simulator's commands for the Python package (python/redist/__init__.py turns
// their JSON into records). Each function calls the library functions its `redist` command calls
// (cli/simulate_command.cpp, explain_command.cpp, replay_command.cpp) and returns the JSON the
// command prints, so that the two cannot drift apart. Every simulation runs in a forked child
// (sim/redist/sim/isolated_run.hpp), which is what lets one Python process simulate again and again
// although SimGrid starts once per process. The GIL is released while simulations run.
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "experiment_parameters.hpp"
#include "explain_request.hpp"
#include "redist/experiments/payload.hpp"
#include "redist/os/atomic_file.hpp"
#include "redist/predict/machine_model_json.hpp"
#include "redist/experiments/candidate_predictions.hpp"
#include "redist/experiments/experiments.hpp"
#include "redist/experiments/replay.hpp"
#include "redist/experiments/run_reports.hpp"
#include "repository_folders.hpp"

namespace py = pybind11;

namespace redist::python {
namespace {

// `redist simulate --platform PLATFORM [flags] --payload PAYLOAD [--trace TRACE] --json`.
std::string simulate(const std::string& platform, const py::dict& given, const std::string& payload_name,
                     const std::string& trace_file) {
  const auto& experiment = sim::find_experiment("redistribute");
  const ParameterValues v(experiment.spec, command_parameters(experiment.spec, given));
  const Payload payload = payload_names().from_name(payload_name);
  std::optional<os::PendingFile> trace;  // published once the run succeeded, as the command does
  if (!trace_file.empty()) trace.emplace(trace_file);
  sim::ExperimentResult result;
  {
    py::gil_scoped_release simulating;
    result = experiment.run(platform, v.given(), payload, trace ? trace->path().string() : "");
  }
  if (trace) trace->publish();
  return sim::redistribution_run_json(platform, v, result).dump();
}

// `redist explain --platform PLATFORM [flags] [--write-model FILE] --json`.
std::string explain(const std::string& platform, const py::dict& given, const std::string& write_model) {
  const ExplainRequest request = explain_request(platform, given);
  py::gil_scoped_release predicting;
  const MachineModel model = sim::request_machine_model(request);
  if (!write_model.empty()) {
    os::PendingFile file(write_model);
    file.write(machine_model_to_json(model) + "\n");
    file.publish();
  }
  return explanation_json(request, sim::predict_candidates(request, model)).dump();
}

// `redist replay FILES --out OUT --json --no-plot` or `redist sweep`: the JSON reports, one per scenario.
std::string run_scenarios(const std::vector<std::string>& files, bool sweep, const std::string& out, int jobs,
                          const std::string& platform) {
  if (jobs < 1 || jobs > 256) throw std::invalid_argument("jobs: " + std::to_string(jobs) + " not in [1 - 256]");
  sim::ReplaySettings settings;
  settings.repo_root = repository_root();
  settings.out = out;
  settings.json = true;
  settings.jobs = jobs;
  settings.plots = {false, settings.repo_root / "reports"};
  settings.platform = platform;
  std::ostringstream reports;
  settings.out_stream = &reports;
  py::gil_scoped_release simulating;
  sim::run_scenarios(settings, files, sweep ? ScenarioUse::Sweep : ScenarioUse::Replay);
  return reports.str();
}

}  // namespace
}  // namespace redist::python

PYBIND11_MODULE(_simulator, m) {
  using namespace redist;
  using namespace redist::python;
  m.doc() = "redist's simulator, as the redist command runs it (use the functions of the redist package)";
  m.def("simulate", &simulate, py::arg("platform"), py::arg("parameters"), py::arg("payload"), py::arg("trace"));
  m.def("explain", &explain, py::arg("platform"), py::arg("request"), py::arg("write_model"));
  m.def("run_scenarios", &run_scenarios, py::arg("files"), py::arg("sweep"), py::arg("out"), py::arg("jobs"),
        py::arg("platform"));
  m.def("platform_file", &platform_file, py::arg("name"));
  m.def("repository_root", [] { return repository_root().string(); });
  m.def("experiment_parameters", [] {
    std::vector<std::string> names;
    for (const ParameterSpec& p : sim::find_experiment("redistribute").spec.parameters) {
      if (p.on_command_line) names.push_back(p.name);
    }
    return names;
  });
}
