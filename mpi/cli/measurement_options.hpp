// The command-line options of redist-mpi's measuring modes (localwork, pingpong, exchange, sharedcopy), which
// fill the options the measurements of redist/measurements/ take.
#pragma once

#include <CLI/CLI.hpp>

#include "redist/measurements/exchange.hpp"
#include "redist/measurements/local_work.hpp"
#include "redist/measurements/pingpong.hpp"
#include "redist/measurements/shared_copy.hpp"

namespace redist::mpi::cli {

void add_options(CLI::App& app, measurements::LocalWorkOptions& options);
void add_options(CLI::App& app, measurements::PingPongOptions& options);
void add_options(CLI::App& app, measurements::ExchangeOptions& options);
void add_options(CLI::App& app, measurements::SharedCopyOptions& options);

}  // namespace redist::mpi::cli
