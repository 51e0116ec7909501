#include "redist/pack/phase_timing.hpp"

namespace redist::pack {

void start_timed_phase(Transport& transport, WorkModel accounting) {
  if (accounting == WorkModel::Paper) transport.barrier();
}

}  // namespace redist::pack
