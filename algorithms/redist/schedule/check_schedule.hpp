// Validity of a schedule against the lengths it schedules (paper 004, Definition 4): every step is
// a matching (no source sends twice, no destination receives twice), every non-zero entry appears
// in exactly one step with its length, and no zero entry appears.
#pragma once

#include <optional>
#include <string>

#include "redist/schedule/length_matrix.hpp"
#include "redist/schedule/schedule.hpp"

namespace redist {

/// The first violation found, described in one line; nullopt for a valid schedule.
std::optional<std::string> schedule_violation(const Schedule& schedule, const LengthMatrix& lengths);

}  // namespace redist
