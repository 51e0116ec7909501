#include "redist/sim/simgrid_setup.hpp"

#include <malloc.h>

#include <vector>

#include <xbt/config.hpp>
#include <xbt/log.h>

namespace redist::sim {
namespace {

// AddressSanitizer cannot follow SimGrid's own stack switching (raw contexts): it ignores
// __asan_handle_no_return on actor stacks and reports false positives once an actor throws. With
// one system thread per actor it sees ordinary stacks; slower, but only sanitizer builds pay.
#if defined(__SANITIZE_ADDRESS__)
constexpr bool kAddressSanitizer = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kAddressSanitizer = true;
#else
constexpr bool kAddressSanitizer = false;
#endif
#else
constexpr bool kAddressSanitizer = false;
#endif

// Stack of each rank's actor, KiB.
constexpr int kStackKiB = 256;

// Arguments as SimGrid's command line would carry them: the context factory must be known when
// the engine is created, before any call we could make on it.
std::vector<std::string> engine_arguments() {
  std::vector<std::string> args = {"redist-sim", "--log=root.thresh:critical"};
  if (kAddressSanitizer) args.push_back("--cfg=contexts/factory:thread");
  return args;
}

// Defaults, not settings: SimGrid lets a platform's <config> change only values still at their
// default. The "compound" host model is what makes SimGrid honour network/model at all (its
// "default" host model hard-wires LV08).
void install_model_defaults() {
  simgrid::config::set_default<std::string>("host/model", "compound");
  simgrid::config::set_default<std::string>("network/model", kNetworkModel);
  simgrid::config::set_default<bool>("network/crosstraffic", false);
  simgrid::config::set_default<double>("network/TCP-gamma", kTcpGamma);
  // SimGrid's 8 MiB default stacks come from the heap (keep_freed_memory keeps blocks this size
  // there): at 4096 ranks 32 GiB of address space, each rank's few live stack pages on a page table
  // of their own (bench/README.md, the simulator at scale). The test suite and every paper replay
  // run in 256 KiB; a deeper rank stops on SimGrid's guard page with a clear message. Sanitizer
  // builds (thread contexts, larger frames) keep the default.
  if (!kAddressSanitizer) simgrid::config::set_default<int>("contexts/stack-size", kStackKiB);
}

// Every rank of a run builds and frees its plan in turn: with paper 000's BLOCK -> CYCLIC at 128M
// elements, a hundred megabytes of intersection lists per rank, fifty times a run. glibc gives freed
// memory back to the kernel (trimming, and mmap for large blocks) and takes it back page fault by
// page fault; keeping it in the process made those runs 7x faster (paper000-table2). The peak
// memory is unchanged; only what is already freed stays mapped.
void keep_freed_memory() {
  constexpr int kMmapThreshold = 256 << 20;  // blocks below this come from the reusable heap
  constexpr int kTrimThreshold = 1 << 30;    // free memory at the heap's top that stays mapped
  mallopt(M_MMAP_THRESHOLD, kMmapThreshold);
  mallopt(M_TRIM_THRESHOLD, kTrimThreshold);
}

void enable_tracing(const std::string& trace_file) {
  simgrid::s4u::Engine::set_config("tracing", true);
  simgrid::s4u::Engine::set_config("tracing/filename", trace_file);
  simgrid::s4u::Engine::set_config("tracing/actor", true);
  simgrid::s4u::Engine::set_config("tracing/uncategorized", true);
  // The topology trace asks for routes before Floyd zones are sealed ("No route"); hosts and
  // links are traced all the same.
  simgrid::s4u::Engine::set_config("tracing/platform/topology", false);
}

}  // namespace

std::unique_ptr<simgrid::s4u::Engine> create_engine(const std::string& trace_file) {
  keep_freed_memory();
  xbt_log_control_set("root.thresh:critical");  // before the engine: its creation already logs
  auto args = engine_arguments();
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  int argc = static_cast<int>(args.size());
  auto engine = std::make_unique<simgrid::s4u::Engine>(&argc, argv.data());
  install_model_defaults();
  if (!trace_file.empty()) enable_tracing(trace_file);
  return engine;
}

}  // namespace redist::sim
