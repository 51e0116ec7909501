#include "redist/mpi/layout_fingerprint.hpp"

#include <type_traits>

namespace redist::mpi {
namespace {

std::string describe_1d(const BlockCyclic& l) {
  return "cyclic(" + std::to_string(l.size()) + "," + std::to_string(l.block_size()) + "," +
         std::to_string(l.procs()) + "," + std::to_string(l.first_proc()) + ")";
}

}  // namespace

std::string describe(const Layout& layout) {
  return std::visit(
      [](const auto& l) -> std::string {
        using T = std::decay_t<decltype(l)>;
        if constexpr (std::is_same_v<T, BlockCyclic>) {
          return describe_1d(l);
        } else if constexpr (std::is_same_v<T, MultiDimLayout>) {
          std::string out = l.storage() == StorageOrder::RowMajor ? "multi[row](" : "multi[col](";
          for (std::size_t d = 0; d < l.rank(); ++d) {
            out += (l.dim(d).is_distributed() ? "" : "*") + describe_1d(l.dim(d).layout()) + ";";
          }
          return out + ")";
        } else {
          return "two_level(" + std::to_string(l.size()) + "," + std::to_string(l.stride()) + "," +
                 std::to_string(l.offset()) + "," + std::to_string(l.block_size()) + "," + std::to_string(l.procs()) +
                 ")";
        }
      },
      layout.variant());
}

std::uint64_t fingerprint(const std::string& text) {
  std::uint64_t hash = 14695981039346656037ULL;
  for (const char c : text) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 1099511628211ULL;
  }
  return hash;
}

}  // namespace redist::mpi
