// Resolving a redistribution's choices before it is planned: "auto" becomes the candidate the
// prediction finds fastest on the options' machine model, and a relabelling named in the options
// places the destination processors.
#pragma once

#include "redist/layout/layout.hpp"
#include "redist/redistribute/redistribute.hpp"
#include "redist/transport/transport.hpp"

namespace redist {

/// `options` with each "auto" replaced by the fastest candidate's choice (resolving resolved options
/// changes nothing; `ranks` is left as given: plan_redistribution applies `relabel`, as part of the
/// index phase, and relabelled_ranks tells a caller where that puts the data). Collective over the
/// transport's ranks when a choice is auto: each rank prices its own local work for every
/// candidate and sends it to every other, so that all choose alike; local otherwise. The options
/// must have passed call_problem. With `kept_plan`, candidates are ranked on what each execution
/// of a kept plan costs (fastest_per_execution: the index phase, paid once, left out).
RedistributeOptions resolve_choices(Transport& transport, const Layout& source, const Layout& dest,
                                    RedistributeOptions options, bool kept_plan = false);

}  // namespace redist
