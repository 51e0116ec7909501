#include "measurement_options.hpp"

namespace redist::mpi::cli {

void add_options(CLI::App& app, measurements::LocalWorkOptions& options) {
  app.add_flag("--json", options.json, "print the measurements as JSON");
}

void add_options(CLI::App& app, measurements::PingPongOptions& options) {
  app.add_option("--min-bytes", options.min_bytes, "smallest message")
      ->check(CLI::Range(Index{1}, Index{1} << 30))
      ->capture_default_str();
  app.add_option("--max-bytes", options.max_bytes, "largest message")
      ->check(CLI::Range(Index{1}, Index{1} << 30))
      ->capture_default_str();
  app.add_option("--seconds-per-size", options.seconds_per_size, "measuring time per size")
      ->check(CLI::Range(0.0, 60.0))
      ->capture_default_str();
  app.add_flag("--json", options.json, "print {\"bytes\":[...],\"seconds\":[...]}");
  app.add_flag("--busy", options.busy,
               "ranks 2 and up compute while 0 and 1 ping-pong 8 bytes for --seconds-per-size: the median round "
               "trip (with more ranks than cores: how long a message waits for a core a computing rank holds)");
  app.add_option("--shared-core", options.shared_core,
                 "the cores C the ranks are bound to in turn: ranks r and r + C (one core) ping-pong 8 bytes for "
                 "--seconds-per-size, the others wait: the median round trip (two passes of a core from rank to rank)")
      ->check(CLI::Range(Index{1}, Index{1} << 20))
      ->excludes("--busy");
}

void add_options(CLI::App& app, measurements::ExchangeOptions& options) {
  app.add_option("--bytes", options.bytes, "message size, from each rank to each other")
      ->check(CLI::Range(Index{1}, Index{1} << 30))
      ->capture_default_str();
  app.add_option("--repeat", options.repeat, "exchanges, the fastest kept")
      ->check(CLI::Range(1, 1000))
      ->capture_default_str();
  app.add_flag("--json", options.json, "print {\"ranks\":R,\"bytes\":B,\"seconds\":S,\"bandwidth\":R(R-1)B/S}");
}

void add_options(CLI::App& app, measurements::SharedCopyOptions& options) {
  app.add_option("--elements", options.elements, "doubles in the array whose rank-0 plan each rank packs")
      ->check(CLI::Range(Index{64}, Index{1} << 30))
      ->capture_default_str();
  app.add_option("--repeat", options.repeat, "repetitions, the fastest kept")->check(CLI::Range(1, 1000))->capture_default_str();
  app.add_flag("--json", options.json, "print {\"ranks\":R,\"bytes\":B,\"seconds\":S}");
}


}  // namespace redist::mpi::cli
