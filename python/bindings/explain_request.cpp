#include "explain_request.hpp"

#include <algorithm>
#include <filesystem>
#include <functional>
#include <stdexcept>
#include <vector>

#include "experiment_parameters.hpp"
#include "redist/experiments/candidate_predictions.hpp"
#include "redist/experiments/experiments.hpp"

namespace py = pybind11;

namespace redist::python {
namespace {

// One keyword: its name, and how its value goes into the request.
struct Field {
  const char* name;
  std::function<void(ExplainRequest&, const std::string& name, const py::handle& value)> set;
};

Index whole_number(const std::string& name, const py::handle& value) {
  if (py::isinstance<py::bool_>(value) || !py::isinstance<py::int_>(value)) {
    throw std::invalid_argument(name + ": " + py::repr(value).cast<std::string>() + " is not a whole number");
  }
  try {
    return value.cast<Index>();
  } catch (const py::cast_error&) {
    throw std::invalid_argument(name + ": " + py::str(value).cast<std::string>() + " does not fit in a 64-bit integer");
  }
}

// The command's -P, -Q, -r, -s, -N, --elem-bytes, --hosts: positive whole numbers.
std::function<void(ExplainRequest&, const std::string&, const py::handle&)> positive(Index ExplainRequest::*field) {
  return [field](ExplainRequest& request, const std::string& name, const py::handle& value) {
    const Index n = whole_number(name, value);
    if (n <= 0) throw std::invalid_argument(name + ": must be positive, got " + std::to_string(n));
    request.*field = n;
  };
}

std::string text(const std::string& name, const py::handle& value) {
  if (!py::isinstance<py::str>(value)) {
    throw std::invalid_argument(name + ": " + py::repr(value).cast<std::string>() + " is not a name");
  }
  return value.cast<std::string>();
}

// Every keyword, in the command's order. A new field of ExplainRequest is one more line here.
// The 2-D form's keywords (rows, cols, src_grid, ...) are the redistribute experiment's, read as
// `redist simulate` reads them (sim::with_layouts).
const std::vector<Field> kFields = {
    {"P", positive(&ExplainRequest::P)},
    {"Q", positive(&ExplainRequest::Q)},
    {"r", positive(&ExplainRequest::r)},
    {"s", positive(&ExplainRequest::s)},
    {"N", positive(&ExplainRequest::N)},
    {"elem_bytes", positive(&ExplainRequest::elem_bytes)},
    {"placement",
     [](ExplainRequest& request, const std::string& name, const py::handle& value) {
       request.placement = text(name, value);
       if (request.placement != "shared" && request.placement != "disjoint") {
         throw std::invalid_argument(name + ": " + request.placement + " not in {shared,disjoint}");
       }
     }},
    {"hosts", positive(&ExplainRequest::hosts)},
    {"indexing", [](ExplainRequest& q, const std::string& n, const py::handle& v) { q.request.indexing = text(n, v); }},
    {"schedule", [](ExplainRequest& q, const std::string& n, const py::handle& v) { q.request.schedule = text(n, v); }},
    {"relabel", [](ExplainRequest& q, const std::string& n, const py::handle& v) { q.request.relabel = text(n, v); }},
    {"simulate",
     [](ExplainRequest& request, const std::string& name, const py::handle& value) {
       if (!py::isinstance<py::bool_>(value)) {
         throw std::invalid_argument(name + ": " + py::repr(value).cast<std::string>() + " is not True or False");
       }
       request.simulate = value.cast<bool>();
     }},
};

std::string field_list() {
  std::string list;
  for (const Field& f : kFields) list += (list.empty() ? "" : ", ") + std::string(f.name);
  return list;
}

}  // namespace

ExplainRequest explain_request(const std::string& platform, const py::dict& given) {
  if (!std::filesystem::is_regular_file(platform)) throw std::invalid_argument("platform: File does not exist: " + platform);
  ExplainRequest request;
  request.platform = platform;
  const auto& matrix_names = sim::redistribute_matrix_parameters();
  py::dict matrix;
  for (const auto& [key, value] : given) {
    const auto name = key.cast<std::string>();
    if (std::find(matrix_names.begin(), matrix_names.end(), name) != matrix_names.end()) {
      matrix[key] = value;
      continue;
    }
    const auto field = std::find_if(kFields.begin(), kFields.end(), [&](const Field& f) { return name == f.name; });
    if (field == kFields.end()) {
      throw std::invalid_argument("redist explain takes no parameter '" + name + "' (it takes " + field_list() +
                                  " and the 2-D form's rows, cols, src_grid, ...)");
    }
    field->set(request, name, value);
  }
  return sim::with_layouts(request, command_parameters(sim::find_experiment("redistribute").spec, matrix));
}

}  // namespace redist::python
