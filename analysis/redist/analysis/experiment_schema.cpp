#include "redist/analysis/experiment_schema.hpp"

#include <algorithm>
#include <stdexcept>

namespace redist {
namespace {

// "a, b or c".
std::string listed(const std::vector<std::string>& names) {
  std::string out;
  for (std::size_t k = 0; k < names.size(); ++k) {
    out += (k == 0 ? "" : k + 1 == names.size() ? " or " : ", ") + names[k];
  }
  return out;
}

std::string numbers_accepted(std::int64_t min, const std::optional<std::int64_t>& max) {
  if (max) return "a whole number from " + std::to_string(min) + " to " + std::to_string(*max);
  if (min == 1) return "a positive whole number";
  if (min == 0) return "a non-negative whole number";
  return "a whole number from " + std::to_string(min);
}

}  // namespace

std::string ParameterSpec::accepted() const {
  if (!min) return listed(names);
  const std::string numbers = numbers_accepted(*min, max);
  if (names.empty()) return numbers;
  return numbers + (names.size() == 1 ? " or " : ", ") + listed(names);
}

void ParameterSpec::check(const nlohmann::json& value) const {
  if (value.is_number_integer() && min) {
    const auto n = value.get<std::int64_t>();
    if (n >= *min && (!max || n <= *max)) return;
  }
  if (value.is_string() && std::find(names.begin(), names.end(), value.get<std::string>()) != names.end()) return;
  throw std::invalid_argument("parameter '" + name + "' must be " + accepted() + ", got " + value.dump());
}

const ParameterSpec* ExperimentSpec::parameter(const std::string& wanted) const {
  for (const auto& p : parameters) {
    if (p.name == wanted) return &p;
  }
  return nullptr;
}

std::vector<std::string> ExperimentSpec::parameter_names() const {
  std::vector<std::string> out;
  for (const auto& p : parameters) out.push_back(p.name);
  return out;
}

void ExperimentSpec::check_value(const std::string& wanted, const nlohmann::json& value) const {
  const ParameterSpec* p = parameter(wanted);
  if (p == nullptr) {
    std::string known;
    for (const auto& q : parameters) known += (known.empty() ? "" : ", ") + q.name;
    throw std::invalid_argument("unknown parameter '" + wanted + "' for experiment " + name +
                                " (expected one of: " + known + ")");
  }
  p->check(value);
}

nlohmann::json parameter_value(const std::string& text) {
  try {
    std::size_t used = 0;
    const long long n = std::stoll(text, &used);
    if (used == text.size()) return n;
  } catch (const std::logic_error&) {
  }
  return text;
}

std::string flag_name(const std::string& parameter) {
  if (parameter.size() == 1) return "-" + parameter;
  std::string flag = "--" + parameter;
  std::replace(flag.begin(), flag.end(), '_', '-');
  return flag;
}

ParameterValues::ParameterValues(const ExperimentSpec& spec, const Params& params) : spec_(spec), params_(params) {
  for (const auto& [name, value] : params_.items()) spec_.check_value(name, value);
}

bool ParameterValues::given(const std::string& name) const { return params_.contains(name); }

bool ParameterValues::has(const std::string& name) const {
  const ParameterSpec* p = spec_.parameter(name);
  return given(name) || (p != nullptr && !p->default_value.is_null());
}

const Params& ParameterValues::value(const std::string& name) const {
  if (given(name)) return params_.at(name);
  const ParameterSpec* p = spec_.parameter(name);
  if (p == nullptr) throw std::logic_error("experiment " + spec_.name + " has no parameter '" + name + "'");
  if (p->default_value.is_null()) throw std::invalid_argument("parameter '" + name + "' is not set");
  return p->default_value;
}

std::int64_t ParameterValues::integer(const std::string& name) const {
  const auto& v = value(name);
  if (!v.is_number_integer()) throw std::invalid_argument("parameter '" + name + "' must be a whole number here, got " + v.dump());
  return v.get<std::int64_t>();
}

std::string ParameterValues::text(const std::string& name) const {
  const auto& v = value(name);
  return v.is_string() ? v.get<std::string>() : v.dump();
}

bool ExperimentSpec::reports(const std::string& value) const {
  for (const Phase phase : phases) {
    if (phase_names().name_of(phase) == value) return true;
  }
  return std::find(quantities.begin(), quantities.end(), value) != quantities.end();
}

}  // namespace redist
