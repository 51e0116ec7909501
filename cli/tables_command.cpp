// `redist tables --method krr -P 2 -Q 4 -r 10 -s 2 --rank 0 --side send|recv [--json]`: the
// packing (send) or unpacking (recv) information table of one processor for BLOCK-CYCLIC(r) over P
// -> BLOCK-CYCLIC(s) over Q, in the form of paper 000's Figs. 3 and 5 (kr -> r or r -> kr only).
#include <iostream>
#include <memory>
#include <stdexcept>
#include <string>

#include "command.hpp"
#include "options.hpp"
#include "redist/reports/table_report.hpp"

namespace redist::cli {
namespace {

struct Options {
  std::string method = "krr";
  Index P = 0, Q = 0, r = 0, s = 0, rank = 0;
  std::string side;
  bool json = false;
};

int run(const Options& o) {
  if (o.method != "krr") {
    throw std::invalid_argument("--method " + o.method + ": only krr builds packing/unpacking information tables");
  }
  std::cout << krr_table_report({o.P, o.Q, o.r, o.s, o.rank, o.side == "send"}, o.json);
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
