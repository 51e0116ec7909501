#include "redist/experiments/candidate_predictions.hpp"

#include <algorithm>
#include <chrono>
#include <string>
#include <optional>
#include <stdexcept>

#include "redist/pdgemr2d/pdgemr2d_prediction.hpp"
#include "redist/experiments/experiments.hpp"
#include "redist/sim/machine_model_from_platform.hpp"

namespace redist::sim {
namespace {

RankMap rank_map(const ExplainRequest& o) {
  return o.placement == "disjoint" ? RankMap::disjoint(o.source().processors()) : RankMap::shared();
}

Params layout_params(const ExplainRequest& o) {
  Params params = o.matrix ? redistribute_matrix_params(*o.matrix)
                           : Params{{"P", o.P}, {"r", o.r}, {"Q", o.Q}, {"s", o.s}, {"N", o.N}};
  params["elem_bytes"] = o.elem_bytes;
  params["placement"] = o.placement;
  if (o.hosts > 0) params["hosts"] = o.hosts;
  return params;
}

double simulated(const ExplainRequest& o, const Params& params) {
  return find_experiment("redistribute").run(o.platform, params, Payload::Phantom, "").phases.total;
}

double simulated_total(const ExplainRequest& o, const Candidate& c) {
  Params params = layout_params(o);
  params["indexing"] = c.indexing;
  params["schedule"] = c.schedule;
  params["relabel"] = std::string(relabel_method_names().name_of(c.relabel));
  return simulated(o, params);
}

// pdgemr2d beside redist's candidates, for a 2-D pair ScaLAPACK can store (column-major).
std::optional<ExplainedCandidate> pdgemr2d_beside(const ExplainRequest& o, const Layout& source, const Layout& dest,
                                                  const RankMap& ranks, const MachineModel& model) {
  if (!o.matrix || o.matrix->from.order != StorageOrder::ColumnMajor || o.matrix->to.order != StorageOrder::ColumnMajor) {
    return std::nullopt;
  }
  ExplainedCandidate row{predict_pdgemr2d(source, dest, o.elem_bytes, ranks, model)};
  if (o.simulate) {
    Params params = layout_params(o);
    params["method"] = kPdgemr2dName;
    row.simulated_total = simulated(o, params);
  }
  return row;
}

}  // namespace

ExplainRequest with_layouts(ExplainRequest request, const Params& matrix) {
  Params params = matrix;
  for (const auto& [name, value] : {std::pair{"P", request.P}, std::pair{"Q", request.Q}, std::pair{"N", request.N}}) {
    if (value > 0) params[name] = value;
  }
  request.matrix = redistribute_matrix_copy(ParameterValues(find_experiment("redistribute").spec, params));
  if (request.matrix && !request.matrix->whole()) {
    throw std::invalid_argument("explain prices whole matrices, as auto does: a submatrix copy (sub, src_at, dst_at) "
                                "runs redist's submatrix plan alone (redist simulate simulates it)");
  }
  return request;
}

// A prediction keeps a clock and plans each rank's share: beyond this many ranks it could not answer
// in useful time, and no MPI job runs so many.
constexpr Index kMostPredictedRanks = Index{1} << 20;

MachineModel request_machine_model(const ExplainRequest& o) {
  const Index sources = o.source().processors(), destinations = o.dest().processors();
  if (sources > kMostPredictedRanks || destinations > kMostPredictedRanks) {
    throw std::invalid_argument("explain predicts every rank's share: at most " + std::to_string(kMostPredictedRanks) +
                                " processors a side, not " + std::to_string(std::max(sources, destinations)));
  }
  return machine_model_from_platform(o.platform, rank_map(o).ranks_needed(sources, destinations), o.hosts);
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
  answer.pdgemr2d = pdgemr2d_beside(o, source, dest, ranks, model);
  return answer;
}

}  // namespace redist::sim
