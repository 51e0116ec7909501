// How PACK/UNPACK time their prefix-reduction-sums and exchanges. As run (redist's accounting): each
// rank clocks a phase from the moment it reaches it, so a rank that arrives early counts its wait for
// the late ones in that phase (the control-network scan and the exchanges wait for everyone). Paper
// 001 reports phases that do not carry such waits: its prefix-reduction-sum "depends completely on
// the size of the vector" and UNPACK's two-stage exchange costs about twice PACK's (section 7), even
// with the triangle mask, where half the processors hold every true element. So its programs started
// each timed phase together: with WorkModel::Paper every rank passes a barrier (on the CM-5 the
// control network's) before the phase's clock starts, and a late rank's lag stays in the local
// computation before it.
#pragma once

#include "redist/pack/paper_work.hpp"
#include "redist/transport/transport.hpp"

namespace redist::pack {

/// A barrier before a timed phase, for the paper's programs; nothing for redist's own.
void start_timed_phase(Transport& transport, WorkModel accounting);

}  // namespace redist::pack
