#include "redist/predict/auto_choice.hpp"

#include <stdexcept>

#include "redist/predict/prediction.hpp"
#include "redist/redistribute/relabelling.hpp"

namespace redist {
namespace {

constexpr Tag kPredictionTag = 400;

// Every rank's local predictions, each rank's own first computed here: one message to and from
// every other rank (a few numbers per candidate).
std::vector<std::vector<LocalSeconds>> gather_local(Transport& transport, std::vector<LocalSeconds> mine) {
  const Rank me = transport.rank(), size = transport.size();
  const auto bytes = static_cast<Index>(mine.size() * sizeof(LocalSeconds));
  std::vector<std::vector<LocalSeconds>> all(static_cast<std::size_t>(size), std::vector<LocalSeconds>(mine.size()));
  std::vector<Request> requests;
  for (Rank r = 0; r < size; ++r) {
    if (r == me) continue;
    requests.push_back(transport.irecv(r, reinterpret_cast<std::byte*>(all[static_cast<std::size_t>(r)].data()), bytes,
                                       kPredictionTag));
  }
  for (Rank r = 0; r < size; ++r) {
    if (r != me) requests.push_back(transport.isend(r, reinterpret_cast<const std::byte*>(mine.data()), bytes, kPredictionTag));
  }
  transport.wait_all(requests);
  all[static_cast<std::size_t>(me)] = std::move(mine);
  return all;
}

}  // namespace

ResolvedChoices resolve_choices(Transport& transport, const Layout& source, const Layout& dest,
                                RedistributeOptions options, bool kept_plan) {
  ResolvedChoices out;
  if (has_auto_choice(options)) {
    if (!options.model) throw std::invalid_argument("choosing by auto needs a machine model (options.model)");
    if (transport.phantom()) throw std::invalid_argument("choosing by auto needs real payloads (its ranks exchange predictions)");
    const CandidateSet set = candidate_set(source, dest, options.ranks, {options.indexing, options.schedule, options.relabel},
                                           [&transport] { return transport.now(); });
    auto local = gather_local(transport, predict_local(source, dest, options.elem_bytes, set, *options.model, transport.rank()));
    const auto predictions = predict(source, dest, options.elem_bytes, set, *options.model, local);
    const Candidate& chosen = set.list[kept_plan ? fastest_per_execution(predictions) : fastest(predictions)];
    options.indexing = chosen.indexing;
    options.schedule = chosen.schedule;
    options.relabel = std::string(relabel_method_names().name_of(chosen.relabel));
    out.inputs.placement = set.placement(chosen.relabel);
    // The candidates' schedules are layout_schedule's under StepProcedure::Redist.
    if (options.step_procedure == StepProcedure::Redist) out.inputs.schedule = set.schedule(source, dest, chosen);
  }
  out.options = std::move(options);
  return out;
}

}  // namespace redist
