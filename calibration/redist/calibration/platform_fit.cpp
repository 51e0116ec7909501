// `redist fit`'s fit (platform_fit.hpp): the train cells' residuals replayed, the bounded fit, the
// leave-one-group-out cross-validation that decides which values keep their place, the fitted
// platform and its reports.
#include "redist/calibration/platform_fit.hpp"

#include <stdlib.h>  // mkdtemp
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <optional>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "redist/calibration/least_squares.hpp"
#include "redist/reports/fidelity_summary.hpp"
#include "redist/os/atomic_file.hpp"
#include "redist/os/outputs_apart.hpp"
#include "redist/os/stop_signals.hpp"
#include "redist/os/utf8.hpp"
#include "redist/experiments/scenario_runner.hpp"

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

// A directory of candidate platforms, removed when the fit ends, fails or is stopped by a signal
// (redist/os/stop_signals.hpp: the folder and each candidate in it are remembered).
class TempDir {
 public:
  // mkdtemp: a new folder of this run's own (mode 0700), never one that was there (a fixed name
  // would empty another's folder, or follow a link someone put in its place).
  TempDir() {
    std::string name = (fs::temp_directory_path() / "redist-fit-XXXXXX").string();
    if (::mkdtemp(name.data()) == nullptr) {
      throw std::runtime_error("cannot create a folder in " + fs::temp_directory_path().string() + ": " +
                               std::strerror(errno));
    }
    path_ = name;
    os::remember_temporary(path_);
  }
  ~TempDir() {
    std::error_code ignored;
    fs::remove_all(path_, ignored);
    os::forget_temporary(path_);
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

// A published cell of the train scenarios: its scenario (index in the spec) and run parameters.
struct TrainCell {
  std::size_t scenario = 0;
  Params params;
};

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

  /// Each published cell, in residual order (known after the first replay).
  const std::vector<TrainCell>& cells() const { return cells_; }

 private:
  std::vector<double> replay(const std::vector<double>& log_values) {
    std::vector<double> values;
    for (const double x : log_values) values.push_back(std::exp(x));
    const fs::path candidate = dir_.path() / fmt::format("candidate-{}.xml", ++count_);
    os::remember_temporary(candidate);
    os::write_file_atomically(candidate, platform_.with_values(targets_, values));
    std::vector<double> residuals;
    for (const Scenario& trained : spec_.train) {
      Scenario scenario = trained;
      scenario.platform = candidate.string();
      // The fit needs times, not bytes: a phantom run gives the same times (tested), and `auto`
      // would otherwise move and verify every array below 64 MiB on every replay of the fit.
      if (scenario.payload == Payload::Auto) scenario.payload = Payload::Phantom;
      for (const auto& r : sim::run_scenario(scenario, jobs_, {})) {
        if (!r.published || *r.published <= 0) continue;
        residuals.push_back(std::log(std::max(fitted_value(r), kFloor * *r.published) / *r.published));
        if (cells_.size() < residuals.size()) cells_.push_back({static_cast<std::size_t>(&trained - spec_.train.data()), r.params});
      }
    }
    fs::remove(candidate);
    os::forget_temporary(candidate);
    return residuals;
  }

  const FitSpec& spec_;
  const PlatformFile& platform_;
  std::vector<PlatformTarget> targets_;
  int jobs_;
  TempDir dir_;
  int count_ = 0;
  std::map<std::vector<double>, std::vector<double>> seen_;
  std::vector<TrainCell> cells_;
};

bool at_bound(const FittedValue& v, double fitted) {
  constexpr double kClose = 1e-3;  // relative: within 0.1% of a bound
  return fitted <= v.lower * (1 + kClose) || fitted >= v.upper * (1 - kClose);
}

std::string train_names(const FitSpec& spec) {
  std::string names;
  for (const auto& s : spec.train) names += (names.empty() ? "" : ", ") + s.name;
  return names;
}

// How the published cells are split for leave-one-group-out cross-validation.
struct Grouping {
  std::string by;                  ///< "scenario", a swept parameter ("direction"), or "<axis> band"
  std::vector<std::string> names;  ///< each group's name
  std::vector<int> group;          ///< each cell's group
};

std::string value_text(const nlohmann::json& v) { return v.is_string() ? v.get<std::string>() : v.dump(); }

// One table when the fit has several (a table predicted from the others); else, in the one table,
// the first swept parameter with named values (paper 000's direction: kr->r predicted from r->kr
// and back); else the first numeric one, cut into at most 3 bands of consecutive values (sizes
// predicted from smaller and larger ones). Groups without a published cell are left out.
Grouping group_cells(const FitSpec& spec, const std::vector<TrainCell>& cells) {
  Grouping g;
  std::vector<std::string> label(cells.size());
  if (spec.train.size() > 1) {
    g.by = "scenario";
    for (std::size_t i = 0; i < cells.size(); ++i) label[i] = spec.train[cells[i].scenario].name;
  } else {
    const Scenario& s = spec.train.front();
    const SweepAxis* named = nullptr;
    const SweepAxis* numeric = nullptr;
    for (const auto& axis : s.sweep) {
      if (axis.values.size() < 2) continue;
      const bool strings = std::all_of(axis.values.begin(), axis.values.end(), [](const auto& v) { return v.is_string(); });
      const bool numbers = std::all_of(axis.values.begin(), axis.values.end(), [](const auto& v) { return v.is_number(); });
      if (strings && !named) named = &axis;
      if (numbers && !numeric) numeric = &axis;
    }
    if (named) {
      g.by = named->name;
      for (std::size_t i = 0; i < cells.size(); ++i) label[i] = value_text(cells[i].params.value(named->name, nlohmann::json()));
    } else if (numeric) {
      g.by = numeric->name + " band";
      std::vector<double> values;
      for (const auto& v : numeric->values) values.push_back(v.get<double>());
      std::sort(values.begin(), values.end());
      values.erase(std::unique(values.begin(), values.end()), values.end());
      const std::size_t bands = std::min<std::size_t>(3, values.size());
      const auto band_of = [&](double x) {
        const auto rank = static_cast<std::size_t>(std::lower_bound(values.begin(), values.end(), x) - values.begin());
        return rank * bands / values.size();
      };
      std::vector<std::string> band_names(bands);
      for (std::size_t b = 0; b < bands; ++b) {
        double lo = 0, hi = 0;
        bool any = false;
        for (const double x : values) {
          if (band_of(x) != b) continue;
          if (!any) lo = x;
          hi = x;
          any = true;
        }
        band_names[b] = lo == hi ? fmt::format("{}={:g}", numeric->name, lo) : fmt::format("{}={:g}..{:g}", numeric->name, lo, hi);
      }
      for (std::size_t i = 0; i < cells.size(); ++i) {
        const auto& v = cells[i].params.value(numeric->name, nlohmann::json());
        label[i] = v.is_number() ? band_names[band_of(v.get<double>())] : "";
      }
    } else {
      g.by = "none";
    }
  }
  for (std::size_t i = 0; i < cells.size(); ++i) {
    const auto it = std::find(g.names.begin(), g.names.end(), label[i]);
    g.group.push_back(static_cast<int>(it - g.names.begin()));
    if (it == g.names.end()) g.names.push_back(label[i]);
  }
  return g;
}

// The fit's figures, as its outputs report them.
struct FitOutcome {
  std::vector<double> fitted;  ///< every value (a dropped one at its prior)
  std::vector<bool> kept;
  std::size_t cells = 0;
  double before = 0, after = 0;  ///< train median relative error: derived, fitted
  Grouping grouping;
  std::optional<double> cross_validated;      ///< median, the kept values fitted
  std::optional<double> cross_validated_all;  ///< median, every value fitted
  std::vector<double> held_out;               ///< each cell's held-out log residual (kept values)
  std::string validation_mode;                ///< "exact" or "linearised"
};

std::string cross_validation_text(const FitOutcome& f) {
  if (!f.cross_validated) {
    return fmt::format("not cross-validated ({})", f.grouping.names.size() < 2 ? "fewer than 2 groups of cells" : "--cross-validation none");
  }
  return fmt::format("leave one {} out, {} groups, {}", f.grouping.by, f.grouping.names.size(), f.validation_mode);
}

std::string dropped_names(const FitSpec& spec, const FitOutcome& f) {
  std::string names;
  for (std::size_t k = 0; k < spec.values.size(); ++k) {
    if (!f.kept[k]) names += (names.empty() ? "" : ", ") + spec.values[k].name;
  }
  return names.empty() ? "none" : names;
}

std::string header(const FitSpec& spec, const FitOutcome& f) {
  std::string out = fmt::format(
      "  {} {}` from {} on the train scenarios {} ({} published cells;\n"
      "  median relative error {:.1f}% with the derived values, {:.1f}% with the fitted ones). Do not edit by hand:\n"
      "  change the derived platform's generator or the fit specification, and fit again.\n",
      kFittedPlatformMarker, fs::path(spec.file).filename().string(), fs::path(spec.platform).filename().string(),
      train_names(spec), f.cells, 100 * f.before, 100 * f.after);
  if (f.cross_validated) {
    out += fmt::format(
        "  {}train median relative error {:.1f}%, cross-validated {:.1f}% ({}; every value fitted: {:.1f}%);\n"
        "  not fitted, held at the derived value because fitting it did not lower the cross-validated error: {}\n",
        kFitErrorsMarker, 100 * f.after, 100 * *f.cross_validated, cross_validation_text(f), 100 * *f.cross_validated_all,
        dropped_names(spec, f));
  } else {
    out += fmt::format("  {}train median relative error {:.1f}%, {}\n", kFitErrorsMarker, 100 * f.after,
                       cross_validation_text(f));
  }
  for (std::size_t k = 0; k < spec.values.size(); ++k) {
    const auto& v = spec.values[k];
    out += fmt::format("  {} ({}): {}; range [{:.4g}, {:.4g}]; {} {:.6g}, derived {:.6g}{}\n", v.name, v.target.describe(),
                       v.meaning, v.lower, v.upper, f.kept[k] ? "fitted" : "NOT FITTED, held at", f.fitted[k], v.derived,
                       f.kept[k] && at_bound(v, f.fitted[k]) ? " (AT A BOUND of its range)" : "");
  }
  return out;
}

std::string value_comment(const FittedValue& v, double fitted, bool kept) {
  if (!kept) {
    return fmt::format("not fitted: {} = {:.6g}, the derived value (range [{:.4g}, {:.4g}]; fitting it did not lower the "
                       "cross-validated error): {}",
                       v.name, fitted, v.lower, v.upper, v.meaning);
  }
  return fmt::format("fitted: {} = {:.6g} (derived {:.6g}, range [{:.4g}, {:.4g}]): {}", v.name, fitted, v.derived,
                     v.lower, v.upper, v.meaning);
}

std::string table(const FitSpec& spec, const FitOutcome& f) {
  std::string out =
      "| value | set | derived | fitted | range | at bound | kept |\n|---|---|---:|---:|---|---|---|\n";
  for (std::size_t k = 0; k < spec.values.size(); ++k) {
    const auto& v = spec.values[k];
    out += fmt::format("| {} | {} | {:.4g} | {:.4g} | [{:.4g}, {:.4g}] | {} | {} |\n", v.name, v.target.describe(),
                       v.derived, f.fitted[k], v.lower, v.upper, f.kept[k] && at_bound(v, f.fitted[k]) ? "yes" : "no",
                       f.kept[k] ? "yes" : "no: held at the derived value");
  }
  out += fmt::format("\nTrain median relative error ({}): {:.1f}% derived -> {:.1f}% fitted.\n", train_names(spec),
                     100 * f.before, 100 * f.after);
  if (f.cross_validated) {
    out += fmt::format("Cross-validated median relative error ({}): {:.1f}% (every value fitted: {:.1f}%).\n",
                       cross_validation_text(f), 100 * *f.cross_validated, 100 * *f.cross_validated_all);
    out += fmt::format("Not fitted (no cross-validated gain): {}.\n", dropped_names(spec, f));
  } else {
    out += fmt::format("Cross-validated median relative error: {}.\n", cross_validation_text(f));
  }
  return out;
}

nlohmann::ordered_json fit_json(const FitSpec& spec, const FitOutcome& f, const fs::path& out) {
  const auto optional_number = [](const std::optional<double>& v) {
    return v ? nlohmann::ordered_json(*v) : nlohmann::ordered_json(nullptr);
  };
  nlohmann::ordered_json values = nlohmann::ordered_json::array();
  for (std::size_t k = 0; k < spec.values.size(); ++k) {
    const auto& v = spec.values[k];
    values.push_back({{"name", v.name}, {"set", v.target.describe()}, {"derived", v.derived}, {"value", f.fitted[k]},
                      {"kept", static_cast<bool>(f.kept[k])}, {"range", {v.lower, v.upper}},
                      {"at_bound", f.kept[k] && at_bound(v, f.fitted[k])}});
  }
  nlohmann::ordered_json groups = nlohmann::ordered_json::array();
  for (std::size_t g = 0; g < f.grouping.names.size(); ++g) {
    std::vector<double> held;
    for (std::size_t i = 0; i < f.held_out.size(); ++i) {
      if (f.grouping.group[i] == static_cast<int>(g)) held.push_back(f.held_out[i]);
    }
    groups.push_back({{"group", f.grouping.names[g]},
                      {"cells", std::count(f.grouping.group.begin(), f.grouping.group.end(), static_cast<int>(g))},
                      {"cross_validated_median_relative_error",
                       f.cross_validated ? nlohmann::ordered_json(median_relative_error(held)) : nlohmann::ordered_json(nullptr)}});
  }
  std::vector<std::string> train;
  for (const auto& s : spec.train) train.push_back(s.name);
  return {{"spec", fs::path(spec.file).filename().string()},
          {"platform", fs::path(spec.platform).filename().string()},
          {"fitted", out.filename().string()},
          {"train", train},
          {"cells", f.cells},
          {"train_median_relative_error", {{"derived", f.before}, {"fitted", f.after}}},
          {"cross_validation", {{"leave_one_out", f.grouping.by}, {"groups", groups}}},
          {"cross_validated_median_relative_error", optional_number(f.cross_validated)},
          {"cross_validated_median_relative_error_all_values", optional_number(f.cross_validated_all)},
          {"values", values}};
}

}  // namespace

