// The "pack" experiment (paper 001, §7): PACK or UNPACK of an array of rank d = 1..3 with N elements
// (or L = N/P per processor, for scaled runs) and P processors on every dimension, block size W on
// every dimension (the paper keeps W_0 = W_1; "block" and "cyclic" are W = L and W = 1),
// a random mask of a given density or the triangle mask (density "LT", the column of the paper's
// tables), a scheme, optionally after a preliminary
// redistribution to BLOCK. Payloads are always real (the counts drive the ranking) and verified by
// a checksum against the sequential Fortran result.
#include "redist/core/splitmix.hpp"
#include "redist/experiments/pack_experiment.hpp"

#include <algorithm>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "redist/reports/phases_transfer.hpp"
#include "redist/pack/paper_work.hpp"
#include "redist/pack/ranking.hpp"
#include "redist/pack/reference.hpp"
#include "redist/sim/engine.hpp"
#include "redist/core/memory_budget.hpp"
#include "redist/experiments/work_parameter.hpp"
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
// E_i (the most true elements on one processor) and E_a = ceil(Size / P). The model leaves out the
// ranking's intermediate step, "common for all three schemes" and Θ(C) on a 1-D array (§6.4); the
// *_ranked quantities add it at Fig. 2's count on a 1-D array of C base-rank entries (§5), so that
// they model the whole local computation the figures time.
std::map<std::string, double> model_quantities(const pack::Geometry& g, Index size, Index most_true) {
  const auto l = static_cast<double>(g.local_size()), c = static_cast<double>(g.slices());
  const auto e = static_cast<double>(most_true), ea = static_cast<double>(ceil_div(size, g.processors()));
  const auto intermediate =
      static_cast<double>(pack::paper_intermediate_step(g.slices(), 1).count(WorkKind::ElementScanned));
  const double sss = l + c + 6 * e + 2 * ea, css = 2 * l + 2 * c + 3 * e + 2 * ea;
  return {{"size", static_cast<double>(size)},
          {"slices", c},
          {"model_local_sss", sss},
          {"model_local_css", css},
          {"model_local_sss_ranked", sss + intermediate},
          {"model_local_css_ranked", css + intermediate}};
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

}  // namespace

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

const ExperimentSpec& pack_schema() {
  // `redist pack|unpack` take the array's geometry as --shape, --grid and --block instead.
  static const ExperimentSpec spec{
      "pack",
      "Paper 001's PACK or UNPACK of a d-dimensional block-cyclic array with a mask, P processors and block "
      "size W on every dimension",
      "pack",
      {{.name = "operation", .meaning = "the command: pack or unpack", .names = {"pack", "unpack"}, .default_value = "pack", .on_command_line = false},
       {.name = "d", .meaning = "rank of the array", .min = 1, .max = 3, .default_value = 1, .on_command_line = false},
       {.name = "N", .meaning = "extent per dimension, or L instead", .min = 1, .on_command_line = false},
       {.name = "L", .meaning = "local extent N/P per dimension, for scaled runs", .min = 1, .on_command_line = false},
       {.name = "P", .meaning = "processors per dimension", .min = 1, .required = true, .on_command_line = false},
       {.name = "W",
        .meaning = "block size on every dimension: block = L, cyclic = 1",
        .min = 1,
        .names = {"block", "cyclic"},
        .required = true,
        .on_command_line = false},
       {.name = "density",
        .meaning = "percentage of true mask values (a random mask), or LT: paper 001's triangle mask",
        .min = 0,
        .max = 100,
        .names = {"LT"},
        .default_value = 50},
       {.name = "seed", .meaning = "seed of the random mask", .min = 1, .default_value = 1},
       {.name = "scheme", .meaning = "storage scheme (UNPACK: sss or css)", .names = names_of(pack::scheme_names()), .default_value = "sss"},
       {.name = "prs", .meaning = "prefix-reduction-sum algorithm", .names = names_of(pack::prs_algorithm_names()), .default_value = "auto"},
       {.name = "redistribution",
        .meaning = "preliminary redistribution to BLOCK (PACK only)",
        .names = names_of(pack::preredistribution_names()),
        .default_value = "none"},
       {.name = "vector_block", .meaning = "block size W' of the vector (0 = BLOCK)", .min = 0, .default_value = 0},
       work_parameter("section 6.4's memory accesses, a division per destination found, the communication "
                      "detection of a preliminary redistribution")},
      {Phase::LocalComputation, Phase::PrefixSums, Phase::Communication, Phase::Preredistribution, Phase::Total},
      {"size", "slices", "model_local_sss", "model_local_css", "model_local_sss_ranked", "model_local_css_ranked"},
      "`redist unpack` takes the same flags but --redistribution. Seconds, each the maximum over ranks; local = total − prs − comm − redist, per rank; quantities: size "
      "(Size), slices (C), model_local_sss (L + C + 6E_i + 2E_a) and model_local_css (2L + 2C + 3E_i + 2E_a): "
      "section 6.4's local-computation models, E_i the most true elements on one processor, E_a = ⌈Size/P⌉; "
      "model_local_sss_ranked and model_local_css_ranked: the same plus the ranking's intermediate step that "
      "section 6.4 sets aside (Θ(C), Fig. 2's 5C + 7 accesses on a 1-D array)"};
  return spec;
}

void apply_run_options(const ParameterValues& v, PackRunConfig& c) {
  c.scheme = pack::scheme_from_name(v.text("scheme"));
  c.prs = pack::prs_algorithm_from_name(v.text("prs"));
  c.redistribution = pack::preredistribution_from_name(v.text("redistribution"));
  c.vector_block = v.integer("vector_block");
  c.accounting = work_model_names().from_name(v.text("work"));
}

PackRunConfig pack_config(const Params& params, Index block) {
  const ParameterValues v(pack_schema(), params);
  PackRunConfig c;
  const auto d = static_cast<std::size_t>(v.integer("d"));
  const Index procs = v.integer("P");
  if (v.given("N") == v.given("L")) throw std::invalid_argument("set one of N (extent) and L (local extent N/P)");
  const Index extent = v.given("N") ? v.integer("N") : checked_mul(v.integer("L"), procs, "L x P");
  c.extents.assign(d, extent);
  c.procs.assign(d, procs);
  if (block == 0 && v.given("W") && v.is_name("W")) block = v.text("W") == "block" ? extent / procs : 1;
  c.blocks.assign(d, block > 0 ? block : v.integer("W"));
  const auto seed = static_cast<std::uint64_t>(v.integer("seed"));
  c.mask = v.is_name("density") ? pack::MaskSpec::named("triangle", 0, seed)
                                : pack::MaskSpec::named("random", v.integer("density"), seed);
  c.unpack = v.text("operation") == "unpack";
  apply_run_options(v, c);
  return c;
}

namespace {

// What a run is refused for before anything runs (Experiment::check): phantom payload, its sizes
// and its memory.
void check_pack_experiment(const Params& params, Payload payload) {
  if (payload == Payload::Phantom) throw std::invalid_argument("pack runs need real payloads: the mask's counts drive the ranking");
  check_pack_memory({pack_config(params, 0)});
}

ExperimentResult run_pack_experiment(const std::string& platform, const Params& params, Payload payload,
                                     const std::string& trace) {
  if (payload == Payload::Phantom) throw std::invalid_argument("pack runs need real payloads: the mask's counts drive the ranking");
  return run_pack(platform, pack_config(params, 0), trace).experiment;
}

}  // namespace

Experiment pack_experiment() { return {pack_schema(), run_pack_experiment, check_pack_experiment}; }

}  // namespace redist::sim
