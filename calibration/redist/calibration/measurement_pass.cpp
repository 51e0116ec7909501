#include "redist/calibration/measurement_pass.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "redist/calibration/local_work_measurements.hpp"

namespace redist::calibration {
namespace {

// Element by element, each at the better of the two by `better`; the same ranks throughout.
template <typename Measurement, typename Better>
void keep_best(std::vector<Measurement>& fastest, const std::vector<Measurement>& pass, const char* what, Better better) {
  if (pass.size() != fastest.size()) throw std::runtime_error(std::string(what) + " passes measured different rank counts");
  for (std::size_t k = 0; k < pass.size(); ++k) {
    if (pass[k].ranks != fastest[k].ranks) throw std::runtime_error(std::string(what) + " passes measured different rank counts");
    better(fastest[k], pass[k]);
  }
}

void keep_widest(Exchange& fastest, const Exchange& pass) { fastest.bandwidth = std::max(fastest.bandwidth, pass.bandwidth); }

}  // namespace

MeasurementPass measure_pass(const MpiLauncher& launcher, Index cores, Index max_bytes, double seconds_per_size) {
  MeasurementPass m;
  m.ping_pong = measure_ping_pong(launcher, max_bytes, seconds_per_size);
  m.exchange = measure_exchange(launcher, std::max<Index>(2, cores));
  for (const Index ranks : oversubscribed_rank_counts(cores)) m.oversubscribed.push_back(measure_exchange(launcher, ranks));
  m.busy_round_trip = measure_busy_round_trip(launcher, cores);
  m.shared_core = measure_shared_core_round_trips(launcher, cores);
  m.shared_copies = measure_shared_copies(launcher, cores);
  // Read through as it will be: a field missing is redist-mpi's output not recognised.
  m.local_work = launcher.read_json(static_cast<int>(cores), "localwork --json", [](const nlohmann::json& json) {
    static_cast<void>(local_work_from_json(json));
    return json;
  });
  return m;
}

void keep_fastest(MeasurementPass& fastest, const MeasurementPass& pass) {
  keep_fastest(fastest.ping_pong, pass.ping_pong);
  keep_widest(fastest.exchange, pass.exchange);
  keep_best(fastest.oversubscribed, pass.oversubscribed, "all-to-all", keep_widest);
  fastest.busy_round_trip = std::min(fastest.busy_round_trip, pass.busy_round_trip);
  keep_best(fastest.shared_core, pass.shared_core, "shared-core ping-pong", [](SharedCoreRoundTrip& f, const SharedCoreRoundTrip& p) {
    f.round_trip = std::min(f.round_trip, p.round_trip);
  });
  keep_best(fastest.shared_copies, pass.shared_copies, "packing-at-once", [](SharedCopy& f, const SharedCopy& p) {
    f.seconds = std::min(f.seconds, p.seconds);
    f.index_seconds = std::min(f.index_seconds, p.index_seconds);
  });
  fastest.local_work = fastest_rows({fastest.local_work, pass.local_work});
}

}  // namespace redist::calibration
