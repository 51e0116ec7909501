#include "redist/sim/candidate_predictions.hpp"

#include <chrono>

#include "redist/sim/experiments.hpp"
#include "redist/sim/machine_model_from_platform.hpp"

namespace redist::sim {
namespace {

RankMap rank_map(const ExplainRequest& o) {
  return o.placement == "disjoint" ? RankMap::disjoint(o.source().processors()) : RankMap::shared();
}

double simulated_total(const ExplainRequest& o, const Candidate& c) {
  Params params = o.matrix ? redistribute_matrix_params(*o.matrix)
                           : Params{{"P", o.P}, {"r", o.r}, {"Q", o.Q}, {"s", o.s}, {"N", o.N}};
  params["elem_bytes"] = o.elem_bytes;
  params["indexing"] = c.indexing;
  params["schedule"] = c.schedule;
  params["placement"] = o.placement;
  params["relabel"] = std::string(relabel_method_names().name_of(c.relabel));
  if (o.hosts > 0) params["hosts"] = o.hosts;
  return find_experiment("redistribute").run(o.platform, params, Payload::Phantom, "").phases.total;
}

}  // namespace

MachineModel request_machine_model(const ExplainRequest& o) {
  return machine_model_from_platform(o.platform,
                                     rank_map(o).ranks_needed(o.source().processors(), o.dest().processors()), o.hosts);
}

Explanation predict_candidates(const ExplainRequest& o, const MachineModel& model) {
  const Layout source = o.source();
  const Layout dest = o.dest();
  const RankMap ranks = rank_map(o);
  const auto start = std::chrono::steady_clock::now();
  const auto candidates = redist::candidates(source, dest, ranks, o.request);
  const auto predictions = predict_all_ranks(source, dest, o.elem_bytes, ranks, candidates, model);
  Explanation answer;
  answer.choice = fastest(predictions);
  answer.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  for (const Prediction& p : predictions) {
    answer.rows.push_back({p, o.simulate ? simulated_total(o, p.candidate) : -1});
  }
  return answer;
}

}  // namespace redist::sim
