// `redist explain`'s answer: every candidate way of redistributing the request, priced by the
// prediction on the platform's machine model, the one `auto` picks, and, when asked, each candidate
// simulated on the platform (the redistribute experiment, phantom payload) beside its prediction.
#pragma once

#include "redist/experiments/experiment_schema.hpp"
#include "redist/reports/explanation.hpp"
#include "redist/transport/machine_model.hpp"

namespace redist::sim {

/// `request` with its layouts read by the redistribute experiment's rules, as `redist simulate` reads
/// them: 1-D (its P, Q and N, each 0 where not given) or the 2-D form's parameters in `matrix`
/// (rows, cols, src_grid, ...: redistribute_matrix_parameters). Throws std::invalid_argument for
/// forms mixed or incomplete, and for a submatrix: explain prices whole matrices, as auto does.
ExplainRequest with_layouts(ExplainRequest request, const Params& matrix);

/// The machine model of the request's ranks on its platform (machine_model_from_platform).
MachineModel request_machine_model(const ExplainRequest& request);

/// Every candidate of `request.request` predicted on `model`, the fastest chosen; each simulated
/// when `request.simulate`. `seconds` is the time the prediction took, simulations aside.
Explanation predict_candidates(const ExplainRequest& request, const MachineModel& model);

}  // namespace redist::sim
