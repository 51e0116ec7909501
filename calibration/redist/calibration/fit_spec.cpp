#include "redist/calibration/fit_spec.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <set>

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include "redist/experiments/platform_search.hpp"
#include "redist/experiments/yaml_reader.hpp"
#include "redist/experiments/experiments.hpp"

namespace redist::calibration {
namespace {

namespace fs = std::filesystem;

class SpecReader : public YamlReader<FitSpecError> {
 public:
  using YamlReader::YamlReader;

  double number(const YAML::Node& node, const std::string& what) const {
    try {
      if (node.IsScalar()) {
        const auto text = node.as<std::string>();
        std::size_t used = 0;
        const double x = std::stod(text, &used);
        if (used == text.size() && std::isfinite(x)) return x;
      }
    } catch (const std::logic_error&) {
    }
    // The value is quoted: "1e400" and ".nan" are numbers to YAML, but no finite double.
    const std::string shown = node.IsScalar() ? ", got \"" + node.as<std::string>().substr(0, 40) + "\"" : "";
    fail(node, what + " must be a finite number" + shown);
  }
};

std::string resolve(const std::string& name, const std::string& spec_file, const std::string& repo_root) {
  const auto found = find_platform_file(name, fs::path(spec_file).parent_path(), repo_root);
  return found ? found->lexically_normal().string() : "";
}

PlatformTarget read_target(const SpecReader& in, const YAML::Node& set) {
  in.require_map(set, "'set'");
  in.require_keys(set, {"host_property", "host_speed", "link_bandwidth", "link_latency"}, "'set'");
  if (set.size() != 1) in.fail(set, "'set' needs exactly one of host_property, host_speed, link_bandwidth, link_latency");
  const auto key = set.begin()->first.as<std::string>();
  if (key == "host_speed") {
    if (!set["host_speed"].IsScalar() || set["host_speed"].as<std::string>() != "true") in.fail(set, "'host_speed' must be true");
    return {PlatformTarget::Kind::HostSpeed, ""};
  }
  const auto kind = key == "host_property"    ? PlatformTarget::Kind::HostProperty
                    : key == "link_bandwidth" ? PlatformTarget::Kind::LinkBandwidth
                                              : PlatformTarget::Kind::LinkLatency;
  return {kind, in.required_text(set, key)};
}

FittedValue read_value(const SpecReader& in, const YAML::Node& item, const PlatformFile& platform) {
  in.require_map(item, "a value");
  in.require_keys(item, {"name", "set", "meaning", "range", "initial"}, "a value");
  FittedValue v;
  v.name = in.required_text(item, "name");
  if (v.name.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") != std::string::npos) {
    in.fail(item["name"], "value name '" + v.name + "' may use only letters, digits and '_'");
  }
  v.meaning = in.required_text(item, "meaning");
  if (!item["set"]) in.fail(item, "missing required key 'set'");
  v.target = read_target(in, item["set"]);
  const YAML::Node range = item["range"];
  if (!range) in.fail(item, "missing required key 'range'");
  if (!range.IsSequence() || range.size() != 2) in.fail(range, "'range' must be [lower, upper]");
  v.lower = in.number(range[0], "the range's lower end");
  v.upper = in.number(range[1], "the range's upper end");
  if (!(v.lower > 0 && v.lower < v.upper)) {
    in.fail(range, fmt::format("range [{:g}, {:g}] must satisfy 0 < lower < upper (the fit works on logarithms)",
                               v.lower, v.upper));
  }
  try {
    v.derived = platform.value(v.target);
  } catch (const std::invalid_argument& e) {
    in.fail(item["set"], e.what());
  }
  v.initial = item["initial"] ? in.number(item["initial"], "'initial'") : v.derived;
  if (v.initial < v.lower || v.initial > v.upper) {
    in.fail(item["initial"] ? item["initial"] : item["range"],
            fmt::format("{} {:g} is outside the range [{:g}, {:g}]", item["initial"] ? "initial value" : "the derived value",
                        v.initial, v.lower, v.upper));
  }
  return v;
}

Scenario read_train_scenario(const SpecReader& in, const YAML::Node& at, const std::string& name,
                             const std::string& repo_root) {
  const fs::path file = fs::path(repo_root) / "scenarios" / (name + ".yaml");
  if (!fs::is_regular_file(file)) in.fail(at, "no scenario '" + name + "' (looked for scenarios/" + name + ".yaml)");
  Scenario s = load_scenario(file.string(), sim::experiment_specs(), repo_root, ScenarioUse::Replay);
  if (s.role != "train") {
    in.fail(at, "scenario '" + name + "' has role '" + s.role + "': a fit reads only scenarios whose role is train");
  }
  return s;
}

}  // namespace

FitSpec load_fit_spec(const std::string& file, const std::string& repo_root) {
  const SpecReader in(file);
  const YAML::Node root = in.load("fit specification");
  in.require_map(root, "the fit specification");
  in.require_keys(root, {"platform", "fitted", "train", "values"}, "the fit specification");
  FitSpec spec;
  spec.file = file;
  const auto platform_name = in.required_text(root, "platform");
  spec.platform = resolve(platform_name, file, repo_root);
  if (spec.platform.empty()) in.fail(root["platform"], "platform file '" + platform_name + "' not found");
  const auto fitted_name = in.required_text(root, "fitted");
  if (fitted_name.find('/') != std::string::npos) in.fail(root["fitted"], "'fitted' is a file name, written beside the platform");
  spec.fitted = (fs::path(spec.platform).parent_path() / fitted_name).string();
  if (fitted_name == fs::path(spec.platform).filename().string()) {
    in.fail(root["fitted"], "'fitted' must differ from the platform: the derived file stays untouched");
  }
  const PlatformFile platform = PlatformFile::read(spec.platform);

  const YAML::Node train = root["train"];
  if (!train) in.fail(root, "missing required key 'train'");
  if (!train.IsSequence() || train.size() == 0) in.fail(train, "'train' must be a non-empty list of scenario names");
  std::set<std::string> seen;
  for (const auto& item : train) {
    if (!item.IsScalar()) in.fail(item, "'train' lists scenario names");
    const auto name = item.as<std::string>();
    if (!seen.insert(name).second) in.fail(item, "scenario '" + name + "' is listed twice");
    spec.train.push_back(read_train_scenario(in, item, name, repo_root));
  }

  const YAML::Node values = root["values"];
  if (!values) in.fail(root, "missing required key 'values'");
  if (!values.IsSequence() || values.size() == 0) in.fail(values, "'values' must be a non-empty list");
  if (values.size() > kMaxFittedValues) {
    in.fail(values, fmt::format("{} values: a fit moves at most {}", values.size(), kMaxFittedValues));
  }
  seen.clear();
  for (const auto& item : values) {
    auto value = read_value(in, item, platform);
    if (!seen.insert(value.name).second) in.fail(item["name"], "value '" + value.name + "' appears twice");
    spec.values.push_back(std::move(value));
  }
  // Two values writing the same site would fight: refuse before anything runs.
  std::vector<PlatformTarget> targets;
  for (const auto& v : spec.values) targets.push_back(v.target);
  try {
    (void)platform.with_values(targets, std::vector<double>(targets.size(), 1.0));
  } catch (const std::invalid_argument& e) {
    in.fail(values, e.what());
  }
  return spec;
}

}  // namespace redist::calibration
