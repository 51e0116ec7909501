// The keyword arguments of redist.explain() as the ExplainRequest `redist explain` fills from its
// flags, with the command's checks and messages (the flag's name without its dashes). A field added to
// ExplainRequest (redist/reports/explanation.hpp) becomes a keyword by one line of kFields in
// explain_request.cpp.
#pragma once

#include <string>

#include <pybind11/pybind11.h>

#include "redist/reports/explanation.hpp"

namespace redist::python {

/// Throws std::invalid_argument for a missing platform file, a request neither 1-D (P, Q, N) nor 2-D
/// (rows, cols, src_grid, ...: sim::with_layouts), a value the command refuses ("P: must be
/// positive, got 0") or a keyword it does not take.
ExplainRequest explain_request(const std::string& platform, const pybind11::dict& given);

}  // namespace redist::python
