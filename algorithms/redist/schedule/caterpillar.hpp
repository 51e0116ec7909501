// ScaLAPACK's caterpillar schedule (Prylli and Tourancheau; paper 004, §3.2 and table 19): a total
// exchange in max(P, Q) steps that ignores which pairs actually communicate.
//
// Direction convention (checked against table 19, P = 12, Q = 8, r = 4, s = 3): at step
// k = 0 .. max(P, Q) − 1, source p sends to destination (p − k) mod max(P, Q), equivalently
// destination q receives from source (q + k) mod max(P, Q), when that processor exists and the
// length is non-zero. Step 0 pairs p with q = p. Empty steps are kept: each still costs a
// synchronisation, which is why table 19 lists 12 steps, six of them of cost 0 (TC = 18).
//
// IdlePairs::ExchangeEmpty is the caterpillar as ScaLAPACK's program runs it in paper 004's
// experiments: in each step that carries data, every pair of the step without data exchanges an
// empty message (length 0), since the total exchange ignores which pairs need to communicate.
#pragma once

#include "redist/schedule/length_matrix.hpp"
#include "redist/schedule/schedule.hpp"

namespace redist {

enum class IdlePairs { Skip, ExchangeEmpty };

Schedule caterpillar_schedule(const LengthMatrix& lengths, IdlePairs idle = IdlePairs::Skip);

}  // namespace redist
