#include "redist/os/outputs_apart.hpp"

#include <sys/stat.h>

#include <stdexcept>

namespace redist::os {
namespace {

// The file a name leads to (links followed), or false where there is none.
bool file_at(const std::filesystem::path& path, struct stat& info) { return ::stat(path.c_str(), &info) == 0; }

}  // namespace

void refuse_outputs_onto_inputs(const std::vector<NamedFile>& outputs, const std::vector<NamedFile>& inputs) {
  for (const auto& output : outputs) {
    struct stat out {};
    if (output.path.empty() || !file_at(output.path, out)) continue;
    for (const auto& input : inputs) {
      struct stat in {};
      if (input.path.empty() || !file_at(input.path, in)) continue;
      if (out.st_dev != in.st_dev || out.st_ino != in.st_ino) continue;
      const std::string same = output.path == input.path ? "" : " (" + input.path.string() + ")";
      throw std::invalid_argument(output.role + " " + output.path.string() + " is the " + input.role + " file" + same +
                                  ": an output never replaces an input; choose another name");
    }
  }
}

}  // namespace redist::os
