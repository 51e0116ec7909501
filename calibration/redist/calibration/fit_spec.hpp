// A fit specification (`redist fit SPEC.fit.yaml`): which platform, which train scenarios, and at
// most 6 named platform values with their meaning and plausible range. Format in README.md
// ("Fitting a platform"); every mistake is reported as "file:line: reason".
#pragma once

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "redist/calibration/platform_values.hpp"
#include "redist/experiments/scenario.hpp"

namespace redist::calibration {

/// The most values one fit may move: a handful of physically meaningful values per machine.
inline constexpr std::size_t kMaxFittedValues = 6;

struct FittedValue {
  std::string name;     ///< short identifier
  std::string meaning;  ///< what it is, physically
  PlatformTarget target;
  double lower = 0, upper = 0;  ///< plausible range, SI units; the fit stays inside
  double derived = 0;           ///< the value in the derived platform (first site)
  double initial = 0;           ///< where the fit starts: `initial:` or the derived value
};

struct FitSpec {
  std::string file;
  std::string platform;  ///< resolved path of the derived platform
  std::string fitted;    ///< path of the file written: `fitted:` beside the derived platform
  std::vector<Scenario> train;  ///< the train scenarios, loaded (each has role train)
  std::vector<FittedValue> values;
};

/// A fit specification is wrong; what() is "file:line: reason".
class FitSpecError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Reads and validates a spec: its platform and values (each names existing sites, has a range
/// 0 < lower < upper holding its start), and its train scenarios (scenarios/NAME.yaml, role train).
FitSpec load_fit_spec(const std::string& file, const std::string& repo_root);

}  // namespace redist::calibration
