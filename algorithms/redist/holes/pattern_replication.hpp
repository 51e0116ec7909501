// The repetition step of paper 003 §3.2: once a processor's compressed local array holds its first
// A^p_ptn elements, the rest follow from "A(g) at l implies A(g + A_ptn) at l + A^p_ptn".
#pragma once

#include <span>

#include "redist/core/int_math.hpp"

namespace redist {

/// Fills out[period, size) from out[0, period) with out[l] = out[l − period] + shift.
/// The filled prefix doubles at each step (k patterns are copied at once, shifted by k·shift), so
/// every copy is one long, independent, vectorisable loop rather than a chain through the
/// element one pattern back. Returns the number of such copies (runs).
Index replicate_patterns(std::span<Index> out, Index period, Index shift);

}  // namespace redist
