#include "call_options.hpp"

#include <memory>

#include "redist/predict/machine_model_json.hpp"

namespace py = pybind11;

namespace redist::python {
namespace {

constexpr const char* kOptionNames = "indexing, schedule, relabel, model, placement";

// A name given as a str, or why not.
std::string name_problem(const std::string& option, const py::handle& value, std::string& name) {
  if (!py::isinstance<py::str>(value)) return option + " must be a name (str), got " + py::repr(value).cast<std::string>();
  name = value.cast<std::string>();
  return "";
}

}  // namespace

CallOptions call_options(const py::dict& given, const Layout& source) {
  CallOptions out;
  for (const auto& [key, value] : given) {
    if (!out.problem.empty()) break;
    const auto option = key.cast<std::string>();
    if (option == "indexing") {
      out.problem = name_problem(option, value, out.options.indexing);
    } else if (option == "schedule") {
      out.problem = name_problem(option, value, out.options.schedule);
    } else if (option == "relabel") {
      out.problem = name_problem(option, value, out.options.relabel);
    } else if (option == "placement") {
      std::string placement;
      out.problem = name_problem(option, value, placement);
      if (out.problem.empty() && placement == "disjoint") {
        out.options.ranks = RankMap::disjoint(source.processors());
      } else if (out.problem.empty() && placement != "shared") {
        out.problem = "placement '" + placement + "' is neither shared nor disjoint";
      }
    } else if (option == "model") {
      if (value.is_none()) continue;
      try {
        const auto path = py::str(py::module_::import("os").attr("fspath")(value)).cast<std::string>();
        out.options.model = std::make_shared<const MachineModel>(load_machine_model(path));
      } catch (const py::error_already_set&) {
        out.problem = "model must be a file name, got " + py::repr(value).cast<std::string>();
      } catch (const std::exception& e) {
        out.problem = e.what();
      }
    } else {
      out.problem = "no option '" + option + "' (the options are " + kOptionNames + ")";
    }
  }
  return out;
}

}  // namespace redist::python
