#include "redist/experiments/scenario.hpp"

#include "redist/experiments/platform_search.hpp"
#include "redist/experiments/yaml_reader.hpp"
#include "redist/os/utf8.hpp"

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <set>

#include <yaml-cpp/yaml.h>


namespace redist {
namespace {

namespace fs = std::filesystem;

// The ids by which scenarios name the five papers (docs/papers.md cites each): labels, not files.
const std::vector<std::string> kPaperIds = {"000_6d104d7264253a4e.txt", "001_755f2fbb920ffa1d.txt",
                                            "002_ed58e27783468658.txt", "003_67a697fb9e173c02.txt",
                                            "004_8dd692a5076a3200.txt"};

const std::vector<std::string> kTopLevelKeys = {"scenario", "paper",  "table",       "description", "platform",
                                                "experiment", "fixed", "sweep",      "methods",     "phases",
                                                "repetitions", "payload", "unit",    "published",   "ratios",
                                                "claims",      "role"};

// Builds "file:line: reason" errors for one scenario file.
class Reader : public YamlReader<ScenarioError> {
 public:
  using YamlReader::YamlReader;

  long long integer(const YAML::Node& node, const std::string& key) const {
    try {
      std::size_t used = 0;
      const auto value = text(node, key);
      const long long n = std::stoll(value, &used);
      if (used == value.size()) return n;
    } catch (const std::logic_error&) {
    }
    fail(node, "'" + key + "' must be a whole number, got '" + node.as<std::string>() + "'");
  }

  // A parameter value: a whole number when it reads as one, a string otherwise.
  nlohmann::json value(const YAML::Node& node, const std::string& key) const {
    if (!node.IsScalar()) fail(node, "parameter '" + key + "' must be a single value, not a list or mapping");
    return parameter_value(node.as<std::string>());
  }

  double real(const YAML::Node& node, const std::string& key) const {
    try {
      std::size_t used = 0;
      const auto value = text(node, key);
      const double x = std::stod(value, &used);
      if (used == value.size()) return x;
    } catch (const std::logic_error&) {
    }
    fail(node, "'" + key + "' must be a number, got '" + node.as<std::string>() + "'");
  }

