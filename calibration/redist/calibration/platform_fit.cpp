#include "redist/calibration/platform_fit.hpp"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>

#include <fmt/format.h>

#include "redist/analysis/fidelity_summary.hpp"
#include "redist/calibration/least_squares.hpp"
#include "redist/os/atomic_file.hpp"
#include "redist/sim/scenario_runner.hpp"

namespace redist::calibration {
namespace {

namespace fs = std::filesystem;

// A simulated value of 0 (or below a millionth of the published one) counts as a millionth: the
// logarithm stays finite and such a cell still weighs heavily.
constexpr double kFloor = 1e-6;

// The value a cell is fitted on: the simulated one, or the run's quantity "<phase>_fit" where it reports
// one, the smooth stand-in of a stepwise value (pack-beta1's beta1, a power of two, whose finite
// differences are zero almost everywhere).
double fitted_value(const Record& r) {
  const auto smooth = r.quantities.find(r.phase + "_fit");
  return smooth == r.quantities.end() ? r.simulated : smooth->second;
}

// A directory of candidate platforms, removed when the fit ends (or fails).
class TempDir {
 public:
  TempDir() : path_(fs::temp_directory_path() / ("redist-fit-" + std::to_string(::getpid()))) {
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ignored;
    fs::remove_all(path_, ignored);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

std::vector<PlatformTarget> targets_of(const FitSpec& spec) {
  std::vector<PlatformTarget> out;
  for (const auto& v : spec.values) out.push_back(v.target);
  return out;
}

// Replays the train scenarios on `platform_text` and returns log(simulated / published) per
// published cell, in a fixed order.
class TrainResiduals {
 public:
  TrainResiduals(const FitSpec& spec, const PlatformFile& platform, int jobs)
      : spec_(spec), platform_(platform), targets_(targets_of(spec)), jobs_(jobs) {}

  std::vector<double> operator()(const std::vector<double>& log_values) {
    // The fit asks again for the start and the end: replay each point once.
    if (const auto it = seen_.find(log_values); it != seen_.end()) return it->second;
    return seen_[log_values] = replay(log_values);
  }

 private:
  std::vector<double> replay(const std::vector<double>& log_values) {
    std::vector<double> values;
    for (const double x : log_values) values.push_back(std::exp(x));
    const fs::path candidate = dir_.path() / fmt::format("candidate-{}.xml", ++count_);
    {
      std::ofstream out(candidate);
      out << platform_.with_values(targets_, values);
      if (!out) throw std::runtime_error("cannot write " + candidate.string());
    }
    std::vector<double> residuals;
    for (Scenario scenario : spec_.train) {
      scenario.platform = candidate.string();
      // The fit needs times, not bytes: a phantom run gives the same times (tested), and `auto`
      // would otherwise move and verify every array below 64 MiB on every replay of the fit.
      if (scenario.payload == Payload::Auto) scenario.payload = Payload::Phantom;
      for (const auto& r : sim::run_scenario(scenario, jobs_, {})) {
        if (!r.published || *r.published <= 0) continue;
        residuals.push_back(std::log(std::max(fitted_value(r), kFloor * *r.published) / *r.published));
      }
    }
    fs::remove(candidate);
    return residuals;
  }

  const FitSpec& spec_;
  const PlatformFile& platform_;
  std::vector<PlatformTarget> targets_;
  int jobs_;
  TempDir dir_;
  int count_ = 0;
  std::map<std::vector<double>, std::vector<double>> seen_;
};

// Median of |simulated − published| / published, from the log residuals.
double median_relative_error(const std::vector<double>& residuals) {
  std::vector<double> errors;
  for (const double r : residuals) errors.push_back(std::abs(std::expm1(r)));
  std::sort(errors.begin(), errors.end());
  const std::size_t n = errors.size();
  if (n == 0) return 0;
  return n % 2 ? errors[n / 2] : (errors[n / 2 - 1] + errors[n / 2]) / 2;
}

bool at_bound(const FittedValue& v, double fitted) {
  constexpr double kClose = 1e-3;  // relative: within 0.1% of a bound
  return fitted <= v.lower * (1 + kClose) || fitted >= v.upper * (1 - kClose);
}

std::string train_names(const FitSpec& spec) {
  std::string names;
  for (const auto& s : spec.train) names += (names.empty() ? "" : ", ") + s.name;
  return names;
}

std::string header(const FitSpec& spec, const std::vector<double>& fitted, std::size_t cells, double before,
                   double after) {
  std::string out = fmt::format(
      "  {} {}` from {} on the train scenarios {} ({} published cells;\n"
      "  median relative error {:.1f}% with the derived values, {:.1f}% with the fitted ones). Do not edit by hand:\n"
      "  change the derived platform's generator or the fit specification, and fit again.\n",
      kFittedPlatformMarker, fs::path(spec.file).filename().string(), fs::path(spec.platform).filename().string(),
      train_names(spec), cells,
      100 * before, 100 * after);
  for (std::size_t k = 0; k < spec.values.size(); ++k) {
    const auto& v = spec.values[k];
    out += fmt::format("  {} ({}): {}; range [{:.4g}, {:.4g}]; fitted {:.6g}, derived {:.6g}{}\n", v.name,
                       v.target.describe(), v.meaning, v.lower, v.upper, fitted[k], v.derived,
                       at_bound(v, fitted[k]) ? " (AT A BOUND of its range)" : "");
  }
  return out;
}

std::string value_comment(const FittedValue& v, double fitted) {
  return fmt::format("fitted: {} = {:.6g} (derived {:.6g}, range [{:.4g}, {:.4g}]): {}", v.name, fitted, v.derived,
                     v.lower, v.upper, v.meaning);
}

std::string table(const FitSpec& spec, const std::vector<double>& fitted, double before, double after) {
  std::string out = "| value | set | derived | fitted | range | at bound |\n|---|---|---:|---:|---|---|\n";
  for (std::size_t k = 0; k < spec.values.size(); ++k) {
    const auto& v = spec.values[k];
    out += fmt::format("| {} | {} | {:.4g} | {:.4g} | [{:.4g}, {:.4g}] | {} |\n", v.name, v.target.describe(), v.derived,
                       fitted[k], v.lower, v.upper, at_bound(v, fitted[k]) ? "yes" : "no");
  }
  out += fmt::format("\nTrain median relative error ({}): {:.1f}% derived -> {:.1f}% fitted.\n", train_names(spec),
                     100 * before, 100 * after);
  return out;
}

}  // namespace

PlatformFitResult fit_platform(const FitSpec& spec, int jobs, const std::string& out_file, std::ostream& log) {
  const PlatformFile platform = PlatformFile::read(spec.platform);
  TrainResiduals residuals(spec, platform, jobs);
  std::vector<double> start, lower, upper;
  for (const auto& v : spec.values) {
    start.push_back(std::log(v.initial));
    lower.push_back(std::log(v.lower));
    upper.push_back(std::log(v.upper));
  }
  std::vector<double> derived;
  for (const auto& v : spec.values) derived.push_back(std::log(v.derived > 0 ? v.derived : v.initial));
  const std::vector<double> before = residuals(derived);
  if (before.empty()) throw std::runtime_error("the train scenarios have no published cell to fit");
  log << fmt::format("fit: {} published cells of {}; median relative error with the derived values {:.1f}%\n",
                           before.size(), train_names(spec), 100 * median_relative_error(before));
  const auto result = fit_bounded(
      std::ref(residuals), start, lower, upper, [&](const BoundedFitStep& step) {
        std::string values;
        for (std::size_t k = 0; k < spec.values.size(); ++k) {
          values += fmt::format(" {}={:.4g}", spec.values[k].name, std::exp(step.x[k]));
        }
        log << fmt::format("fit: iteration {}: sum of squared log errors {:.6g};{}; damping {:.2g}; {} replays\n",
                                 step.iteration, step.cost, values, step.damping, step.evaluations);
      });
  std::vector<double> fitted;
  for (const double x : result.x) fitted.push_back(std::exp(x));
  const std::vector<double> after = residuals(result.x);
  const double error_before = median_relative_error(before), error_after = median_relative_error(after);
  if (!result.converged) log << "fit: stopped after " << result.iterations << " iterations without converging\n";

  std::vector<std::string> comments;
  for (std::size_t k = 0; k < spec.values.size(); ++k) comments.push_back(value_comment(spec.values[k], fitted[k]));
  const fs::path out = out_file.empty() ? fs::path(spec.fitted) : fs::path(out_file);
  os::write_file_atomically(out, platform.with_values(targets_of(spec), fitted, comments,
                                                        header(spec, fitted, before.size(), error_before, error_after)));
  return {table(spec, fitted, error_before, error_after), out.string()};
}

}  // namespace redist::calibration
