// `redist holes -P 4 --block 5 --stride 3 --offset 1 -n 40 --rank 0 [--json]`: paper 003's hole
// compression for one processor — the class table (Fig. 4), its compression table (Fig. 6) and its
// compressed local array (Figs. 2(b) and 8).
#include <iostream>
#include <memory>

#include "command.hpp"
#include "options.hpp"
#include "redist/reports/holes_report.hpp"

namespace redist::cli {

void add_holes_command(CLI::App& root, Commands& commands) {
  struct Options {
    TwoLevelMapping mapping{};
    Index rank = 0;
    bool json = false;
  };
  auto opts = std::make_shared<Options>();
  auto* app = root.add_subcommand("holes", "Hole compression of a two-level HPF mapping (paper 003): tables and local array");
  app->add_option("-P,--procs", opts->mapping.procs, "processors")->required()->check(whole_number());
  app->add_option("--block", opts->mapping.block, "distribution block size x of CYCLIC(x)")->required()->check(whole_number());
  app->add_option("--stride", opts->mapping.stride, "alignment stride s")->required()->check(whole_number());
  app->add_option("--offset", opts->mapping.offset, "alignment offset o (default 0)")->check(whole_number());
  app->add_option("-n,--size", opts->mapping.size, "array elements N_A")->required()->check(whole_number());
  app->add_option("--rank", opts->rank, "processor whose tables and array are shown (default 0)")->check(whole_number());
  app->add_flag("--json", opts->json, "print {\"class_table\":...,\"compression_table\":...,\"local_array\":...}");
  commands.push_back({app, [opts] {
                        const HolesResult result = compute_holes(opts->mapping, opts->rank);
                        if (opts->json) {
                          std::cout << holes_json(result).dump() << '\n';
                        } else {
                          std::cout << holes_text(result);
                        }
                        return 0;
                      }});
}

}  // namespace redist::cli
