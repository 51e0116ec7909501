// `redist tables --method krr -P 2 -Q 4 -r 10 -s 2 --rank 0 --side send|recv [--json]`: the
// packing (send) or unpacking (recv) information table of one processor for BLOCK-CYCLIC(r) over P
// -> BLOCK-CYCLIC(s) over Q, in the form of paper 000's Figs. 3 and 5 (kr -> r or r -> kr only).
#include <iostream>
#include <memory>
#include <stdexcept>
#include <string>

#include <fmt/format.h>

#include "command.hpp"
#include "options.hpp"
#include "redist/analysis/table_report.hpp"
#include "redist/core/checks.hpp"
#include "redist/indexing/krr_tables.hpp"

namespace redist::cli {
namespace {

struct Options {
  std::string method = "krr";
  Index P = 0, Q = 0, r = 0, s = 0, rank = 0;
  std::string side;
  bool json = false;
};

std::string title(const Options& o, const KrrShape& shape, const InfoTable& table) {
  return fmt::format("{} of {}{}: BLOCK-CYCLIC({}) over {} -> BLOCK-CYCLIC({}) over {} ({}, k = {}, r = {}), {} = {}\n\n",
                     o.side == "send" ? "Packing information table" : "Unpacking information table",
                     o.side == "send" ? "P" : "Q", o.rank, o.r, o.P, o.s, o.Q, shape.kr_to_r ? "kr -> r" : "r -> kr",
                     shape.k, shape.r, o.side == "send" ? "LCC_s" : "LCC_d", table.period);
}

int run(const Options& o) {
  if (o.method != "krr") {
    throw std::invalid_argument("--method " + o.method + ": only krr builds packing/unpacking information tables");
  }
  require_positive(o.P, "P (source processors)");
  require_positive(o.Q, "Q (destination processors)");
  require_positive(o.r, "r (source block size)");
  require_positive(o.s, "s (destination block size)");
  const bool send = o.side == "send";
  require_in_range(o.rank, send ? o.P : o.Q, send ? "--rank (a source processor)" : "--rank (a destination processor)");
  // Tables describe one local complete cycle: an array of one global cycle is enough.
  const Index cycle = checked_lcm(checked_mul(o.r, o.P, "r x P"), checked_mul(o.s, o.Q, "s x Q"), "global complete cycle");
  const CyclicPair pair = cyclic_pair(BlockCyclic(cycle, o.r, o.P), BlockCyclic(cycle, o.s, o.Q), "krr");
  const KrrShape shape = krr_shape(pair);
  Work work;
  const InfoTable table = krr_table(send ? SideView::sender(pair, o.rank) : SideView::receiver(pair, o.rank), work);
  const TableView view{table, send, o.rank};
  if (o.json) {
    std::cout << info_table_json(view).dump() << '\n';
  } else {
    std::cout << title(o, shape, table) << info_table_text(view);
  }
  return 0;
}

}  // namespace

void add_tables_command(CLI::App& root, Commands& commands) {
  auto opts = std::make_shared<Options>();
  auto* app = root.add_subcommand("tables", "Print a Krr packing (send) or unpacking (recv) information table");
  app->add_option("--method", opts->method, "indexing method whose tables to print (krr)");
  app->add_option("-P", opts->P, "source processors")->required()->check(whole_number());
  app->add_option("-Q", opts->Q, "destination processors")->required()->check(whole_number());
  app->add_option("-r", opts->r, "source block size")->required()->check(whole_number());
  app->add_option("-s", opts->s, "destination block size")->required()->check(whole_number());
  app->add_option("--rank", opts->rank, "processor number on its side")->required()->check(whole_number());
  app->add_option("--side", opts->side, "send (PIT of a source) or recv (UPIT of a destination)")
      ->required()
      ->check(CLI::IsMember({"send", "recv"}));
  app->add_flag("--json", opts->json, "print JSON");
  commands.push_back({app, [opts] { return run(*opts); }});
}

}  // namespace redist::cli
