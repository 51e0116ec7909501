// Scenario files (scenarios/*.yaml): one published experiment (or an exploratory sweep) described
// once — paper, table, platform, fixed and swept parameters, methods compared, phases measured,
// published values. The schema is documented in scenarios/README.md; every mistake is reported
// as "file:line: reason".
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "redist/experiments/experiment_schema.hpp"
#include "redist/experiments/payload.hpp"

namespace redist {

/// A scenario file is wrong; what() is "file:line: reason".
class ScenarioError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct MethodSpec {
  std::string name;  ///< label in reports ("krr", "stepwise", ...)
  Params options;    ///< parameters this method sets (e.g. {"schedule": "stepwise"})
};

struct SweepAxis {
  std::string name;
  std::vector<nlohmann::json> values;
};

struct PublishedValue {
  Params params;  ///< the parameters identifying the row (a subset of a run's parameters)
  std::string method;
  std::string phase;
  double value;  ///< in the scenario's unit
};

/// A ratio of two methods' times the paper reports (paper 004 gives only ratios), shown per row.
struct RatioSpec {
  std::string numerator;    ///< method
  std::string denominator;  ///< method
  std::string phase;
  std::string published;    ///< what the paper says, as text ("about 0.44 for small vectors")
};

/// A qualitative claim of the paper, checked on the simulated values (see scenarios/README.md).
/// The series is one method's phase, or the ratio of two methods' phases.
struct ClaimSpec {
  enum class Kind { Below, Above, Decreasing, Increasing, Spread, Follows, Between };
  std::string text;     ///< the claim as the paper states it
  Kind kind = Kind::Below;
  std::string method;   ///< the series' method (empty when `ratio` is set)
  std::optional<RatioSpec> ratio;
  std::string phase;
  std::vector<std::string> than;  ///< below/above: the methods compared with
  std::string than_phase;         ///< below/above (optional): their phase compared with, default `phase`
                                  ///< (a method's comm against its own comp: {method: a, than: a, than_phase: comp})
  std::string along;    ///< decreasing/increasing: the swept parameter; spread (optional): the spread
                        ///< is taken along it, within each group of runs equal in the other parameters
  double tolerance = 0; ///< decreasing/increasing: relative step against the trend allowed
  double max_ratio = 0; ///< spread: largest max/min allowed
  std::string quantity; ///< follows: the experiment's per-run quantity
  double min_correlation = 0;  ///< follows: smallest Pearson correlation accepted
  /// between: the runs covered, by parameter: a value (equal), or {"from": a, "to": b} (inclusive,
  /// either end may be absent); empty = every run
  Params where = Params::object();
  std::optional<double> min;  ///< between: smallest value allowed (none: no lower bound)
  std::optional<double> max;  ///< between: largest value allowed (none: no upper bound)
};

/// Whether run parameters `run` fall in a claim's `where` (see ClaimSpec::where).
bool run_in(const Params& where, const Params& run);

struct Scenario {
  std::string file;         ///< the YAML file
  std::string name;         ///< output file stem
  std::string paper;        ///< paper id listed in docs/papers.md (replays only)
  std::string table;        ///< table or figure reproduced (replays only)
  /// train: published cells a fit may use; test: published cells predicted, never fitted;
  /// claims: only claims and ratios are checked. Required for replays, optional for sweeps.
  std::string role;
  std::string description;
  std::string platform;     ///< resolved path of the platform file
  std::string experiment;   ///< experiment kind
  Params fixed = Params::object();
  std::vector<SweepAxis> sweep;
  std::vector<MethodSpec> methods;
  std::vector<std::string> phases;  ///< the experiment's phases or quantities reported (ExperimentSpec::reports)
  int repetitions = 1;
  Payload payload = kDefaultPayload;
  std::string unit = "s";        ///< unit of published and reported values: s, ms or us; "elements"
                                 ///< for experiments whose phases are not times (paper 001's β1)
  std::vector<PublishedValue> published;
  std::vector<RatioSpec> ratios;
  std::vector<ClaimSpec> claims;

  /// Every combination of the swept values, each merged over the fixed parameters.
  std::vector<Params> parameter_sets() const;
  /// Seconds per reported unit (1 for "elements": values are reported as the experiment gives them).
  double seconds_per_unit() const;
};

enum class ScenarioUse { Replay, Sweep };

/// Runs (parameter sets x methods) above which a scenario is refused unless `--max-runs` raises it.
inline constexpr std::uint64_t kDefaultMaxRuns = 100000;

/// Reads and validates a scenario. `repo_root` locates platforms/. Refuses
/// repeated keys and sweeps of more than `max_runs` runs (counted before anything is expanded).
/// Throws ScenarioError("file:line: reason").
Scenario load_scenario(const std::string& file, const std::vector<ExperimentSpec>& experiments,
                       const std::string& repo_root, ScenarioUse use, std::uint64_t max_runs = kDefaultMaxRuns);

}  // namespace redist
