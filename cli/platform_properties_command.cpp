// `redist platform-properties`: every platform property redist knows, as Markdown — the list of
// platforms/README.md, printed from the table that the readers and the platform check use.
#include <iostream>

#include "command.hpp"
#include "redist/transport/platform_properties.hpp"

namespace redist::cli {

void add_platform_properties_command(CLI::App& root, Commands& commands) {
  auto* app = root.add_subcommand("platform-properties",
                                  "Print every platform property redist knows (platforms/README.md's list) as Markdown");
  commands.push_back({app, [] {
                        std::cout << platform_properties_markdown();
                        return 0;
                      }});
}

}  // namespace redist::cli
