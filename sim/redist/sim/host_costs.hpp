// The cost-model side of a platform (docs/ARCHITECTURE.md §4): the prices a host declares as properties.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <simgrid/s4u/Host.hpp>

#include "redist/core/finite_number.hpp"
#include "redist/core/piecewise_curve.hpp"
#include "redist/transport/work.hpp"

namespace redist::sim {

/// Every price and overhead of `host`, in seconds. Throws std::runtime_error naming the platform,
/// the host and the property when one is missing, not a number or negative.
WorkPrices read_prices(const simgrid::s4u::Host& host, const std::string& platform);

/// True when every one of `hosts` names the same memory node (property memory.node, engine.hpp):
/// ranks on them share memory. False when any lacks the property.
bool share_one_memory(const std::vector<const simgrid::s4u::Host*>& hosts);

/// A curve property's text (PiecewiseCurve's syntax, 0 values only where `zero_allowed`) declared by `element` ("host node-0",
/// "link memory"): none where `text` is null; throws std::runtime_error naming the platform, the
/// element and the property when it is no such curve. The one reader of every curve-valued property.
std::optional<PiecewiseCurve> read_curve_property(const char* text, const std::string& element, std::string_view property,
                                                  const std::string& platform, bool zero_allowed = false);

/// A non-negative number of seconds held by an optional property; empty when the host lacks it.
std::optional<double> read_seconds(const simgrid::s4u::Host& host, std::string_view property,
                                   const std::string& platform);

}  // namespace redist::sim
