#include "redist/predict/machine_model_json.hpp"

#include <fstream>
#include <sstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

namespace redist {
namespace {

using nlohmann::json;

double non_negative(const json& value, const char* what) {
  const double x = value.get<double>();
  if (!(x >= 0)) throw std::invalid_argument(std::string(what) + " is negative or not a number");
  return x;
}

MachineModel parse(const json& j) {
  MachineModel m;
  const json& prices = j.at("prices");
  for (std::size_t k = 0; k < kWorkKinds; ++k) {
    const std::string name(price_property(static_cast<WorkKind>(k)));
    // Models written before records copied were priced: none.
    if (static_cast<WorkKind>(k) == WorkKind::RecordCopied && !prices.contains(name)) continue;
    m.prices.seconds[k] = non_negative(prices.at(name), name.c_str());
  }
  m.prices.send_overhead = non_negative(prices.at(std::string(kSendOverheadProperty)), "send overhead");
  m.prices.recv_overhead = non_negative(prices.at(std::string(kRecvOverheadProperty)), "receive overhead");
  m.hosts = j.at("hosts").get<Index>();
  if (m.hosts < 1) throw std::invalid_argument("hosts must be at least 1");
  m.cores = j.value("cores", Index{1});  // models written before hosts had cores: one each
  if (m.cores < 1) throw std::invalid_argument("cores must be at least 1");
  m.barrier_latency = j.value("barrier_latency", -1.0);
  m.shared_memory = j.value("shared_memory", false);
  if (j.contains("memory")) {  // models of machines whose memory was not measured have none
    const json& memory = j.at("memory");
    m.memory = NodeMemory{PiecewiseCurve::parse(memory.at("copy_bandwidth").get<std::string>(), false),
                          PiecewiseCurve::parse(memory.at("node_bandwidth").get<std::string>(), false)};
  }
  for (const json& link : j.at("links")) {
    const double bandwidth = non_negative(link.at("bandwidth"), "a link's bandwidth");
    if (bandwidth == 0) throw std::invalid_argument("a link has no bandwidth");
    // Models written before links had an oversubscribed bandwidth: none. Written, it is positive,
    // as the platform property it comes from must be.
    double oversubscribed = 0;
    if (link.contains("oversubscribed_bandwidth")) {
      oversubscribed = non_negative(link.at("oversubscribed_bandwidth"), "a link's oversubscribed bandwidth");
      if (oversubscribed == 0) throw std::invalid_argument("a link's oversubscribed bandwidth is 0");
    }
    m.links.push_back({bandwidth, link.at("shared").get<bool>(), oversubscribed});
  }
  for (const json& route : j.at("routes")) {
    ModelRoute r{route.at("links").get<std::vector<std::size_t>>(), non_negative(route.at("latency"), "a route's latency")};
    for (std::size_t link : r.links) {
      if (link >= m.links.size()) throw std::invalid_argument("a route names link " + std::to_string(link) + " of " + std::to_string(m.links.size()));
    }
    m.routes.push_back(std::move(r));
  }
  if (static_cast<Index>(m.routes.size()) != m.hosts * m.hosts) {
    throw std::invalid_argument(std::to_string(m.routes.size()) + " routes for " + std::to_string(m.hosts) + " hosts (hosts × hosts needed)");
  }
  return m;
}

}  // namespace

std::string machine_model_to_json(const MachineModel& model) {
  json prices = json::object();
  for (std::size_t k = 0; k < kWorkKinds; ++k) prices[std::string(price_property(static_cast<WorkKind>(k)))] = model.prices.seconds[k];
  prices[std::string(kSendOverheadProperty)] = model.prices.send_overhead;
  prices[std::string(kRecvOverheadProperty)] = model.prices.recv_overhead;
  json links = json::array();
  for (const ModelLink& l : model.links) {
    json link = {{"bandwidth", l.bandwidth}, {"shared", l.shared}};
    if (l.oversubscribed_bandwidth > 0) link["oversubscribed_bandwidth"] = l.oversubscribed_bandwidth;
    links.push_back(std::move(link));
  }
  json routes = json::array();
  for (const ModelRoute& r : model.routes) routes.push_back({{"links", r.links}, {"latency", r.latency}});
  json out{{"prices", prices},   {"hosts", model.hosts}, {"cores", model.cores}, {"barrier_latency", model.barrier_latency},
           {"shared_memory", model.shared_memory}, {"links", links}, {"routes", routes}};
  if (model.memory) {
    out["memory"] = {{"copy_bandwidth", model.memory->copy_bandwidth.text()},
                     {"node_bandwidth", model.memory->node_bandwidth.text()}};
  }
  return out.dump();
}

MachineModel machine_model_from_json(std::string_view text, const std::string& source) {
  try {
    return parse(json::parse(text));
  } catch (const std::exception& e) {
    throw std::invalid_argument("machine model " + source + ": " + e.what());
  }
}

MachineModel load_machine_model(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::invalid_argument("machine model " + path + ": cannot be read");
  std::stringstream text;
  text << in.rdbuf();
  return machine_model_from_json(text.str(), path);
}

}  // namespace redist
