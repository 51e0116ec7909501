// One redistribution `redist validate` runs for real under mpirun and in the simulator: a 1-D
// CYCLIC(r)/P -> CYCLIC(s)/Q of N elements, its indexing method, schedule, relabelling and placement.
#pragma once

#include <algorithm>
#include <string>

#include <fmt/format.h>

#include "redist/core/int_math.hpp"

namespace redist::calibration {

struct ValidationCase {
  Index P = 1, r = 1, Q = 1, s = 1, N = 1;
  std::string indexing, schedule;
  std::string relabel = "none";  ///< none, exact or greedy (with shared placement only)
  bool disjoint = false;         ///< destinations on ranks P, P+1, ... instead of the sources' ranks

  Index ranks() const { return disjoint ? P + Q : std::max(P, Q); }
  std::string placement() const { return disjoint ? "disjoint" : "shared"; }
  std::string label() const {
    return fmt::format("P={} r={} Q={} s={} N={} {}/{}{}{}", P, r, Q, s, N, indexing, schedule,
                       relabel == "none" ? "" : " relabel " + relabel, disjoint ? " disjoint" : "");
  }
};

}  // namespace redist::calibration
