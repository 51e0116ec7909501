#include "redist/sim/network_factors.hpp"

#include <algorithm>
#include <stdexcept>

#include <simgrid/kernel/resource/NetworkModelIntf.hpp>
#include <simgrid/s4u/NetZone.hpp>

#include "redist/sim/host_costs.hpp"

namespace redist::sim {
namespace {

double number(std::string_view text, std::string_view curve) {
  const auto value = finite_number(text);
  if (!value) throw std::invalid_argument("'" + std::string(text) + "' is not a number in '" + std::string(curve) + "'");
  return *value;
}

}  // namespace

PiecewiseFactors PiecewiseFactors::parse(std::string_view text, bool zero_allowed) {
  PiecewiseFactors out;
  std::string_view rest = text;
  while (!rest.empty()) {
    const std::size_t end = std::min(rest.find(';'), rest.size());
    const std::string_view piece = rest.substr(0, end);
    rest = end < rest.size() ? rest.substr(end + 1) : std::string_view();
    const std::size_t colon = piece.find(':');
    if (colon == std::string_view::npos) {
      throw std::invalid_argument("'" + std::string(piece) + "' is not size:factor in '" + std::string(text) + "'");
    }
    const double start = number(piece.substr(0, colon), text), factor = number(piece.substr(colon + 1), text);
    if (out.starts_.empty() ? start != 0 : start <= out.starts_.back()) {
      throw std::invalid_argument("sizes must start at 0 and increase in '" + std::string(text) + "'");
    }
    if (factor < 0 || (factor == 0 && !zero_allowed)) {
      throw std::invalid_argument(std::string(zero_allowed ? "factors must not be negative" : "factors must be positive") +
                                  " in '" + std::string(text) + "'");
    }
    out.starts_.push_back(start);
    out.factors_.push_back(factor);
  }
  if (out.starts_.empty()) throw std::invalid_argument("an empty curve");
  return out;
}

double PiecewiseFactors::at(double bytes) const {
  const auto after = std::upper_bound(starts_.begin(), starts_.end(), bytes);
  return factors_[static_cast<std::size_t>(std::max<std::ptrdiff_t>(0, after - starts_.begin() - 1))];
}

void apply_network_factors(const simgrid::s4u::Engine& engine, const std::string& platform) {
  simgrid::s4u::NetZone* root = engine.get_netzone_root();
  const char* latency = root->get_property(std::string(kLatencyFactorsProperty));
  const char* bandwidth = root->get_property(std::string(kBandwidthFactorsProperty));
  if (latency == nullptr && bandwidth == nullptr) return;
  const auto parsed = [&](const char* text, std::string_view property) {
    try {
      return PiecewiseFactors::parse(text == nullptr ? "0:1" : text, property == kLatencyFactorsProperty);
    } catch (const std::invalid_argument& e) {
      throw std::runtime_error("platform " + platform + ": zone property " + std::string(property) + ": " + e.what());
    }
  };
  const PiecewiseFactors latency_factors = parsed(latency, kLatencyFactorsProperty);
  const PiecewiseFactors bandwidth_factors = parsed(bandwidth, kBandwidthFactorsProperty);
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
