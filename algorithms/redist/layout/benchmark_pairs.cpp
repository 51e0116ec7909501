#include "redist/layout/benchmark_pairs.hpp"

namespace redist {
namespace {

struct WrittenPair {
  const char* name;
  Index pr, pc, mb, nb, rsrc, csrc;      // source grid, blocks, first process
  Index qr, qc, mb2, nb2, rsrc2, csrc2;  // destination
};

// For 4 processes and a 4096 x 4096 matrix, where block columns of 4096 x 1024 are whole columns.
constexpr WrittenPair kPairsFor4[] = {
    {"2x2 64x64 -> 4x1 64x64", 2, 2, 64, 64, 0, 0, 4, 1, 64, 64, 0, 0},
    {"2x2 64x64 -> 1x4 32x32", 2, 2, 64, 64, 0, 0, 1, 4, 32, 32, 0, 0},
    {"4x1 1x1 -> 1x4 1x1", 4, 1, 1, 1, 0, 0, 1, 4, 1, 1, 0, 0},
    {"2x2 1x1 -> 2x2 64x64", 2, 2, 1, 1, 0, 0, 2, 2, 64, 64, 0, 0},
    {"2x2 32x32 -> 2x2 48x48 (1,1)", 2, 2, 32, 32, 0, 0, 2, 2, 48, 48, 1, 1},
    {"1x4 block columns -> 4x1 block rows", 1, 4, 4096, 1024, 0, 0, 4, 1, 1024, 4096, 0, 0},
    {"2x2 2x2 -> 4x1 8x8", 2, 2, 2, 2, 0, 0, 4, 1, 8, 8, 0, 0},
    {"4x1 16x16 -> 2x2 16x16 (1,1)", 4, 1, 16, 16, 0, 0, 2, 2, 16, 16, 1, 1},
    {"2x2 100x100 -> 2x2 7x7", 2, 2, 100, 100, 0, 0, 2, 2, 7, 7, 0, 0},
    {"2x2 8x8 -> 1x4 8x8 (0,3)", 2, 2, 8, 8, 0, 0, 1, 4, 8, 8, 0, 3},
    {"4x1 64x64 -> 2x2 128x32", 4, 1, 64, 64, 0, 0, 2, 2, 128, 32, 0, 0},
    {"1x4 3x5 -> 4x1 5x3", 1, 4, 3, 5, 0, 0, 4, 1, 5, 3, 0, 0},
};

}  // namespace

std::vector<DescriptorPair> benchmark_pairs(Index processes, Index rows, Index cols) {
  int doublings = 0;
  for (Index n = 4; n < processes; n *= 2) ++doublings;
  if (processes != Index{4} << doublings) return {};
  std::vector<DescriptorPair> out;
  for (WrittenPair p : kPairsFor4) {
    for (int d = 0; d < doublings; ++d) {
      if (d % 2 == 0) {
        p.pr *= 2, p.qr *= 2;
      } else {
        p.pc *= 2, p.qc *= 2;
      }
    }
    out.push_back({p.name, {rows, cols, p.mb, p.nb, p.pr, p.pc, p.rsrc, p.csrc},
                   {rows, cols, p.mb2, p.nb2, p.qr, p.qc, p.rsrc2, p.csrc2}});
  }
  return out;
}

}  // namespace redist
