// The parameters of one experiment kind, described once: the values each accepts, its default and
// its meaning. The scenario loader checks scenario files against it, the CLI makes its flags from it
// (cli/experiment_options.hpp), experiments read their runs' values through it
// (ParameterValues), and `redist experiments` prints scenarios/README.md's table from it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "redist/experiments/phase.hpp"
#include "redist/core/name_table.hpp"

namespace redist {

/// The two whole numbers of "AxB" (separator 'x') or "A,B" (','); nullopt for any other text.
std::optional<std::pair<std::int64_t, std::int64_t>> parse_pair(const std::string& text, char separator);

/// Parameter values of one run, by name (integers or strings), in a stable order.
using Params = nlohmann::ordered_json;

/// One parameter; written with designated initializers ({.name = "P", .meaning = ..., .min = 1}).
struct ParameterSpec {
  std::string name{};
  std::string meaning{};  ///< one phrase: CLI help and the README table
  /// Whole numbers accepted from `min` (none: no number is) up to `max` (none: no bound).
  std::optional<std::int64_t> min{};
  std::optional<std::int64_t> max{};
  std::vector<std::string> names{};  ///< names accepted (e.g. block, cyclic; or the only values)
  /// Not 0: the value is a pair of whole numbers written "A<pair>B" (4x4, 0,1), each from `min` up
  /// to `max`, as ScaLAPACK's grids, blocks and first processes are given.
  char pair = 0;
  Params default_value{};            ///< null: none (absent means what `meaning` says)
  bool required = false;             ///< every run must set it (but as the two fields below say)
  /// With `required`: not required of a run that sets this other parameter (a run of the other
  /// form: the redistribute experiment's 1-D P, unless its 2-D rows is set).
  std::string required_unless{};
  /// With `required`: required only of a run that sets this other parameter (its form's marker).
  std::string required_with{};
  /// Whether the experiment's command takes it as a flag (flag_name); false for what the command
  /// derives itself (e.g. `redist simulate` reports r and s, so it takes no `direction`).
  bool on_command_line = true;

  /// Throws std::invalid_argument("parameter 'P' must be a positive whole number, got 0").
  void check(const nlohmann::json& value) const;
  /// "a positive whole number, block or cyclic" (the values accepted, for messages and the README).
  std::string accepted() const;
};

/// The names of a table of choices, in table order.
template <class E>
std::vector<std::string> names_of(const NameTable<E>& table) {
  std::vector<std::string> out;
  for (const E value : table.values()) out.emplace_back(table.name_of(value));
  return out;
}

/// What an experiment kind accepts, so that scenarios and command lines are validated before
/// anything runs.
struct ExperimentSpec {
  std::string name;
  std::string summary;  ///< what one run simulates (README)
  std::string command;  ///< the `redist` subcommand running one run of it ("" if none)
  std::vector<ParameterSpec> parameters;
  std::vector<Phase> phases;            ///< phases it reports
  std::vector<std::string> quantities;  ///< model quantities each run reports (for `follows` claims)
  std::string notes;                    ///< phases and quantities explained (README)

  /// Null for a name it does not take.
  const ParameterSpec* parameter(const std::string& name) const;
  std::vector<std::string> parameter_names() const;
  /// Throws std::invalid_argument for an unknown parameter or a value it does not accept.
  void check_value(const std::string& name, const nlohmann::json& value) const;
  /// Whether a scenario may report `value`: the name of one of its phases or of one of its quantities.
  bool reports(const std::string& value) const;
};

/// A parameter value as written in a scenario or on the command line: a whole number when the
/// text reads as one, else the text.
nlohmann::json parameter_value(const std::string& text);

/// `-P` for one-letter names, `--elem-bytes` for elem_bytes.
std::string flag_name(const std::string& parameter);

/// A run's parameters read through its experiment's schema: every value given is checked, and an
/// absent one takes the schema's default. Reading a parameter that is neither set nor defaulted
/// throws std::invalid_argument("parameter 'r' is not set").
class ParameterValues {
 public:
  ParameterValues(const ExperimentSpec& spec, const Params& params);
  /// The values set by the run (no defaults).
  const Params& given() const { return params_; }
  /// Set by the run (not a default).
  bool given(const std::string& name) const;
  /// Set or defaulted.
  bool has(const std::string& name) const;
  const Params& value(const std::string& name) const;
  std::int64_t integer(const std::string& name) const;
  std::string text(const std::string& name) const;
  /// A pair parameter's two numbers (ParameterSpec::pair).
  std::pair<std::int64_t, std::int64_t> pair(const std::string& name) const;
  /// The value is one of the parameter's names (block, cyclic, LT, all), not a number.
  bool is_name(const std::string& name) const { return value(name).is_string(); }

 private:
  const ExperimentSpec& spec_;
  Params params_;
};

}  // namespace redist
