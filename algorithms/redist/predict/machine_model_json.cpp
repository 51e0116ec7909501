#include "redist/predict/machine_model_json.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <vector>

#include <nlohmann/json.hpp>

namespace redist {
namespace {

using nlohmann::json;

// One value of the model, read by its key path ("prices.index_op", "links[2].bandwidth"): every
// refusal names the key, what was found and what is allowed, as the platform XML's checks do.
struct Key {
  const json& value;
  std::string path;

  [[noreturn]] void refuse(const std::string& allowed) const {
    std::string found = value.dump();
    if (found.size() > 40) found = found.substr(0, 37) + "...";
    if (path.empty()) throw std::invalid_argument("the file holds " + found + " (" + allowed + ")");
    throw std::invalid_argument("'" + path + "' is " + found + " (" + allowed + ")");
  }
  // A key the model does not know is refused: most keys are optional (models written before they
  // existed), so a misspelt one ("time_slise") would otherwise be read as absent, without a word.
  void only(const std::vector<std::string>& known) const {
    if (!value.is_object()) return;
    for (const auto& [key, ignored] : value.items()) {
      if (std::find(known.begin(), known.end(), key) != known.end()) continue;
      std::string list;
      for (const auto& name : known) list += (list.empty() ? "" : ", ") + name;
      throw std::invalid_argument("'" + join(key) + "' is not a key of a machine model (expected one of: " + list + ")");
    }
  }
  Key at(const std::string& key) const {
    if (!value.is_object()) refuse("it must be an object");
    const auto it = value.find(key);
    if (it == value.end()) throw std::invalid_argument("'" + join(key) + "' is missing");
    return {*it, join(key)};
  }
  bool has(const std::string& key) const { return value.is_object() && value.contains(key); }
  std::string join(const std::string& key) const { return path.empty() ? key : path + "." + key; }
  std::vector<Key> items() const {
    if (!value.is_array()) refuse("it must be a list");
    std::vector<Key> out;
    for (std::size_t k = 0; k < value.size(); ++k) out.push_back({value[k], path + "[" + std::to_string(k) + "]"});
    return out;
  }
  // A finite number >= 0, or > 0 when `positive`.
  double number(bool positive) const {
    const std::string allowed = positive ? "it must be a finite number > 0" : "it must be a finite number >= 0";
    if (!value.is_number()) refuse(allowed);
    const double x = value.get<double>();
    if (!std::isfinite(x) || x < 0 || (positive && x == 0)) refuse(allowed);
    return x;
  }
  Index whole(Index min, Index max) const {
    const std::string allowed = "it must be a whole number from " + std::to_string(min) + " to " + std::to_string(max);
    if (value.is_number_unsigned()) {
      const auto x = value.get<std::uint64_t>();
      if (x < static_cast<std::uint64_t>(min) || x > static_cast<std::uint64_t>(max)) refuse(allowed);
      return static_cast<Index>(x);
    }
    if (value.is_number_integer()) {
      const auto x = value.get<std::int64_t>();
      if (x < min || x > max) refuse(allowed);
      return static_cast<Index>(x);
    }
    refuse(allowed);
  }
  bool boolean() const {
    if (!value.is_boolean()) refuse("it must be true or false");
    return value.get<bool>();
  }
  std::string text() const {
    if (!value.is_string()) refuse("it must be a string");
    return value.get<std::string>();
  }
};

// The bounds the platform XML gives the same values: hosts a whole number of ranks' hosts, cores
// SimGrid's core attribute (1 to 2^31 - 1), bandwidths finite and > 0, latencies finite and >= 0.
constexpr Index kMaxModelHosts = Index{1} << 20;
constexpr Index kMaxCores = 2147483647;

MachineModel parse(const json& j) {
  const Key root{j, ""};
  if (!j.is_object()) root.refuse("a machine model must be a JSON object");
  MachineModel m;
  const Key prices = root.at("prices");
  std::vector<std::string> price_names{std::string(kSendOverheadProperty), std::string(kRecvOverheadProperty)};
  for (std::size_t k = 0; k < kWorkKinds; ++k) price_names.emplace_back(price_property(static_cast<WorkKind>(k)));
  for (std::size_t k = 0; k < kWorkKinds; ++k) {
    const std::string name(price_property(static_cast<WorkKind>(k)));
    // Models written before records (or elements one by one) were priced: none.
    if (price_is_optional(static_cast<WorkKind>(k)) && k != static_cast<std::size_t>(WorkKind::Allocation) &&
        !prices.has(name)) {
      continue;
    }
    m.prices.seconds[k] = prices.at(name).number(false);
  }
  m.prices.send_overhead = prices.at(std::string(kSendOverheadProperty)).number(false);
  m.prices.recv_overhead = prices.at(std::string(kRecvOverheadProperty)).number(false);
  prices.only(price_names);  // after the keys it needs: a misspelt one of those is named as missing
  m.hosts = root.at("hosts").whole(1, kMaxModelHosts);
  m.cores = root.has("cores") ? root.at("cores").whole(1, kMaxCores) : 1;  // models written before hosts had cores: one each
  if (root.has("barrier_latency")) {  // -1: not measured
    const Key latency = root.at("barrier_latency");
    if (!(latency.value.is_number() && latency.value.get<double>() == -1.0)) {
      m.barrier_latency = latency.number(false);
    }
  }
  m.shared_memory = root.has("shared_memory") ? root.at("shared_memory").boolean() : false;
  m.time_slice = root.has("time_slice") ? root.at("time_slice").number(true) : 0;  // written only where declared
  const auto curve = [](const Key& key, bool zero_allowed = false) {
    try {
      return PiecewiseCurve::parse(key.text(), zero_allowed);
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument("'" + key.path + "': " + e.what());
    }
  };
  // Written only where the platform declares them (calibrated at each level of ranks per core).
  if (root.has("copy_slowdowns")) m.copy_slowdowns = curve(root.at("copy_slowdowns"));
  if (root.has("work_slowdowns")) m.work_slowdowns = curve(root.at("work_slowdowns"));
  if (root.has("switch_costs")) m.switch_costs = curve(root.at("switch_costs"), true);
  if (root.has("memory")) {  // models of machines whose memory was not measured have none
    const Key memory = root.at("memory");
    m.memory = NodeMemory{curve(memory.at("copy_bandwidth")), curve(memory.at("node_bandwidth"))};
    // Written only where the platform declares them (else 1; the sweep's, the unpack's).
    if (memory.has("pack_factor")) m.memory->pack_factor = memory.at("pack_factor").number(true);
    if (memory.has("unpack_factor")) m.memory->unpack_factor = memory.at("unpack_factor").number(true);
    if (memory.has("sweep_factor")) m.memory->sweep_factor = memory.at("sweep_factor").number(true);
    memory.only({"copy_bandwidth", "node_bandwidth", "pack_factor", "unpack_factor", "sweep_factor"});
  }
  for (const Key& link : root.at("links").items()) {
    // Models written before links had an oversubscribed bandwidth: none. Written, it is positive,
    // as the platform property it comes from must be.
    const double oversubscribed = link.has("oversubscribed_bandwidth") ? link.at("oversubscribed_bandwidth").number(true) : 0;
    m.links.push_back({link.at("bandwidth").number(true), link.at("shared").boolean(), oversubscribed,
                       link.has("oversubscribed_bandwidths") ? curve(link.at("oversubscribed_bandwidths")) : PiecewiseCurve()});
    link.only({"bandwidth", "shared", "oversubscribed_bandwidth", "oversubscribed_bandwidths"});
  }
  for (const Key& route : root.at("routes").items()) {
    ModelRoute r{{}, route.at("latency").number(false)};
    for (const Key& link : route.at("links").items()) {
      if (m.links.empty()) link.refuse("there is no link to name");
      r.links.push_back(static_cast<std::size_t>(link.whole(0, static_cast<Index>(m.links.size()) - 1)));
    }
    route.only({"links", "latency"});
    m.routes.push_back(std::move(r));
  }
  root.only({"prices", "hosts", "cores", "barrier_latency", "shared_memory", "time_slice", "copy_slowdowns", "work_slowdowns", "switch_costs", "memory",
             "links",
             "routes"});
  if (static_cast<Index>(m.routes.size()) != m.hosts * m.hosts) {
    throw std::invalid_argument("'routes' holds " + std::to_string(m.routes.size()) + " routes for " +
                                std::to_string(m.hosts) + " hosts (hosts x hosts = " + std::to_string(m.hosts * m.hosts) +
                                " needed)");
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
    if (!l.oversubscribed_bandwidths.empty()) link["oversubscribed_bandwidths"] = l.oversubscribed_bandwidths.text();
    links.push_back(std::move(link));
  }
  json routes = json::array();
  for (const ModelRoute& r : model.routes) routes.push_back({{"links", r.links}, {"latency", r.latency}});
  json out{{"prices", prices},   {"hosts", model.hosts}, {"cores", model.cores}, {"barrier_latency", model.barrier_latency},
           {"shared_memory", model.shared_memory}, {"links", links}, {"routes", routes}};
  if (model.time_slice > 0) out["time_slice"] = model.time_slice;
  if (!model.copy_slowdowns.empty()) out["copy_slowdowns"] = model.copy_slowdowns.text();
  if (!model.work_slowdowns.empty()) out["work_slowdowns"] = model.work_slowdowns.text();
  if (!model.switch_costs.empty()) out["switch_costs"] = model.switch_costs.text();
  if (model.memory) {
    out["memory"] = {{"copy_bandwidth", model.memory->copy_bandwidth.text()},
                     {"node_bandwidth", model.memory->node_bandwidth.text()}};
    if (model.memory->pack_factor != 1) out["memory"]["pack_factor"] = model.memory->pack_factor;
    if (model.memory->unpack_factor != 1) out["memory"]["unpack_factor"] = model.memory->unpack_factor;
    if (model.memory->sweep_factor) out["memory"]["sweep_factor"] = *model.memory->sweep_factor;
  }
  return out.dump();
}

MachineModel machine_model_from_json(std::string_view text, const std::string& source) {
  json j;
  try {
    j = json::parse(text);
  } catch (const json::exception& e) {
    // "[json.exception.parse_error.101] parse error at line 1, column 2: ..." without its prefix; a
    // number too large for a double ("1e400") is an out_of_range error of the same parse
    const std::string what = e.what();
    const auto at = what.find("] ");
    throw std::invalid_argument("machine model " + source + ": not JSON: " +
                                (at == std::string::npos ? what : what.substr(at + 2)));
  }
  try {
    return parse(j);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument("machine model " + source + ": " + e.what());
  }
}

std::string read_machine_model_text(const std::string& path) {
  // Only a regular file is read: a device (/dev/zero), a FIFO or a directory would be read without
  // end or fail obscurely. Every reader (redist-mpi --model, REDIST_MODEL, the benchmarks) says so.
  std::error_code error;
  const auto status = std::filesystem::status(path, error);
  if (!std::filesystem::exists(status)) throw std::invalid_argument("machine model " + path + ": no such file");
  if (!std::filesystem::is_regular_file(status)) {
    throw std::invalid_argument("machine model " + path +
                                ": not a regular file (a machine model is the .model.json file `redist calibrate` writes)");
  }
  // A model is a few kilobytes: a file far larger is no model, and every rank of a job would read it whole.
  const auto size = std::filesystem::file_size(path, error);
  if (!error && size > kMaxMachineModelBytes) {
    throw std::invalid_argument("machine model " + path + ": " + std::to_string(size) + " bytes, more than the " +
                                std::to_string(kMaxMachineModelBytes) + " a machine model may have");
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::invalid_argument("machine model " + path + ": cannot be read");
  std::string text(kMaxMachineModelBytes + 1, '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  if (in.bad()) throw std::invalid_argument("machine model " + path + ": cannot be read");
  text.resize(static_cast<std::size_t>(in.gcount()));
  if (text.size() > kMaxMachineModelBytes) {  // grew since its size was read
    throw std::invalid_argument("machine model " + path + ": more than the " + std::to_string(kMaxMachineModelBytes) +
                                " bytes a machine model may have");
  }
  return text;
}

MachineModel load_machine_model(const std::string& path) {
  return machine_model_from_json(read_machine_model_text(path), path);
}

}  // namespace redist