  std::vector<std::string> text_list(const YAML::Node& node, const std::string& key) const {
    if (!node.IsSequence() || node.size() == 0) fail(node, "'" + key + "' must be a non-empty list");
    std::vector<std::string> out;
    for (const auto& item : node) out.push_back(text(item, key));
    return out;
  }

};

const ExperimentSpec& find_experiment(const Reader& in, const YAML::Node& at, const std::string& name,
                                      const std::vector<ExperimentSpec>& experiments) {
  std::string known;
  for (const auto& e : experiments) {
    if (e.name == name) return e;
    known += (known.empty() ? "" : ", ") + e.name;
  }
  in.fail(at, "unknown experiment '" + name + "' (known: " + known + ")");
}

// `check_value` false: only the name is checked (a claim's range of a parameter).
void check_parameter(const Reader& in, const YAML::Node& at, const ExperimentSpec& experiment, const std::string& name,
                     const nlohmann::json& value, bool check_value = true) {
  try {
    if (check_value || experiment.parameter(name) == nullptr) experiment.check_value(name, value);
  } catch (const std::invalid_argument& e) {
    in.fail(at, e.what());
  }
}

Params read_params(const Reader& in, const YAML::Node& map, const ExperimentSpec& experiment, const std::string& what) {
  in.require_map(map, what);
  Params params = Params::object();
  for (const auto& item : map) {
    const auto key = item.first.as<std::string>();
    const auto value = in.value(item.second, key);
    check_parameter(in, item.second, experiment, key, value);
    params[key] = value;
  }
  return params;
}

// The number of values of a sweep axis, counted without listing them: a range may reach 2^63 - 1
// (no step or factor may overflow) and may hold more values than memory could.
std::uint64_t axis_size(const Reader& in, const std::string& name, const YAML::Node& node) {
  if (node.IsSequence()) return node.size();
  if (!node.IsMap()) in.fail(node, "sweep '" + name + "' must be a list of values or a range {from, to, step|factor}");
  in.require_keys(node, {"from", "to", "step", "factor"}, "sweep range '" + name + "'");
  if (!node["from"] || !node["to"] || (!node["step"] == !node["factor"])) {
    in.fail(node, "sweep range '" + name + "' needs 'from', 'to' and exactly one of 'step' or 'factor'");
  }
  const long long from = in.integer(node["from"], "from"), to = in.integer(node["to"], "to");
  if (node["step"]) {
    const long long step = in.integer(node["step"], "step");
    if (step <= 0) in.fail(node["step"], "'step' must be positive");
    if (from > to) return 0;
    // to - from fits in 64 unsigned bits whatever the signs.
    return (static_cast<std::uint64_t>(to) - static_cast<std::uint64_t>(from)) / static_cast<std::uint64_t>(step) + 1;
  }
  const long long factor = in.integer(node["factor"], "factor");
  if (factor <= 1 || from <= 0) in.fail(node["factor"], "'factor' must exceed 1 and 'from' be positive");
  if (from > to) return 0;
  std::uint64_t count = 1;
  for (long long v = from; v <= to / factor; v *= factor) ++count;  // v * factor <= to: never overflows
  return count;
}

// The values of an axis already counted by axis_size (so each step below stays within [from, to]).
SweepAxis read_axis(const Reader& in, const std::string& name, const YAML::Node& node, std::uint64_t count) {
  SweepAxis axis{name, {}};
  axis.values.reserve(count);
  if (node.IsSequence()) {
    for (const auto& item : node) axis.values.push_back(in.value(item, name));
  } else if (node["step"]) {
    const long long from = in.integer(node["from"], "from"), step = in.integer(node["step"], "step");
    for (std::uint64_t k = 0; k < count; ++k) {
      axis.values.push_back(static_cast<long long>(static_cast<std::uint64_t>(from) + k * static_cast<std::uint64_t>(step)));
    }
  } else {
    const long long factor = in.integer(node["factor"], "factor");
    long long v = in.integer(node["from"], "from");
    for (std::uint64_t k = 0; k < count; ++k) {
      axis.values.push_back(v);
      if (k + 1 < count) v *= factor;
    }
  }
  if (axis.values.empty()) in.fail(node, "sweep '" + name + "' is empty");
  return axis;
}

// Refuses a scenario of more than `max_runs` runs before any axis is listed.
void check_run_count(const Reader& in, const YAML::Node& at, const std::vector<std::uint64_t>& axis_sizes,
                     std::size_t methods, std::uint64_t max_runs) {
  std::uint64_t runs = methods;
  bool overflow = false;
  std::string product;
  for (const std::uint64_t size : axis_sizes) {
    overflow = overflow || __builtin_mul_overflow(runs, size, &runs);
    product += std::to_string(size) + " x ";
  }
  if (!overflow && runs <= max_runs) return;
  const std::string count = overflow ? "more than 2^64" : std::to_string(runs);
  in.fail(at, "the scenario has " + count + " runs (" + product + std::to_string(methods) +
                  " methods), more than --max-runs " + std::to_string(max_runs));
}

std::vector<MethodSpec> read_methods(const Reader& in, const YAML::Node& node, const ExperimentSpec& experiment) {
  if (!node.IsSequence() || node.size() == 0) in.fail(node, "'methods' must be a non-empty list");
  std::vector<MethodSpec> methods;
  std::set<std::string> names;
  for (const auto& item : node) {
    in.require_map(item, "a method");
    MethodSpec method{in.required_text(item, "name"), Params::object()};
    if (!names.insert(method.name).second) in.fail(item, "method '" + method.name + "' appears twice");
    for (const auto& option : item) {
      const auto key = option.first.as<std::string>();
      if (key == "name") continue;
      const auto value = in.value(option.second, key);
      check_parameter(in, option.second, experiment, key, value);
      method.options[key] = value;
    }
    methods.push_back(std::move(method));
  }
  return methods;
}

bool row_matches(const Params& row, const Params& run) {
  for (const auto& [key, value] : row.items()) {
    if (!run.contains(key) || run[key] != value) return false;
  }
  return true;
}

std::vector<PublishedValue> read_published(const Reader& in, const YAML::Node& node, const Scenario& s,
                                           const ExperimentSpec& experiment) {
  if (!node.IsSequence() || node.size() == 0) in.fail(node, "'published' must be a non-empty list of rows");
  const auto runs = s.parameter_sets();
  std::vector<PublishedValue> out;
  for (const auto& row : node) {
    in.require_map(row, "a published row");
    in.require_keys(row, {"params", "values"}, "a published row");
    if (!row["params"] || !row["values"]) in.fail(row, "a published row needs 'params' and 'values'");
    const Params params = read_params(in, row["params"], experiment, "'params'");
    if (std::none_of(runs.begin(), runs.end(), [&](const Params& run) { return row_matches(params, run); })) {
      in.fail(row["params"], "published row " + params.dump() + " matches none of the scenario's runs");
    }
    in.require_map(row["values"], "'values'");
    for (const auto& by_method : row["values"]) {
      const auto method = by_method.first.as<std::string>();
      if (std::none_of(s.methods.begin(), s.methods.end(), [&](const MethodSpec& m) { return m.name == method; })) {
        in.fail(by_method.first, "published value for unknown method '" + method + "'");
      }
      in.require_map(by_method.second, "published values of " + method);
      for (const auto& by_phase : by_method.second) {
        const auto phase = by_phase.first.as<std::string>();
        if (std::find(s.phases.begin(), s.phases.end(), phase) == s.phases.end()) {
          in.fail(by_phase.first, "published value for phase '" + phase + "' that the scenario does not measure");
        }
        double value = 0;
        try {
          value = by_phase.second.as<double>();
        } catch (const YAML::Exception&) {
          in.fail(by_phase.second, "published value must be a number");
        }
        out.push_back({params, method, phase, value});
      }
    }
  }
  return out;
}

std::string resolve_platform(const Reader& in, const YAML::Node& at, const std::string& name, const std::string& file,
                             const std::string& repo_root) {
  if (const auto found = find_platform_file(name, fs::path(file).parent_path(), repo_root)) {
    const std::string path = found->lexically_normal().string();
    // The reports name the platform's file: a name they cannot hold fails here, before the first run.
    if (const auto problem = os::utf8_problem(found->filename().string()); !problem.empty()) {
      in.fail(at, "platform file " + problem + " (the JSON reports are UTF-8; move or rename it)");
    }
    return path;
  }
  in.fail(at, "platform file '" + name + "' not found (looked beside the scenario and in platforms/)");
}

void require_method(const Reader& in, const YAML::Node& at, const Scenario& s, const std::string& method,
                    const std::string& what) {
  if (std::none_of(s.methods.begin(), s.methods.end(), [&](const MethodSpec& m) { return m.name == method; })) {
    in.fail(at, what + " names unknown method '" + method + "'");
  }
}

void require_phase(const Reader& in, const YAML::Node& at, const Scenario& s, const std::string& phase,
                   const std::string& what) {
  if (std::find(s.phases.begin(), s.phases.end(), phase) == s.phases.end()) {
    in.fail(at, what + " of phase '" + phase + "' that the scenario does not measure");
  }
}

std::vector<RatioSpec> read_ratios(const Reader& in, const YAML::Node& node, const Scenario& s) {
  if (!node.IsSequence() || node.size() == 0) in.fail(node, "'ratios' must be a non-empty list");
  std::vector<RatioSpec> out;
  for (const auto& item : node) {
    in.require_map(item, "a ratio");
    in.require_keys(item, {"numerator", "denominator", "phase", "published"}, "a ratio");
    RatioSpec ratio{in.required_text(item, "numerator"), in.required_text(item, "denominator"),
                    in.required_text(item, "phase"), item["published"] ? in.text(item["published"], "published") : ""};
    require_method(in, item, s, ratio.numerator, "ratio");
    require_method(in, item, s, ratio.denominator, "ratio");
    require_phase(in, item, s, ratio.phase, "ratio");
    out.push_back(std::move(ratio));
  }
  return out;
}

const std::vector<std::pair<std::string, ClaimSpec::Kind>> kClaimKinds = {
    {"below", ClaimSpec::Kind::Below},           {"above", ClaimSpec::Kind::Above},
    {"decreasing", ClaimSpec::Kind::Decreasing}, {"increasing", ClaimSpec::Kind::Increasing},
    {"spread", ClaimSpec::Kind::Spread},         {"follows", ClaimSpec::Kind::Follows},
    {"between", ClaimSpec::Kind::Between}};

// The keys each kind of claim needs beyond claim, kind, phase and its series (method or ratio).
std::vector<std::string> claim_keys(ClaimSpec::Kind kind) {
  switch (kind) {
    case ClaimSpec::Kind::Below:
    case ClaimSpec::Kind::Above: return {"than", "than_phase"};
    case ClaimSpec::Kind::Decreasing:
    case ClaimSpec::Kind::Increasing: return {"along", "tolerance"};
    case ClaimSpec::Kind::Spread: return {"max_ratio", "along"};
    case ClaimSpec::Kind::Follows: return {"quantity", "min_correlation"};
    case ClaimSpec::Kind::Between: return {"where", "min", "max"};
  }
  return {};
}

ClaimSpec::Kind claim_kind(const Reader& in, const YAML::Node& item) {
  const auto name = in.required_text(item, "kind");
  for (const auto& [known, kind] : kClaimKinds) {
    if (known == name) return kind;
  }
  in.fail(item["kind"], "unknown claim kind '" + name + "' (expected below, above, decreasing, increasing, spread, follows or between)");
}

// `where`: parameter -> value, or -> {from, to}; it must cover at least one run of the scenario.
Params read_where(const Reader& in, const YAML::Node& node, const Scenario& s, const ExperimentSpec& experiment) {
  in.require_map(node, "'where'");
  Params where = Params::object();
  for (const auto& item : node) {
    const auto key = item.first.as<std::string>();
    if (item.second.IsMap()) {
      in.require_keys(item.second, {"from", "to"}, "a range of 'where'");
      if (!item.second["from"] && !item.second["to"]) in.fail(item.second, "a range of 'where' needs 'from' or 'to'");
      Params range = Params::object();
      for (const char* end : {"from", "to"}) {
        if (item.second[end]) range[end] = in.real(item.second[end], end);
      }
      check_parameter(in, item.first, experiment, key, nullptr, false);
      where[key] = range;
    } else {
      const auto value = in.value(item.second, key);
      check_parameter(in, item.second, experiment, key, value);
      where[key] = value;
    }
  }
  const auto runs = s.parameter_sets();
  if (std::none_of(runs.begin(), runs.end(), [&](const Params& run) { return run_in(where, run); })) {
    in.fail(node, "'where' covers none of the scenario's runs");
  }
  return where;
}

void read_between(const Reader& in, const YAML::Node& item, const Scenario& s, const ExperimentSpec& experiment,
                  ClaimSpec& c) {
  if (!item["min"] && !item["max"]) in.fail(item, "a 'between' claim needs 'min', 'max' or both");
  if (item["min"]) c.min = in.real(item["min"], "min");
  if (item["max"]) c.max = in.real(item["max"], "max");
  if (c.min && c.max && *c.min > *c.max) in.fail(item["max"], "'max' must not be below 'min'");
  if (item["where"]) c.where = read_where(in, item["where"], s, experiment);
}

ClaimSpec read_claim(const Reader& in, const YAML::Node& item, const Scenario& s, const ExperimentSpec& experiment) {
  in.require_map(item, "a claim");
  ClaimSpec c;
  c.kind = claim_kind(in, item);
  std::vector<std::string> keys = {"claim", "kind", "phase", "method", "ratio"};
  for (auto& k : claim_keys(c.kind)) keys.push_back(std::move(k));
  in.require_keys(item, keys, "a claim of this kind");
  c.text = in.required_text(item, "claim");
  c.phase = in.required_text(item, "phase");
  require_phase(in, item, s, c.phase, "claim");
  if (item["method"].IsDefined() == item["ratio"].IsDefined()) in.fail(item, "a claim needs exactly one of 'method' and 'ratio'");
  if (item["method"]) {
    c.method = in.required_text(item, "method");
    require_method(in, item, s, c.method, "claim");
  } else {
    const YAML::Node ratio = item["ratio"];
    in.require_map(ratio, "'ratio'");
    in.require_keys(ratio, {"numerator", "denominator"}, "a claim's ratio");
    c.ratio = RatioSpec{in.required_text(ratio, "numerator"), in.required_text(ratio, "denominator"), c.phase, ""};
    require_method(in, ratio, s, c.ratio->numerator, "claim");
    require_method(in, ratio, s, c.ratio->denominator, "claim");
  }
  switch (c.kind) {
    case ClaimSpec::Kind::Below:
    case ClaimSpec::Kind::Above:
      if (!item["than"]) in.fail(item, "missing required key 'than'");
      c.than = item["than"].IsSequence() ? in.text_list(item["than"], "than") : std::vector{in.required_text(item, "than")};
      for (const auto& m : c.than) require_method(in, item["than"], s, m, "claim");
      if (c.ratio) in.fail(item, "below/above compare a method with others: use 'method', not 'ratio'");
      if (item["than_phase"]) {
        c.than_phase = in.required_text(item, "than_phase");
        require_phase(in, item["than_phase"], s, c.than_phase, "claim");
      }
      break;
    case ClaimSpec::Kind::Decreasing:
    case ClaimSpec::Kind::Increasing:
      c.along = in.required_text(item, "along");
      if (std::none_of(s.sweep.begin(), s.sweep.end(), [&](const SweepAxis& a) { return a.name == c.along; })) {
        in.fail(item["along"], "claim runs along '" + c.along + "', which is not swept");
      }
      if (item["tolerance"]) c.tolerance = in.real(item["tolerance"], "tolerance");
      if (c.tolerance < 0) in.fail(item["tolerance"], "'tolerance' must not be negative");
      break;
    case ClaimSpec::Kind::Spread:
      if (!item["max_ratio"]) in.fail(item, "missing required key 'max_ratio'");
      c.max_ratio = in.real(item["max_ratio"], "max_ratio");
      if (c.max_ratio < 1) in.fail(item["max_ratio"], "'max_ratio' must be at least 1");
      if (item["along"]) {
        c.along = in.required_text(item, "along");
        if (std::none_of(s.sweep.begin(), s.sweep.end(), [&](const SweepAxis& a) { return a.name == c.along; })) {
          in.fail(item["along"], "claim runs along '" + c.along + "', which is not swept");
        }
      }
      break;
    case ClaimSpec::Kind::Follows:
      c.quantity = in.required_text(item, "quantity");
      if (std::find(experiment.quantities.begin(), experiment.quantities.end(), c.quantity) == experiment.quantities.end()) {
        in.fail(item["quantity"], "experiment " + experiment.name + " reports no quantity '" + c.quantity + "'");
      }
      if (!item["min_correlation"]) in.fail(item, "missing required key 'min_correlation'");
      c.min_correlation = in.real(item["min_correlation"], "min_correlation");
      if (c.min_correlation < -1 || c.min_correlation > 1) in.fail(item["min_correlation"], "'min_correlation' must be in [-1, 1]");
      break;
    case ClaimSpec::Kind::Between: read_between(in, item, s, experiment, c); break;
  }
  return c;
}

std::vector<ClaimSpec> read_claims(const Reader& in, const YAML::Node& node, const Scenario& s,
                                   const ExperimentSpec& experiment) {
  if (!node.IsSequence() || node.size() == 0) in.fail(node, "'claims' must be a non-empty list");
  std::vector<ClaimSpec> out;
  for (const auto& item : node) out.push_back(read_claim(in, item, s, experiment));
  return out;
}

void require_every_parameter(const Reader& in, const YAML::Node& root, const Scenario& s,
                             const ExperimentSpec& experiment) {
  const auto everywhere = [&](const std::string& name) {
    return s.fixed.contains(name) ||
           std::any_of(s.sweep.begin(), s.sweep.end(), [&](const SweepAxis& a) { return a.name == name; }) ||
           std::all_of(s.methods.begin(), s.methods.end(), [&](const MethodSpec& m) { return m.options.contains(name); });
  };
  for (const auto& parameter : experiment.parameters) {
    if (!parameter.required) continue;
    if (!parameter.required_unless.empty() && everywhere(parameter.required_unless)) continue;
    if (!parameter.required_with.empty() && !everywhere(parameter.required_with)) continue;
    const std::string& name = parameter.name;
    if (!everywhere(name)) {
      const std::string form = !parameter.required_unless.empty()
                                   ? " (unless '" + parameter.required_unless + "' is set)"
                                   : !parameter.required_with.empty() ? " (where '" + parameter.required_with + "' is)" : "";
      in.fail(root, "parameter '" + name + "' is set neither in 'fixed', 'sweep' nor by every method" + form);
    }
  }
}

// Checked last, so that a file's other mistakes are reported first, as before roles existed.
void read_role(const Reader& in, const YAML::Node& root, ScenarioUse use, Scenario& s) {
  if (!root["role"]) {
    if (use == ScenarioUse::Replay) in.fail(root, "missing required key 'role' (train, test or claims)");
    return;
  }
  s.role = in.text(root["role"], "role");
  if (s.role != "train" && s.role != "test" && s.role != "claims") {
    in.fail(root["role"], "'role' must be train, test or claims, got '" + s.role + "'");
  }
  if (s.role == "train" && s.published.empty()) {
    in.fail(root["role"], "role 'train' needs published values: a fit has nothing else to use");
  }
}

}  // namespace

bool run_in(const Params& where, const Params& run) {
  for (const auto& [key, wanted] : where.items()) {
    if (!run.contains(key)) return false;
    const auto& value = run[key];
    if (!wanted.is_object()) {
      if (value != wanted) return false;
      continue;
    }
    if (!value.is_number()) return false;
    const double v = value.get<double>();
    if (wanted.contains("from") && v < wanted["from"].get<double>()) return false;
    if (wanted.contains("to") && v > wanted["to"].get<double>()) return false;
  }
  return true;
}

std::vector<Params> Scenario::parameter_sets() const {
  std::vector<Params> sets(1, fixed);  // not braces: a json converts to a vector implicitly
  for (const auto& axis : sweep) {
    std::vector<Params> next;
    for (const auto& partial : sets) {
      for (const auto& value : axis.values) {
        Params run = partial;
        run[axis.name] = value;
        next.push_back(std::move(run));
      }
    }
    sets = std::move(next);
  }
  return sets;
}

double Scenario::seconds_per_unit() const { return unit == "ms" ? 1e-3 : unit == "us" ? 1e-6 : 1.0; }

Scenario load_scenario(const std::string& file, const std::vector<ExperimentSpec>& experiments,
                       const std::string& repo_root, ScenarioUse use, std::uint64_t max_runs) {
  const Reader in(file);
  const YAML::Node root = in.load("scenario");
  in.require_keys(root, kTopLevelKeys, "the scenario");

  Scenario s;
  s.file = file;
  s.name = in.required_text(root, "scenario");
  if (s.name.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789-_.") != std::string::npos) {
    in.fail(root["scenario"], "scenario name '" + s.name + "' may use only a-z, 0-9, '-', '_' and '.'");
  }
  if (use == ScenarioUse::Replay) {
    s.paper = in.required_text(root, "paper");
    s.table = in.required_text(root, "table");
    if (std::find(kPaperIds.begin(), kPaperIds.end(), s.paper) == kPaperIds.end()) {
      in.fail(root["paper"], "paper '" + s.paper + "' is not a paper id listed in docs/papers.md");
    }
  } else {
    if (root["published"]) in.fail(root["published"], "a sweep carries no published values (use 'redist replay')");
    if (root["paper"]) s.paper = in.text(root["paper"], "paper");
    if (root["table"]) s.table = in.text(root["table"], "table");
  }
  if (root["description"]) s.description = in.text(root["description"], "description");
  if (root["role"]) {
    const auto role = in.text(root["role"], "role");
    if (role != "train" && role != "test" && role != "claims") in.fail(root["role"], "'role' must be train, test or claims");
  }
  s.platform = resolve_platform(in, root["platform"] ? root["platform"] : root, in.required_text(root, "platform"),
                                file, repo_root);
  s.experiment = in.required_text(root, "experiment");
  const ExperimentSpec& experiment = find_experiment(in, root["experiment"], s.experiment, experiments);

  if (root["fixed"]) s.fixed = read_params(in, root["fixed"], experiment, "'fixed'");
  if (!root["methods"]) in.fail(root, "missing required key 'methods'");
  s.methods = read_methods(in, root["methods"], experiment);
  if (root["sweep"]) {
    in.require_map(root["sweep"], "'sweep'");
    if (root["sweep"].size() == 0) in.fail(root["sweep"], "'sweep' is empty");
    std::vector<std::uint64_t> sizes;
    for (const auto& item : root["sweep"]) {
      const auto name = item.first.as<std::string>();
      if (s.fixed.contains(name)) in.fail(item.first, "parameter '" + name + "' is both fixed and swept");
      sizes.push_back(axis_size(in, name, item.second));
    }
    check_run_count(in, root["sweep"], sizes, s.methods.size(), max_runs);
    std::size_t k = 0;
    for (const auto& item : root["sweep"]) {
      const auto name = item.first.as<std::string>();
      SweepAxis axis = read_axis(in, name, item.second, sizes[k++]);
      for (const auto& v : axis.values) check_parameter(in, item.second, experiment, name, v);
      s.sweep.push_back(std::move(axis));
    }
  } else {
    check_run_count(in, root, {}, s.methods.size(), max_runs);
  }
  if (!root["phases"]) in.fail(root, "missing required key 'phases'");
  s.phases = in.text_list(root["phases"], "phases");
  for (std::size_t k = 0; k < s.phases.size(); ++k) {
    if (!experiment.reports(s.phases[k])) {
      in.fail(root["phases"][k], "experiment " + experiment.name + " has no phase or quantity '" + s.phases[k] + "'");
    }
  }
  if (root["repetitions"]) {
    const long long n = in.integer(root["repetitions"], "repetitions");
    if (n < 1 || n > 1000) in.fail(root["repetitions"], "'repetitions' must be between 1 and 1000");
    s.repetitions = static_cast<int>(n);
  }
  if (root["payload"]) {
    try {
      s.payload = payload_names().from_name(in.text(root["payload"], "payload"));
    } catch (const std::invalid_argument& e) {
      in.fail(root["payload"], e.what());
    }
  }
  if (root["role"]) {  // what a calibration may do with the scenario's published cells
    s.role = in.text(root["role"], "role");
    if (s.role != "train" && s.role != "test" && s.role != "claims") in.fail(root["role"], "'role' must be train, test or claims");
  }
  if (root["unit"]) {
    s.unit = in.text(root["unit"], "unit");
    if (s.unit != "s" && s.unit != "ms" && s.unit != "us" && s.unit != "elements") {
      in.fail(root["unit"], "'unit' must be s, ms, us or elements");
    }
  }
  require_every_parameter(in, root, s, experiment);
  if (root["published"]) s.published = read_published(in, root["published"], s, experiment);
  if (root["ratios"]) s.ratios = read_ratios(in, root["ratios"], s);
  if (root["claims"]) s.claims = read_claims(in, root["claims"], s, experiment);
  read_role(in, root, use, s);
  return s;
}

}  // namespace redist
