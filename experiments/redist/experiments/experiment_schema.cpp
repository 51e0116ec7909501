#include "redist/experiments/experiment_schema.hpp"

#include <algorithm>
#include <charconv>
#include <string_view>
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
  if (pair != 0) {
    // "a positive whole number" -> "A,B of two positive whole numbers"
    std::string each = numbers_accepted(min.value_or(0), max);
    each.replace(0, 1, "two");
    each.insert(each.find("number") + 6, "s");
    return std::string("A") + pair + "B of " + each;
  }
  if (!min) return listed(names);
  const std::string numbers = numbers_accepted(*min, max);
  if (names.empty()) return numbers;
  return numbers + (names.size() == 1 ? " or " : ", ") + listed(names);
}

std::optional<std::pair<std::int64_t, std::int64_t>> parse_pair(const std::string& text, char separator) {
  const auto cut = text.find(separator);
  if (cut == std::string::npos) return std::nullopt;
  const auto number = [](std::string_view part) -> std::optional<std::int64_t> {
    std::int64_t out = 0;
    const auto [end, error] = std::from_chars(part.data(), part.data() + part.size(), out);
    if (part.empty() || error != std::errc() || end != part.data() + part.size()) return std::nullopt;
    return out;
  };
  const auto a = number(std::string_view(text).substr(0, cut)), b = number(std::string_view(text).substr(cut + 1));
  if (!a || !b) return std::nullopt;
  return std::pair{*a, *b};
}

void ParameterSpec::check(const nlohmann::json& value) const {
  if (pair != 0 && value.is_string()) {
    const auto numbers = parse_pair(value.get<std::string>(), pair);
    const auto fits = [&](std::int64_t n) { return n >= min.value_or(0) && (!max || n <= *max); };
    if (numbers && fits(numbers->first) && fits(numbers->second)) return;
  }
  if (pair == 0 && value.is_number_integer() && min) {
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

std::pair<std::int64_t, std::int64_t> ParameterValues::pair(const std::string& name) const {
  const ParameterSpec* p = spec_.parameter(name);
  const auto numbers = p != nullptr && p->pair != 0 ? parse_pair(text(name), p->pair) : std::nullopt;
  if (!numbers) throw std::invalid_argument("parameter '" + name + "' must be " + (p ? p->accepted() : "a pair") + ", got " + value(name).dump());
  return *numbers;
}

bool ExperimentSpec::reports(const std::string& value) const {
  for (const Phase phase : phases) {
    if (phase_names().name_of(phase) == value) return true;
  }
  return std::find(quantities.begin(), quantities.end(), value) != quantities.end();
}

}  // namespace redist
