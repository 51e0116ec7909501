// The flags of an experiment's parameters, made from its schema (redist/experiments/experiment_schema.hpp):
// one per parameter its command takes (ParameterSpec::on_command_line), named by flag_name (-P,
// --elem-bytes), with the parameter's meaning and default as help. A parameter added to a schema is
// thus a flag of the command and a key of scenarios at once, checked by the same rules.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "redist/experiments/experiment_schema.hpp"

namespace redist::cli {

class ExperimentOptions {
 public:
  /// Adds the flags to `app`, but those of `left_out` (a parameter the command cannot use).
  static std::shared_ptr<ExperimentOptions> add(CLI::App* app, const ExperimentSpec& spec,
                                                const std::vector<std::string>& left_out = {});

  /// The parameters given, checked; absent ones read as the schema's defaults.
  ParameterValues values() const;

 private:
  explicit ExperimentOptions(const ExperimentSpec& spec) : spec_(spec) {}
  const ExperimentSpec& spec_;
  std::map<std::string, std::string> given_;  ///< text by parameter, as typed
};

}  // namespace redist::cli
