#include "redist/pack/phase_timing.hpp"

namespace redist::pack {

void start_timed_phase(Transport& transport, WorkAccounting accounting) {
  if (accounting == WorkAccounting::Paper) transport.barrier();
}

}  // namespace redist::pack
