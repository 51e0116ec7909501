// Seconds one rank spends in the parts of PACK/UNPACK the paper times separately (§7): the
// prefix-reduction-sums, the many-to-many communication, a preliminary redistribution; the rest of
// the total is local computation.
#pragma once

#include "redist/transport/transport.hpp"

namespace redist::pack {

struct PhaseTimes {
  double prs = 0;     ///< vector prefix-reduction-sums (ranking's intermediate steps)
  double comm = 0;    ///< many-to-many personalised communication (both stages for UNPACK)
  double redist = 0;  ///< preliminary redistribution of a cyclic input (§6.3), when used
  double total = 0;
  double local() const { return total - prs - comm - redist; }
};

/// Adds the time from construction to destruction to `into` (after settling charged work first:
/// now() already counts it).
class PhaseClock {
 public:
  PhaseClock(const Transport& transport, double& into) : transport_(transport), into_(into), start_(transport.now()) {}
  ~PhaseClock() { into_ += transport_.now() - start_; }
  PhaseClock(const PhaseClock&) = delete;
  PhaseClock& operator=(const PhaseClock&) = delete;

 private:
  const Transport& transport_;
  double& into_;
  double start_;
};

}  // namespace redist::pack
