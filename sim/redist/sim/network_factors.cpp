#include "redist/sim/network_factors.hpp"

#include <stdexcept>

#include <simgrid/kernel/resource/NetworkModelIntf.hpp>
#include <simgrid/s4u/NetZone.hpp>

#include "redist/core/piecewise_curve.hpp"

namespace redist::sim {

void apply_network_factors(const simgrid::s4u::Engine& engine, const std::string& platform) {
  simgrid::s4u::NetZone* root = engine.get_netzone_root();
  const char* latency = root->get_property(std::string(kLatencyFactorsProperty));
  const char* bandwidth = root->get_property(std::string(kBandwidthFactorsProperty));
  if (latency == nullptr && bandwidth == nullptr) return;
  const auto parsed = [&](const char* text, std::string_view property) {
    try {
      return PiecewiseCurve::parse(text == nullptr ? "0:1" : text, property == kLatencyFactorsProperty);
    } catch (const std::invalid_argument& e) {
      throw std::runtime_error("platform " + platform + ": zone property " + std::string(property) + ": " + e.what());
    }
  };
  const PiecewiseCurve latency_factors = parsed(latency, kLatencyFactorsProperty);
  const PiecewiseCurve bandwidth_factors = parsed(bandwidth, kBandwidthFactorsProperty);
  simgrid::kernel::resource::NetworkModelIntf* model = root->get_network_model();
  try {
    model->set_lat_factor_cb([latency_factors](double size, auto&&...) { return latency_factors.at(size); });
    model->set_bw_factor_cb([bandwidth_factors](double size, auto&&...) { return bandwidth_factors.at(size); });
  } catch (const std::exception&) {  // SimGrid's "Feature unimplemented yet. Please report this bug."
    throw std::runtime_error("platform " + platform + ": its network/model takes no factor curves (" +
                             std::string(kLatencyFactorsProperty) + ", " + std::string(kBandwidthFactorsProperty) +
                             " need CM02, LV08, SMPI or IB)");
  }
}

}  // namespace redist::sim
