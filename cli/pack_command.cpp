// `redist pack|unpack --platform F --shape 64x64 --grid 4x4 --block 2 [--mask random|triangle]
// [--density 50] [--seed 1] [--scheme sss|css|cms] [--prs auto|direct|split]
// [--redistribution none|selected|whole] [--vector-block W'] [--json]`: one simulated PACK or UNPACK
// of paper 001, verified against the sequential Fortran result. Shapes are written in Fortran order,
// (N_{d-1} x ... x N_0): the last extent varies fastest.
#include <algorithm>
#include <charconv>
#include <iostream>
#include <memory>
#include <optional>

#include "command.hpp"
#include "experiment_options.hpp"
#include "options.hpp"
#include "redist/os/atomic_file.hpp"
#include "redist/experiments/pack_experiment.hpp"
#include "redist/experiments/run_reports.hpp"

namespace redist::cli {
namespace {

struct PackCommandOptions {
  std::string platform, shape, grid, block;
  std::string mask = "random";
  std::shared_ptr<ExperimentOptions> run;  ///< the pack experiment's density, seed, scheme, ...
  std::string trace;
  bool json = false;
};

// "64x32" -> {32, 64} (dimension 0 first). Throws std::invalid_argument naming the option.
std::vector<Index> parse_extents(const std::string& text, const std::string& option) {
  std::vector<Index> out;
  std::size_t begin = 0;
  for (;;) {
    const std::size_t end = std::min(text.find('x', begin), text.size());
    Index value = 0;
    const char* first = text.data() + begin;
    const char* last = text.data() + end;
    const auto [ptr, ec] = std::from_chars(first, last, value);
    if (ec != std::errc() || ptr != last || first == last || value <= 0) {
      throw std::invalid_argument(option + " must be positive whole numbers separated by 'x' (got '" + text + "')");
    }
    out.insert(out.begin(), value);
    if (end == text.size()) return out;
    begin = end + 1;
  }
}

int run_pack_command(const PackCommandOptions& o, bool unpack) {
  const ParameterValues v = o.run->values();
  sim::PackRunConfig c;
  c.unpack = unpack;
  c.extents = parse_extents(o.shape, "--shape");
  c.procs = parse_extents(o.grid, "--grid");
  c.blocks = parse_extents(o.block, "--block");
  if (c.blocks.size() == 1) c.blocks.assign(c.extents.size(), c.blocks.front());
  if (c.extents.size() > 3) throw std::invalid_argument("--shape: arrays of rank 1 to 3 are supported");
  // --density LT is the triangle mask, as in scenarios.
  const std::string mask = v.is_name("density") ? "triangle" : o.mask;
  const Index density = v.is_name("density") ? 0 : v.integer("density");
  c.mask = pack::MaskSpec::named(mask, density, static_cast<std::uint64_t>(v.integer("seed")));
  sim::apply_run_options(v, c);
  // SimGrid writes the trace under a temporary name, published once the run succeeded.
  std::optional<os::PendingFile> trace;
  if (!o.trace.empty()) trace.emplace(o.trace);
  const auto run = sim::run_pack(o.platform, c, trace ? trace->path().string() : "");
  if (trace) trace->publish();
  if (o.json) {
    std::cout << sim::pack_run_json(o.platform, c, mask, density, v, run).dump() << '\n';
  } else {
    std::cout << sim::pack_run_text(o.platform, c, mask, density, v, run);
  }
  return 0;
}

void add_one(CLI::App& root, Commands& commands, bool unpack) {
  auto o = std::make_shared<PackCommandOptions>();
  auto* app = root.add_subcommand(unpack ? "unpack" : "pack",
                                  unpack ? "Simulate one UNPACK (paper 001) of a block-cyclic array on a platform"
                                         : "Simulate one PACK (paper 001) of a block-cyclic array on a platform");
  app->add_option("--platform", o->platform, "SimGrid platform file (platforms/*.xml)")->required();
  app->add_option("--shape", o->shape, "array extents N_{d-1}x...xN_0, e.g. 64x64")->required();
  app->add_option("--grid", o->grid, "processor grid P_{d-1}x...xP_0, e.g. 4x4")->required();
  app->add_option("--block", o->block, "block sizes W_{d-1}x...xW_0, or one for every dimension")->required();
  app->add_option("--mask", o->mask, "random (of --density) or triangle (paper 001's LT mask)")->capture_default_str();
  // UNPACK has no preliminary redistribution (paper 001, section 6.3).
  o->run = ExperimentOptions::add(app, sim::pack_schema(), unpack ? std::vector<std::string>{"redistribution"}
                                                                 : std::vector<std::string>{});
  app->add_option("--trace", o->trace, "write SimGrid's Paje trace to this file");
  app->add_flag("--json", o->json, "print the phases as JSON");
  add_max_memory_option(app);
  commands.push_back({app, [o, unpack] { return run_pack_command(*o, unpack); }});
}

}  // namespace

void add_pack_commands(CLI::App& root, Commands& commands) {
  add_one(root, commands, false);
  add_one(root, commands, true);
}

}  // namespace redist::cli
