#include "experiment_parameters.hpp"

#include <stdexcept>
#include <string>

namespace py = pybind11;

namespace redist::python {
namespace {

// The names the experiment's command takes, for the message refusing another.
std::string command_parameter_list(const ExperimentSpec& spec) {
  std::string list;
  for (const ParameterSpec& p : spec.parameters) {
    if (p.on_command_line) list += (list.empty() ? "" : ", ") + p.name;
  }
  return list;
}

// A Python value as the JSON a scenario or the command line would give: bool before int (a Python
// bool is an int, and the schema refuses it by its JSON type), a list or tuple as a JSON array;
// anything else as its repr, which no parameter accepts.
nlohmann::json json_value(const py::handle& value) {
  if (py::isinstance<py::bool_>(value)) return value.cast<bool>();
  if (py::isinstance<py::int_>(value)) {
    try {
      return value.cast<std::int64_t>();
    } catch (const py::cast_error&) {
      return py::str(value).cast<std::string>();  // beyond 64 bits: refused as the command line refuses it
    }
  }
  if (py::isinstance<py::float_>(value)) return value.cast<double>();
  if (py::isinstance<py::str>(value)) return parameter_value(value.cast<std::string>());
  if (py::isinstance<py::list>(value) || py::isinstance<py::tuple>(value)) {  // as a scenario's [a, b]
    nlohmann::json list = nlohmann::json::array();
    for (const py::handle item : value) list.push_back(json_value(item));
    return list;
  }
  return py::repr(value).cast<std::string>();
}

}  // namespace

Params command_parameters(const ExperimentSpec& spec, const py::dict& given) {
  Params params = Params::object();
  for (const auto& [key, value] : given) {
    const auto name = key.cast<std::string>();
    const ParameterSpec* p = spec.parameter(name);
    if (p == nullptr || !p->on_command_line) {
      throw std::invalid_argument("redist " + spec.command + " takes no parameter '" + name + "' (it takes " +
                                  command_parameter_list(spec) + ")");
    }
    params[name] = json_value(value);
    spec.check_value(name, params[name]);
  }
  return params;
}

}  // namespace redist::python
