// The `work` run parameter: whose program a run models. `redist` (the default) runs and prices
// redist's own implementation; `paper` follows what the paper's program did where the paper
// describes it (its timing procedure, its per-element owner computations), keeping redist's
// algorithms unchanged and changing only what the replay does and counts.
#pragma once

#include <string>

#include "redist/experiments/experiment_schema.hpp"
#include "redist/transport/work_model.hpp"

namespace redist::sim {

/// The `work` parameter of an experiment, redist or paper; `paper_does` says what paper charges.
ParameterSpec work_parameter(const std::string& paper_does);

/// Whether the run models the paper's program (`work: paper`).
bool paper_work(const ParameterValues& values);

}  // namespace redist::sim
