// The copy kernels of packing, unpacking and the local copy: runs of a few bytes as fixed-size
// moves rather than a library call each, regular pieces in a tight strided loop.
#pragma once

#include <cstddef>
#include <cstring>

#include "redist/core/int_math.hpp"

namespace redist {

template <std::size_t N>
void copy_fixed(std::byte* to, const std::byte* from) {
  std::memcpy(to, from, N);  // a constant size: compiled to plain moves
}

// Runs are often a few elements long (paper 000: runs of 2 single-precision values). Short ones
// are copied with two fixed-size moves that may overlap, instead of a library call per run.
inline void copy_run(std::byte* to, const std::byte* from, std::size_t n) {
  if (n > 64) {
    std::memcpy(to, from, n);
  } else if (n >= 32) {
    copy_fixed<32>(to, from);
    copy_fixed<32>(to + n - 32, from + n - 32);
  } else if (n >= 16) {
    copy_fixed<16>(to, from);
    copy_fixed<16>(to + n - 16, from + n - 16);
  } else if (n >= 8) {
    copy_fixed<8>(to, from);
    copy_fixed<8>(to + n - 8, from + n - 8);
  } else if (n >= 4) {
    copy_fixed<4>(to, from);
    copy_fixed<4>(to + n - 4, from + n - 4);
  } else {
    for (std::size_t i = 0; i < n; ++i) to[i] = from[i];
  }
}

// Copies `count` pieces of `bytes` bytes, piece c from `from + c * from_step` to `to + c * to_step`:
// a tight loop, no record per piece, common piece sizes as fixed-size moves.
template <std::size_t N>
void copy_fixed_pieces(std::byte* to, Index to_step, const std::byte* from, Index from_step, Index count) {
  for (Index c = 0; c < count; ++c, to += to_step, from += from_step) copy_fixed<N>(to, from);
}

inline void copy_pieces(std::byte* to, Index to_step, const std::byte* from, Index from_step, Index count, std::size_t bytes) {
  switch (bytes) {
    case 8: return copy_fixed_pieces<8>(to, to_step, from, from_step, count);
    case 16: return copy_fixed_pieces<16>(to, to_step, from, from_step, count);
    case 32: return copy_fixed_pieces<32>(to, to_step, from, from_step, count);
    case 64: return copy_fixed_pieces<64>(to, to_step, from, from_step, count);
    default:
      for (Index c = 0; c < count; ++c, to += to_step, from += from_step) copy_run(to, from, bytes);
  }
}

// Pieces in groups: `outer` groups of `inner` pieces of `bytes` bytes; piece i of group o from
// `from + o * from_outer + i * from_inner` to `to + o * to_outer + i * to_inner`. Two regular run
// lists whose piece lengths divide one another pair up this way (a piece of one side holds a
// group of the other's), in one loop instead of a call per group.
template <std::size_t N>
void copy_fixed_piece_groups(std::byte* to, Index to_inner, Index to_outer, const std::byte* from, Index from_inner,
                             Index from_outer, Index inner, Index outer) {
  for (Index o = 0; o < outer; ++o, to += to_outer, from += from_outer) {
    std::byte* t = to;
    const std::byte* f = from;
    for (Index i = 0; i < inner; ++i, t += to_inner, f += from_inner) copy_fixed<N>(t, f);
  }
}

inline void copy_piece_groups(std::byte* to, Index to_inner, Index to_outer, const std::byte* from, Index from_inner,
                              Index from_outer, Index inner, Index outer, std::size_t bytes) {
  switch (bytes) {
    case 8: return copy_fixed_piece_groups<8>(to, to_inner, to_outer, from, from_inner, from_outer, inner, outer);
    case 16: return copy_fixed_piece_groups<16>(to, to_inner, to_outer, from, from_inner, from_outer, inner, outer);
    case 32: return copy_fixed_piece_groups<32>(to, to_inner, to_outer, from, from_inner, from_outer, inner, outer);
    case 64: return copy_fixed_piece_groups<64>(to, to_inner, to_outer, from, from_inner, from_outer, inner, outer);
    default:
      for (Index o = 0; o < outer; ++o, to += to_outer, from += from_outer) {
        copy_pieces(to, to_inner, from, from_inner, inner, bytes);
      }
  }
}

}  // namespace redist
