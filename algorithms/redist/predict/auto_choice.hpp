// Resolving a redistribution's choices before it is planned: "auto" becomes the candidate the
// prediction finds fastest on the options' machine model, and a relabelling named in the options
// places the destination processors.
#pragma once

#include "redist/layout/layout.hpp"
#include "redist/redistribute/redistribute.hpp"
#include "redist/redistribute/redistribution_plan.hpp"
#include "redist/transport/transport.hpp"

namespace redist {

/// The choices resolved, with what choosing computed for the plan.
struct ResolvedChoices {
  /// Each "auto" replaced by the fastest candidate's choice; `ranks` left as given
  /// (plan_redistribution applies `relabel`, as part of the index phase).
  RedistributeOptions options;
  /// When a choice was auto: the chosen candidate's placement (its relabelling, timed on the
  /// transport's clock) and schedule, each computed once while choosing, for plan_redistribution
  /// to take as they are. Empty otherwise (the plan computes them).
  PlanInputs inputs;
};

/// `options` with each "auto" replaced by the fastest candidate's choice (resolving resolved options
/// changes nothing). Collective over the transport's ranks when a choice is auto: each rank prices
/// its own local work for every candidate and sends it to every other, so that all choose alike;
/// local otherwise. Each candidate's relabelling is computed once, each (placement, schedule)
/// built once (candidate_set), and the chosen ones are handed on. The options must have passed
/// call_problem. With `kept_plan`, candidates are ranked on what each execution of a kept plan
/// costs (fastest_per_execution: the index phase, paid once, left out).
ResolvedChoices resolve_choices(Transport& transport, const Layout& source, const Layout& dest,
                                RedistributeOptions options, bool kept_plan = false);

}  // namespace redist