PlatformFitResult fit_platform(const FitSpec& spec, const PlatformFitSettings& o, std::ostream& log) {
  const PlatformFile platform = PlatformFile::read(spec.platform);
  // Both outputs before the replays: an unwritable one fails now, not after the fit, and the two are
  // published together (the JSON report names the fitted file, so its name must be UTF-8).
  const fs::path out = o.out.empty() ? fs::path(spec.fitted) : fs::path(o.out);
  std::vector<os::NamedFile> inputs = {{spec.file, "fit specification"}, {spec.platform, "derived platform"}};
  for (const Scenario& s : spec.train) inputs.push_back({s.file, "train scenario"});
  os::refuse_outputs_onto_inputs({{out, "--out"}, {o.json, "--json"}}, inputs);
  os::PendingFile fitted_file(out);
  std::optional<os::PendingFile> json_file;
  if (!o.json.empty()) {
    os::require_utf8(out.filename().string(), "--out", "the --json report names it in UTF-8");
    json_file.emplace(o.json);
  }
  TrainResiduals residuals(spec, platform, o.jobs);
  std::vector<double> start, lower, upper, prior;
  for (const auto& v : spec.values) {
    start.push_back(std::log(v.initial));
    lower.push_back(std::log(v.lower));
    upper.push_back(std::log(v.upper));
    prior.push_back(std::log(v.derived > 0 ? v.derived : v.initial));
  }
  const std::vector<double> before = residuals(prior);
  if (before.empty()) throw std::runtime_error("the train scenarios have no published cell to fit");
  log << fmt::format("fit: {} published cells of {}; median relative error with the derived values {:.1f}%\n",
                           before.size(), train_names(spec), 100 * median_relative_error(before));
  const Residuals all_residuals = std::ref(residuals);
  const auto report = [&](const std::vector<bool>& kept) {
    return [&spec, &log, kept](const BoundedFitStep& step) {
      std::string values;
      for (std::size_t k = 0; k < spec.values.size(); ++k) {
        if (kept[k]) values += fmt::format(" {}={:.4g}", spec.values[k].name, std::exp(step.x[k]));
      }
      log << fmt::format("fit: iteration {}: sum of squared log errors {:.6g};{}; damping {:.2g}; {} replays\n",
                               step.iteration, step.cost, values, step.damping, step.evaluations);
    };
  };
  const std::vector<bool> every_cell(before.size(), true);
  FitOutcome f;
  f.cells = before.size();
  f.grouping = group_cells(spec, residuals.cells());
  f.kept.assign(spec.values.size(), true);
  // Every value fitted on every cell, the fit as it always was; then the cross-validation decides
  // which values keep their place, and the kept ones are fitted again from there.
  std::vector<double> x = fit_on(all_residuals, every_cell, start, prior, lower, upper, f.kept, report(f.kept));
  if (o.cross_validation != "none" && f.grouping.names.size() >= 2) {
    const bool exact = o.cross_validation == "exact";
    log << fmt::format("fit: cross-validation ({}), leave one {} out: {} groups\n",
                             exact ? "exact" : "linearised at the fit", f.grouping.by, f.grouping.names.size());
    const Residuals model = exact ? all_residuals : linearised(all_residuals, x, upper);
    const Selection selection = select_by_cross_validation(
        model, f.grouping.group, start, prior, lower, upper,
        [&](const std::vector<bool>& free, const CrossValidation& cv) {
          std::string held;
          for (std::size_t k = 0; k < free.size(); ++k) {
            if (!free[k]) held += (held.empty() ? "" : ",") + spec.values[k].name;
          }
          log << fmt::format("fit: cross-validated median relative error {:.1f}% (sum of squared log errors {:.6g}) "
                                   "holding [{}] at the derived value\n",
                                   100 * median_relative_error(cv.held_out), cv.cost, held);
        },
        40, exact ? Residuals() : all_residuals);  // linearised: the held-out cells scored by replays
    f.kept = selection.kept;
    f.held_out = selection.selected.held_out;
    f.cross_validated = median_relative_error(selection.selected.held_out);
    f.cross_validated_all = median_relative_error(selection.all.held_out);
    f.validation_mode = exact ? "exact" : "linearised";
    if (!selection.dropped.empty()) x = fit_on(all_residuals, every_cell, x, prior, lower, upper, f.kept, report(f.kept));
  }
  for (const double v : x) f.fitted.push_back(std::exp(v));
  const std::vector<double> after = residuals(x);
  f.before = median_relative_error(before);
  f.after = median_relative_error(after);

  std::vector<std::string> comments;
  for (std::size_t k = 0; k < spec.values.size(); ++k) {
    comments.push_back(value_comment(spec.values[k], f.fitted[k], f.kept[k]));
  }
  fitted_file.write(platform.with_values(targets_of(spec), f.fitted, comments, header(spec, f)));
  if (json_file) json_file->write(fit_json(spec, f, out).dump(2) + "\n");
  fitted_file.publish();
  if (json_file) json_file->publish();
  return {table(spec, f), out.string()};
}


}  // namespace redist::calibration
