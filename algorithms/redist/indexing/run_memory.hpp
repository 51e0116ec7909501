// Memory for run lists, kept between plans. An irregular plan's run lists hold more bytes than the
// data they describe (32 bytes per record, a record per piece), and a fresh block that size is fresh
// pages: the first touch of each faults into the kernel, which zeroes it. In a virtual machine a
// fault can cost microseconds, several times the copy of its 4 KiB (cost.byte_faulted, measured by
// `redist calibrate`; docs/MEASUREMENTS.md has a 1 Mi-element plan of 245,000 records at 7 ms with
// fresh pages and 2.7 ms with kept ones), and glibc hands a block this large back to the kernel when
// it is freed. Blocks of 64 KiB and more are therefore kept here when a plan lets them go, for the
// next plan (a program that redistributes again, a Plan built anew); a process's first plan still
// writes fresh pages (the simulator prices a call the process has made before, which does not).
// Not asked to be transparent huge pages: a huge page's first touch took milliseconds now and then
// where measured, more than the 4 KiB faults it saves.
#pragma once

#include <cstddef>

namespace redist {

namespace run_memory {
/// At least `bytes` bytes for a run list; thread-safe.
void* take(std::size_t bytes);
/// Gives back what take(bytes) returned, kept for the next plans under the rule of
/// core/kept_blocks.hpp (kept and used blocks together no more than the most ever used at once).
void give_back(void* block, std::size_t bytes) noexcept;
/// Bytes of the blocks kept for the next plans (not in use).
std::size_t kept_bytes();
}  // namespace run_memory

/// Frees every block kept for run lists (blocks in use are unaffected).
void release_run_memory();

/// The allocator of run lists: their large blocks come from, and go back to, run_memory.
template <class T>
struct RunAllocator {
  using value_type = T;
  RunAllocator() = default;
  template <class U>
  RunAllocator(const RunAllocator<U>&) noexcept {}
  T* allocate(std::size_t n) { return static_cast<T*>(run_memory::take(n * sizeof(T))); }
  void deallocate(T* block, std::size_t n) noexcept { run_memory::give_back(block, n * sizeof(T)); }
  template <class U>
  friend bool operator==(const RunAllocator&, const RunAllocator<U>&) noexcept {
    return true;
  }
};

}  // namespace redist
