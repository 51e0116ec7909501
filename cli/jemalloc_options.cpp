// jemalloc's options for the redist CLI, read by jemalloc when the process starts; compiled only
// when the CLI links jemalloc (sim/CMakeLists.txt).
//
// Freed pages stay in the process, as keep_freed_memory() arranges for glibc's malloc: every rank of
// a paper 000 BLOCK -> CYCLIC run frees and rebuilds a hundred megabytes of intersection lists, and
// with jemalloc's default decay the replay of table 2 spent 41 s of its 81 s in the kernel handing
// those pages back and faulting them in again (40 s in all with the decay off, 43 s with glibc).
extern "C" {
// NOLINTNEXTLINE: the name and type are jemalloc's interface (a global it reads before main)
const char* malloc_conf = "dirty_decay_ms:-1,muzzy_decay_ms:-1";
}
