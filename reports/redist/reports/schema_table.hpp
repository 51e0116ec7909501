// The experiments' parameters as Markdown: `redist experiments` prints it, and scenarios/README.md
// holds it verbatim (a test compares them), so the documented schema is the one in force.
#pragma once

#include <string>
#include <vector>

#include "redist/experiments/experiment_schema.hpp"

namespace redist {

/// One section per experiment: its summary and command, a table of its parameters (values
/// accepted, default, flag, meaning), its phases and quantities.
std::string schema_markdown(const std::vector<ExperimentSpec>& experiments);

}  // namespace redist
