#include "argument_agreement.hpp"

#include <mpi.h>

#include <algorithm>
#include <vector>

#include "redist/mpi/agreement.hpp"
#include "redist/mpi/call_digest.hpp"

namespace redist::mpi::cli {
namespace {

void append_options(const CLI::App& app, std::vector<std::string>& out) {
  for (const CLI::Option* option : app.get_options()) {
    if (option->count() == 0) continue;
    std::string item = app.get_name() + " " + option->get_name() + "=";
    for (const auto& value : option->results()) item += value + "\x1f";
    out.push_back(std::move(item));
  }
  for (const CLI::App* sub : app.get_subcommands()) {  // the parsed ones
    out.push_back("subcommand " + sub->get_name());
    append_options(*sub, out);
  }
}

}  // namespace

std::string normalised_arguments(const CLI::App& app) {
  std::vector<std::string> items;
  append_options(app, items);
  std::sort(items.begin(), items.end());
  std::string text;
  for (const auto& item : items) text += item + "\n";
  return text;
}

void agree_on_arguments(const std::string& problem, const std::string& normalised) {
  agree_on_problems(MPI_COMM_WORLD, problem);  // first: a rank that failed to parse has no arguments to compare
  agree_on_input(MPI_COMM_WORLD, text_digest(normalised), "", "arguments");
}

}  // namespace redist::mpi::cli
