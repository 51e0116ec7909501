// The "pack" experiment (paper 001, §7): PACK or UNPACK of an array of rank d = 1..3 with N elements
// (or L = N/P per processor, for scaled runs) and P processors on every dimension, block size W on
// every dimension (the paper keeps W_0 = W_1; "block" and "cyclic" are W = L and W = 1),
// a random mask of a given density or the triangle mask (density "LT", the column of the paper's
// tables), a scheme, optionally after a preliminary
// redistribution to BLOCK. Payloads are always real (the counts drive the ranking) and verified by
// a checksum against the sequential Fortran result.
#include "redist/core/splitmix.hpp"
#include "redist/sim/pack_experiment.hpp"

#include <algorithm>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "redist/analysis/phases_transfer.hpp"
#include "redist/pack/ranking.hpp"
#include "redist/pack/reference.hpp"
#include "redist/sim/engine.hpp"
#include "redist/core/memory_budget.hpp"
#include "redist/transport/counting_transport.hpp"

namespace redist::sim {
namespace {

// An order-independent checksum of (position, value) pairs: sums of well-mixed 64-bit hashes.
std::uint64_t pair_hash(Index position, Index value) {
  return splitmix64(static_cast<std::uint64_t>(position) * 0x100000001b3ULL ^
                    splitmix64(static_cast<std::uint64_t>(value)));
}

// Element values: A(g) identifies g; FIELD(g) and V(r) are told apart from it.
Index array_value(Index linear) { return 2 * linear + 1; }
Index field_value(Index linear) { return -linear - 1; }
Index vector_value(Index rank) { return (Index{1} << 48) + rank; }

std::vector<Index> local_by_linear(const pack::Geometry& g, Index proc, Index (*fn)(Index)) {
  auto local = g.local_linear_indices(proc);
  for (Index& x : local) x = fn(x);
  return local;
}

// The sequential result's checksum, and Size.
std::pair<std::uint64_t, Index> expected_checksum(const pack::Geometry& g, const PackRunConfig& c) {
  std::vector<std::uint8_t> mask(static_cast<std::size_t>(g.size()));
  std::vector<Index> array(mask.size());
  for (Index linear = 0; linear < g.size(); ++linear) {
    mask[static_cast<std::size_t>(linear)] = c.mask.value_at(g, linear) ? 1 : 0;
    array[static_cast<std::size_t>(linear)] = c.unpack ? field_value(linear) : array_value(linear);
  }
  const Index size = std::count(mask.begin(), mask.end(), 1);
  std::vector<Index> result;
  if (c.unpack) {
    std::vector<Index> v(static_cast<std::size_t>(size));
    for (Index r = 0; r < size; ++r) v[static_cast<std::size_t>(r)] = vector_value(r);
    result = pack::sequential_unpack(v, mask, array);
  } else {
    result = pack::sequential_pack(array, mask);
  }
  std::uint64_t sum = 0;
  for (std::size_t k = 0; k < result.size(); ++k) sum += pair_hash(static_cast<Index>(k), result[k]);
  return {sum, size};
}

nlohmann::json report(const CountingTransport& t, std::uint64_t checksum, Index size, const Phases& times,
                      Index true_local) {
  return nlohmann::json{{"checksum", checksum},     {"size", size},         {"phases", times},
                        {"messages", t.messages}, {"bytes", t.bytes_sent}, {"true_local", true_local}};
}

// Section 6.4's model of local computation (in units of one memory access), from L, C = slices,
// E_i (the most true elements on one processor) and E_a = ceil(Size / P).
std::map<std::string, double> model_quantities(const pack::Geometry& g, Index size, Index most_true) {
  const auto l = static_cast<double>(g.local_size()), c = static_cast<double>(g.slices());
  const auto e = static_cast<double>(most_true), ea = static_cast<double>(ceil_div(size, g.processors()));
  return {{"size", static_cast<double>(size)},
          {"slices", c},
          {"model_local_sss", l + c + 6 * e + 2 * ea},
          {"model_local_css", 2 * l + 2 * c + 3 * e + 2 * ea}};
}

// One rank's run; returns {"checksum", "size", "phases", "messages", "bytes", "true_local"}.
nlohmann::json rank_body(Transport& inner, const pack::Geometry& g, const PackRunConfig& c, Index vector_length) {
  CountingTransport t(inner);
  const Index me = t.rank();
  const auto mask = pack::local_mask(g, c.mask, me);
  std::uint64_t checksum = 0;
  Phases times;
  if (c.unpack) {  // V is the input: `vector_length` elements, V(r) = vector_value(r)
    const auto v = pack::vector_layout(vector_length, c.vector_block, t.size());
    std::vector<Index> local_v(static_cast<std::size_t>(vector_length == 0 ? 0 : v.local_size(me)));
    for (std::size_t k = 0; k < local_v.size(); ++k) local_v[k] = vector_value(v.global_index(me, static_cast<Index>(k)));
    const auto field = local_by_linear(g, me, field_value);
    const auto result = pack::unpack(t, g, local_v, mask, field, {c.scheme, c.prs, vector_length, c.vector_block, c.accounting});
    const auto linear = g.local_linear_indices(me);
    for (std::size_t offset = 0; offset < linear.size(); ++offset) checksum += pair_hash(linear[offset], result.array[offset]);
    return report(t, checksum, result.size, result.times, std::count(mask.begin(), mask.end(), 1));
  }
  pack::LocalArrays arrays{local_by_linear(g, me, array_value), mask};
  pack::Geometry used = g;
  if (c.redistribution != pack::Preredistribution::None) {
    const double start = t.now();
    arrays = pack::redistribute_to_block(t, g, arrays.values, arrays.mask, c.redistribution, c.accounting);
    times.redist = t.now() - start;
    used = g.as_block();
  }
  const auto result = pack::pack(t, used, arrays.values, arrays.mask, {c.scheme, c.prs, c.vector_block, c.accounting});
  const auto v = pack::vector_layout(result.size, c.vector_block, t.size());
  for (std::size_t k = 0; k < result.vector.size(); ++k) checksum += pair_hash(v.global_index(me, static_cast<Index>(k)), result.vector[k]);
  times.prs = result.times.prs;
  times.comm = result.times.comm;
  times.total = result.times.total + times.redist;
  return report(t, checksum, result.size, times, std::count(mask.begin(), mask.end(), 1));
}

// Per element: the sequential reference (mask, array, result, vector: 25 bytes), then the ranks'
// local arrays, masks and vectors and the messages (about as much again), rounded up.
constexpr std::uint64_t kPackBytesPerElement = 48;

void check_pack_memory(const std::vector<PackRunConfig>& configs) {
  std::optional<std::uint64_t> elements = 0;
  for (const PackRunConfig& c : configs) {
    std::optional<std::uint64_t> size = 1;
    for (const Index extent : c.extents) size = bytes_product(size, static_cast<std::uint64_t>(std::max<Index>(extent, 0)));
    std::uint64_t sum = 0;
    if (!elements || !size || __builtin_add_overflow(*elements, *size, &sum)) {
      elements = std::nullopt;
    } else {
      elements = sum;
    }
  }
  require_memory(bytes_product(elements, kPackBytesPerElement),
                 std::string(configs.front().unpack ? "an UNPACK" : "a PACK") + " of " +
                     (elements ? std::to_string(*elements) : "more than 2^64") + " elements",
                 "PACK and UNPACK need real payload (no --phantom): use a smaller --shape");
}

}  // namespace

std::vector<PackRunResult> run_packs(const std::string& platform, const std::vector<PackRunConfig>& configs,
                                     const std::string& trace_file) {
  if (configs.empty()) return {};
  std::vector<pack::Geometry> geometries;
  std::vector<std::pair<std::uint64_t, Index>> expected;
  check_pack_memory(configs);
  for (const PackRunConfig& c : configs) {
    geometries.emplace_back(c.extents, c.procs, c.blocks);
    if (geometries.back().processors() != geometries.front().processors()) {
      throw std::invalid_argument("runs of one simulation must have the same number of processors");
    }
    if (c.unpack && c.redistribution != pack::Preredistribution::None) {
      throw std::invalid_argument("a preliminary redistribution is for PACK only (paper 001, section 6.3)");
    }
    if (c.unpack && c.scheme == pack::Scheme::CompactMessage) throw std::invalid_argument("UNPACK has the sss and css schemes only");
    expected.push_back(expected_checksum(geometries.back(), c));
  }
  SimulationOptions sim;
  sim.platform_file = platform;
  sim.ranks = static_cast<int>(geometries.front().processors());
  sim.trace_file = trace_file;
  const auto reports = simulate(sim, [&](Transport& t) {
    nlohmann::json runs = nlohmann::json::array();
    for (std::size_t k = 0; k < configs.size(); ++k) {
      if (k > 0) t.barrier();  // each run starts together, as a timed run on the machine would
      runs.push_back(rank_body(t, geometries[k], configs[k], expected[k].second));
    }
    return runs.dump();
  });
  std::vector<PackRunResult> results(configs.size());
  std::vector<std::uint64_t> checksums(configs.size(), 0);
  std::vector<Index> most_true(configs.size(), 0);
  for (const auto& text : reports) {
    const auto runs = nlohmann::json::parse(text);
    for (std::size_t k = 0; k < configs.size(); ++k) {
      const auto& r = runs[k];
      checksums[k] += r["checksum"].get<std::uint64_t>();
      auto& phases = results[k].experiment.phases;
      phases = slowest(phases, with_derived(r["phases"].get<Phases>()));
      results[k].experiment.messages += r["messages"].get<Index>();
      results[k].experiment.bytes += r["bytes"].get<Index>();
      most_true[k] = std::max(most_true[k], r["true_local"].get<Index>());
    }
  }
  for (std::size_t k = 0; k < configs.size(); ++k) {
    results[k].size = expected[k].second;
    results[k].experiment.quantities = model_quantities(geometries[k], expected[k].second, most_true[k]);
    results[k].experiment.verified = checksums[k] == expected[k].first;
    if (checksums[k] != expected[k].first) throw std::runtime_error("verification failed: the result differs from the sequential one");
  }
  return results;
}

PackRunResult run_pack(const std::string& platform, const PackRunConfig& c, const std::string& trace_file) {
  return run_packs(platform, {c}, trace_file).front();
}

}  // namespace redist::sim

