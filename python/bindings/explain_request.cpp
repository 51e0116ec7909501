#include "explain_request.hpp"

#include <algorithm>
#include <filesystem>
#include <functional>
#include <stdexcept>
#include <vector>

namespace py = pybind11;

namespace redist::python {
namespace {

// One keyword: its name, whether it must be given, and how its value goes into the request.
struct Field {
  const char* name;
  bool required;
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
const std::vector<Field> kFields = {
    {"P", true, positive(&ExplainRequest::P)},
    {"Q", true, positive(&ExplainRequest::Q)},
    {"r", false, positive(&ExplainRequest::r)},
    {"s", false, positive(&ExplainRequest::s)},
    {"N", true, positive(&ExplainRequest::N)},
    {"elem_bytes", false, positive(&ExplainRequest::elem_bytes)},
    {"placement", false,
     [](ExplainRequest& request, const std::string& name, const py::handle& value) {
       request.placement = text(name, value);
       if (request.placement != "shared" && request.placement != "disjoint") {
         throw std::invalid_argument(name + ": " + request.placement + " not in {shared,disjoint}");
       }
     }},
    {"hosts", false, positive(&ExplainRequest::hosts)},
    {"indexing", false, [](ExplainRequest& q, const std::string& n, const py::handle& v) { q.request.indexing = text(n, v); }},
    {"schedule", false, [](ExplainRequest& q, const std::string& n, const py::handle& v) { q.request.schedule = text(n, v); }},
    {"relabel", false, [](ExplainRequest& q, const std::string& n, const py::handle& v) { q.request.relabel = text(n, v); }},
    {"simulate", false,
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
  for (const auto& [key, value] : given) {
    const auto name = key.cast<std::string>();
    const auto field = std::find_if(kFields.begin(), kFields.end(), [&](const Field& f) { return name == f.name; });
    if (field == kFields.end()) {
      throw std::invalid_argument("redist explain takes no parameter '" + name + "' (it takes " + field_list() + ")");
    }
    field->set(request, name, value);
  }
  for (const Field& f : kFields) {
    if (f.required && !given.contains(f.name)) throw std::invalid_argument(std::string(f.name) + " is required");
  }
  return request;
}

}  // namespace redist::python
