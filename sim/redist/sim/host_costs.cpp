#include "redist/sim/host_costs.hpp"

#include <stdexcept>

#include "redist/sim/engine.hpp"

namespace redist::sim {
namespace {

std::runtime_error property_error(const simgrid::s4u::Host& host, std::string_view property,
                                  const std::string& platform, const std::string& problem) {
  return std::runtime_error("platform " + platform + ": host " + host.get_name() + " " + problem + " " +
                            std::string(property));
}

double required_seconds(const simgrid::s4u::Host& host, std::string_view property, const std::string& platform) {
  const auto seconds = read_seconds(host, property, platform);
  if (!seconds) throw property_error(host, property, platform, "lacks property");
  return *seconds;
}

}  // namespace

std::optional<PiecewiseCurve> read_curve_property(const char* text, const std::string& element, std::string_view property,
                                                  const std::string& platform, bool zero_allowed) {
  if (text == nullptr) return std::nullopt;
  try {
    return PiecewiseCurve::parse(text, zero_allowed);
  } catch (const std::invalid_argument& e) {
    throw std::runtime_error("platform " + platform + ": " + element + " property " + std::string(property) + ": " +
                             e.what());
  }
}

std::optional<double> read_seconds(const simgrid::s4u::Host& host, std::string_view property,
                                   const std::string& platform) {
  const char* text = host.get_property(std::string(property));
  if (text == nullptr) return std::nullopt;
  const auto seconds = finite_number(text);
  if (!seconds || *seconds < 0) {
    throw property_error(host, property, platform,
                         "has '" + std::string(text) + "' (not a non-negative number of seconds) in property");
  }
  return seconds;
}

WorkPrices read_prices(const simgrid::s4u::Host& host, const std::string& platform) {
  WorkPrices prices;
  for (std::size_t k = 0; k < kWorkKinds; ++k) {
    const auto kind = static_cast<WorkKind>(k);
    // Only the papers' programs count allocations (work: paper); records copied are redist's own
    // code's and paper 000's intersection-list copies; elements copied one by one, pdgemr2d's: a
    // platform written for other programs, or before the kind existed, prices them at 0.
    const bool optional = price_is_optional(kind);
    prices.seconds[k] = optional ? read_seconds(host, price_property(kind), platform).value_or(0)
                                 : required_seconds(host, price_property(kind), platform);
  }
  prices.send_overhead = required_seconds(host, kSendOverheadProperty, platform);
  prices.recv_overhead = required_seconds(host, kRecvOverheadProperty, platform);
  return prices;
}

bool share_one_memory(const std::vector<const simgrid::s4u::Host*>& hosts) {
  if (hosts.empty()) return false;
  const char* first = hosts.front()->get_property(std::string(kMemoryNodeProperty));
  for (const simgrid::s4u::Host* host : hosts) {
    const char* node = host->get_property(std::string(kMemoryNodeProperty));
    if (first == nullptr || node == nullptr || std::string_view(node) != first) return false;
  }
  return true;
}

}  // namespace redist::sim