namespace redist::sim {
namespace {

const std::vector<std::string> kCounts = {"d", "N", "L", "P", "W", "seed", "vector_block"};

Index count(const Params& params, const char* name, Index fallback) {
  if (!params.contains(name)) {
    if (fallback < 0) throw std::invalid_argument(std::string("parameter '") + name + "' is not set");
    return fallback;
  }
  return params[name].get<Index>();
}

std::string text(const Params& params, const char* name, const char* fallback) {
  return params.contains(name) ? params[name].get<std::string>() : fallback;
}

}  // namespace

void check_pack_parameter(const std::string& name, const nlohmann::json& value) {
  if (name == "W" && (value == "block" || value == "cyclic")) return;
  if (std::find(kCounts.begin(), kCounts.end(), name) != kCounts.end()) {
    const bool may_be_zero = name == "vector_block";
    if (!value.is_number_integer() || value.get<Index>() < (may_be_zero ? 0 : 1)) {
      throw std::invalid_argument("parameter '" + name + "' must be a " + (may_be_zero ? "non-negative" : "positive") +
                                  " whole number, got " + value.dump());
    }
    if (name == "d" && value.get<Index>() > 3) throw std::invalid_argument("parameter 'd' must be 1, 2 or 3");
    return;
  }
  if (name == "density") {  // a percentage of true values, or LT: the paper's triangle mask
    if (value.is_number_integer() && value.get<Index>() >= 0 && value.get<Index>() <= 100) return;
    if (value == "LT") return;
    throw std::invalid_argument("density must be a percentage 0..100 or \"LT\" (the triangle mask), got " + value.dump());
  }
  if (name == "W") throw std::invalid_argument("W must be a positive whole number, block or cyclic, got " + value.dump());
  if (!value.is_string()) throw std::invalid_argument("parameter '" + name + "' must be a name, got " + value.dump());
  const auto v = value.get<std::string>();
  if (name == "scheme") pack::scheme_from_name(v);
  if (name == "prs") pack::prs_algorithm_from_name(v);
  if (name == "redistribution") pack::preredistribution_from_name(v);
  if (name == "work") pack::work_accounting_from_name(v);
  if (name == "operation" && v != "pack" && v != "unpack") {
    throw std::invalid_argument("operation must be pack or unpack, got '" + v + "'");
  }
}

PackRunConfig pack_config(const Params& params, Index block) {
  PackRunConfig c;
  const auto d = static_cast<std::size_t>(count(params, "d", 1));
  const Index procs = count(params, "P", -1);
  if (params.contains("N") == params.contains("L")) throw std::invalid_argument("set one of N (extent) and L (local extent N/P)");
  const Index extent = params.contains("N") ? count(params, "N", -1) : checked_mul(count(params, "L", -1), procs, "L x P");
  c.extents.assign(d, extent);
  c.procs.assign(d, procs);
  if (block == 0 && params.contains("W") && params["W"].is_string()) block = params["W"] == "block" ? extent / procs : 1;
  c.blocks.assign(d, block > 0 ? block : count(params, "W", -1));
  const auto seed = static_cast<std::uint64_t>(count(params, "seed", 1));
  if (params.contains("density") && params["density"].is_string()) {
    c.mask = pack::MaskSpec::named("triangle", 0, seed);
  } else {
    c.mask = pack::MaskSpec::named("random", count(params, "density", 50), seed);
  }
  c.unpack = text(params, "operation", "pack") == "unpack";
  c.scheme = pack::scheme_from_name(text(params, "scheme", "sss"));
  c.prs = pack::prs_algorithm_from_name(text(params, "prs", "auto"));
  c.redistribution = pack::preredistribution_from_name(text(params, "redistribution", "none"));
  c.vector_block = count(params, "vector_block", 0);
  c.accounting = pack::work_accounting_from_name(text(params, "work", "redist"));
  return c;
}

namespace {

ExperimentResult run(const std::string& platform, const Params& params, Payload payload, const std::string& trace) {
  if (payload == Payload::Phantom) throw std::invalid_argument("pack runs need real payloads: the mask's counts drive the ranking");
  return run_pack(platform, pack_config(params, 0), trace).experiment;
}

}  // namespace

Experiment pack_experiment() {
  ExperimentSpec spec{"pack",
                      {"operation", "d", "N", "L", "P", "W", "density", "seed", "scheme", "prs", "redistribution",
                       "vector_block", "work"},
                      {"P", "W"},
                      {Phase::LocalComputation, Phase::PrefixSums, Phase::Communication, Phase::Preredistribution,
                       Phase::Total},
                      check_pack_parameter,
                      {"size", "slices", "model_local_sss", "model_local_css"}};
  return {spec, run};
}

}  // namespace redist::sim
