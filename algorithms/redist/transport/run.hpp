// A run of a rank's local storage: where a message's elements lie there. The indexing methods
// produce them (indexing/rank_plan.hpp); the message layer reads them when a message travels straight
// out of the sender's storage into the receiver's (Transport::describe_message).
#pragma once

#include "redist/core/int_math.hpp"

namespace redist {

/// `length` consecutive elements of local storage starting at `local_start` — or, when `count` > 1,
/// `count` such pieces, `stride` elements apart (one run record for a regular pattern, such as a
/// cyclic dimension of a multi-dimensional layout, copied without a record per piece).
struct Run {
  Index local_start;
  Index length;
  Index count = 1;
  Index stride = 0;
  friend bool operator==(const Run&, const Run&) = default;
};

}  // namespace redist
