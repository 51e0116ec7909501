#include "redist/calibration/machine_calibration.hpp"

#include <algorithm>
#include <vector>

#include <nlohmann/json.hpp>

#include "redist/calibration/calibrated_platform.hpp"
#include "redist/calibration/core_sharing_measurements.hpp"
#include "redist/calibration/least_squares.hpp"
#include "redist/calibration/local_work_measurements.hpp"
#include "redist/calibration/measurement_pass.hpp"
#include "redist/calibration/network_measurements.hpp"
#include "redist/os/atomic_file.hpp"
#include "redist/predict/machine_model_json.hpp"
#include "redist/sim/machine_model_from_platform.hpp"

namespace redist::calibration {

CalibrationResult calibrate_machine(const CalibrationSettings& o) {
  // Both outputs before the measurements: an unwritable --out or model file fails now, and the two
  // are published together after (the platform and its model never disagree).
  os::PendingFile platform(o.out);
  os::PendingFile model(machine_model_file(o.out));
  MeasurementPass fastest = measure_pass(o.launcher, o.cores, o.max_bytes, o.seconds_per_size);
  for (int pass = 1; pass < o.passes; ++pass) {
    keep_fastest(fastest, measure_pass(o.launcher, o.cores, o.max_bytes, o.seconds_per_size));
  }
  NetworkMeasurements network = fit_ping_pong(fastest.ping_pong);
  network.exchange = fastest.exchange;
  network.oversubscribed = fastest.oversubscribed;
  network.time_slice = time_slice_of(fastest.busy_round_trip, o.cores);
  network.shared_core = fastest.shared_core;
  const std::vector<SharedCopy>& shared_copies = fastest.shared_copies;
  LocalWork work = local_work_from_json(fastest.local_work);
  std::vector<std::vector<double>> counts;
  std::vector<double> seconds;
  for (const auto& m : work.index) {
    counts.push_back(m.counts);
    seconds.push_back(m.seconds);
  }
  // ElementScanned comes only with the naive scan, always beside two IndexOp: priced second.
  const std::size_t scanned = static_cast<std::size_t>(
      std::find(kIndexKinds.begin(), kIndexKinds.end(), WorkKind::ElementScanned) - kIndexKinds.begin());
  std::vector<std::size_t> left_out;
  const auto prices = fit_prices_staged_trimmed(counts, seconds, {scanned}, &left_out);
  for (const std::size_t i : left_out) work.index[i].left_out = true;
  CalibrationResult result;
  result.report = calibration_report(network, work, prices, shared_copies, o.cores);
  platform.write(calibrated_platform_xml(o.cores, network, work, prices, shared_copies, result.report));
  // The model `auto` predicts on in MPI programs, for any number of ranks (all on the one host),
  // read from the platform not yet published.
  result.model = machine_model_file(o.out);
  model.write(machine_model_to_json(sim::machine_model_from_platform(platform.path().string(), 1, 1)) + "\n");
  platform.publish();
  model.publish();
  return result;
}

}  // namespace redist::calibration
