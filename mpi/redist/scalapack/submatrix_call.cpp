#include "redist/scalapack/submatrix_call.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <stdexcept>

#include "redist/mpi/kept_transport.hpp"
#include "redist/mpi/scalapack_layout.hpp"
#include "redist/mpi/shared_window_publication.hpp"
#include "redist/predict/machine_model_json.hpp"
#include "redist/redistribute/redistribution_plan.hpp"
#include "redist/scalapack/agreed_refusal.hpp"
#include "redist/scalapack/blacs.hpp"
#include "redist/scalapack/context_meeting.hpp"
#include "redist/scalapack/plan_cache.hpp"

namespace redist::scalapack {
namespace {

// What is wrong with a rank's contexts, if anything.
enum ContextProblem : std::int64_t { kContextsFine, kOutsideA, kOutsideB, kNotShared };

// What one rank was given, as every rank of the context sees it after one allgather. A
// descriptor's CTXT_ is a handle of the rank's own (they differ between ranks): in its place, the
// rank's place in that context's grid.
struct Given {
  std::int64_t rows, cols, ia, ja, ib, jb, uplo, diag, transpose, elem_bytes, context_problem;
  std::int64_t a_null, b_null;  // the local array is a null pointer where it is read (A) or written (B)
  std::int64_t model_state, model_digest;  // REDIST_MODEL as this process read it (ModelFile)
  std::array<std::int64_t, 11> desca;  // the eleven-entry form (descriptor.hpp), as read
  std::array<std::int64_t, 4> grida;   // grid rows, grid columns, my row, my column
  std::array<std::int64_t, 11> descb;
  std::array<std::int64_t, 4> gridb;
  // Agreed on, but not part of a kept plan's key (a p?tran whose ALPHA changes from call to call
  // keeps its plan): p?tran's scalars, and the environment that changes how the data moves.
  ScalarBits alpha, beta;
  std::int64_t shared_memory;    // shared_memory_wanted(): REDIST_MPI_SHARED_MEMORY
  std::int64_t once_piece;       // a digest of REDIST_MPI_ONCE_PIECE_BYTES's text
  std::int64_t log_kind;         // LogKind of REDIST_SCALAPACK_LOG
};
constexpr int kGivenFields = static_cast<int>(sizeof(Given) / sizeof(std::int64_t));
constexpr int kKeyFields = static_cast<int>(offsetof(Given, alpha) / sizeof(std::int64_t));
constexpr std::size_t kLld = 10;  // LLD_'s place in the eleven-entry form

bool model_in_use = true;
std::string last_method_text;

// REDIST_MODEL=<file>: the machine model `auto` predicts on (the .model.json `redist calibrate`
// writes), read once per process. The ranks of a call agree on it (its state and a digest of its
// bytes are in what they gather): a model missing, unreadable or different on any rank is used by
// none, and the call runs the default method, moving the data as without the variable.
enum ModelState : std::int64_t { kNoModel, kModelUnusable, kModelRead };

struct ModelFile {
  ModelState state = kNoModel;
  std::int64_t digest = 0;  // FNV-1a of the file's bytes, where read
  std::shared_ptr<const MachineModel> model;
  std::string problem;  // why it cannot be used, where unusable
};

std::int64_t fnv1a(const std::string& bytes) {
  std::uint64_t hash = 14695981039346656037ULL;
  for (const char c : bytes) hash = (hash ^ static_cast<unsigned char>(c)) * 1099511628211ULL;
  return static_cast<std::int64_t>(hash);
}

const ModelFile& model_file() {
  static const ModelFile file = [] {
    ModelFile f;
    const char* path = std::getenv("REDIST_MODEL");
    if (path == nullptr || *path == '\0') return f;
    try {
      const std::string text = read_machine_model_text(path);
      f.model = std::make_shared<const MachineModel>(machine_model_from_json(text, path));
      f.digest = fnv1a(text);
      f.state = kModelRead;
    } catch (const std::exception& e) {
      f.state = kModelUnusable;
      f.problem = e.what();
    }
    return f;
  }();
  return file;
}

// Says once per process, on stderr, why the model is not used.
void tell_model_unused(const std::string& why) {
  static bool told = false;
  if (told) return;
  told = true;
  std::fprintf(stderr, "redist: REDIST_MODEL not used (%s): calls run redist's default method\n", why.c_str());
}

// REDIST_SCALAPACK_LOG=<file>: every rank appends one line per call to the file (in one write,
// so that the ranks' lines do not mix), to show that redist answered and how. Only a regular file
// is written, opened without waiting (a FIFO would block every rank until a reader came): another
// kind is not used, said once by the rank that has it, and the ranks of a call agree on the kind,
// so that either all of them log the call or none.
enum LogKind : std::int64_t { kNoLog, kLogFile, kLogUnusable };

std::string log_path() {
  const char* path = std::getenv("REDIST_SCALAPACK_LOG");
  return path != nullptr ? path : "";
}

std::string log_problem;  // why this process's log cannot be written, where it cannot

// Opened for appending, or -1 (log_problem says why) where the path is not a regular file.
int open_log(const std::string& path) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_NONBLOCK | O_CLOEXEC, 0644);
  struct stat info {};
  if (fd >= 0 && ::fstat(fd, &info) == 0 && S_ISREG(info.st_mode)) return fd;
  log_problem = fd < 0 ? std::strerror(errno) : "not a regular file";
  if (fd >= 0) ::close(fd);
  return -1;
}

// Said once per process, by the lowest rank of a call that cannot write its log.
void tell_log_unused(const std::string& path) {
  static bool told = false;
  if (told) return;
  told = true;
  std::fprintf(stderr, "redist: REDIST_SCALAPACK_LOG %s not used (%s): calls are not logged\n", path.c_str(),
               log_problem.c_str());
}

// Looked at on every call (the file may be replaced between calls): only when the variable is set.
std::int64_t log_kind() {
  const std::string path = log_path();
  if (path.empty()) return kNoLog;
  const int fd = open_log(path);
  if (fd < 0) return kLogUnusable;
  ::close(fd);
  return kLogFile;
}

bool log_agreed = true;  // the ranks of the last call agreed on the log's kind

void log_call(const SubmatrixCall& call, const std::string& outcome) {
  if (log_path().empty() || !log_agreed) return;
  int world = -1;
  MPI_Comm_rank(MPI_COMM_WORLD, &world);
  const std::string line = "redist " + call.routine + " rank " + std::to_string(world) + " m " +
                           std::to_string(call.rows) + " n " + std::to_string(call.cols) + ": " + outcome + "\n";
  const int fd = open_log(log_path());
  if (fd < 0) return;
  [[maybe_unused]] const ssize_t written = ::write(fd, line.data(), line.size());
  ::close(fd);
}

// The model the ranks of a call agreed on, or null (none, or not the same usable one on every
// rank). Where it is not used, the first rank that cannot use it says why; where the ranks read
// different models, the first of them that differs from rank 0 does.
std::shared_ptr<const MachineModel> agreed_model(const std::vector<Given>& all, Rank me) {
  const Given& ref = all.front();
  bool same = true;
  for (const Given& g : all) same = same && g.model_state == ref.model_state && g.model_digest == ref.model_digest;
  if (same && ref.model_state == kNoModel) return nullptr;
  if (same && ref.model_state == kModelRead) return model_file().model;
  Rank teller = -1;
  for (std::size_t r = 0; r < all.size() && teller < 0; ++r) {
    if (all[r].model_state == kModelUnusable) teller = static_cast<Rank>(r);
  }
  if (teller < 0) {
    for (std::size_t r = 0; r < all.size() && teller < 0; ++r) {
      if (all[r].model_state != ref.model_state || all[r].model_digest != ref.model_digest) teller = static_cast<Rank>(r);
    }
  }
  if (teller == me) {
    const ModelFile& f = model_file();
    tell_model_unused(f.state == kModelUnusable ? f.problem
                      : f.state == kNoModel     ? "rank " + std::to_string(me) + " of the call has none, rank 0 has one"
                                                : "rank " + std::to_string(me) + " of the call read another file than rank 0");
  }
  return nullptr;
}

std::array<std::int64_t, 11> fields(const int* desc, Reader reader) {
  const Descriptor d = read_descriptor(desc, reader);
  return {d.dtype, d.context, d.rows, d.cols, d.first_row_block, d.first_col_block, d.row_block, d.col_block,
          d.first_row, d.first_col, d.leading_dim};
}

std::array<std::int64_t, 4> place_fields(const GridPlace& p) { return {p.rows, p.cols, p.row, p.col}; }

GridPlace place_of(const std::array<std::int64_t, 4>& g) {
  return {static_cast<int>(g[0]), static_cast<int>(g[1]), static_cast<int>(g[2]), static_cast<int>(g[3])};
}

Descriptor descriptor_of(const std::array<std::int64_t, 11>& d) {
  const auto i = [&](std::size_t k) { return static_cast<int>(d[k]); };
  return {i(0), i(1), i(2), i(3), i(4), i(5), i(6), i(7), i(8), i(9), i(10)};
}

// REDIST's p?gemr2d and p?trmr2d return at once when M or N is 0, reading nothing else.
bool empty_redist_copy(const SubmatrixCall& call) {
  return call.reader == Reader::Redist && (call.rows == 0 || call.cols == 0);
}

Given what_i_was_given(const SubmatrixCall& call, const std::byte* a_local, const std::byte* b_local) {
  Given g{};
  g.alpha = call.alpha;
  g.beta = call.beta;
  g.shared_memory = mpi::shared_memory_wanted();
  const char* once = std::getenv("REDIST_MPI_ONCE_PIECE_BYTES");
  g.once_piece = once != nullptr ? fnv1a(once) ^ 1 : 0;
  g.log_kind = log_kind();
  g.a_null = call.move && a_local == nullptr;
  g.b_null = b_local == nullptr || call.b_null;
  g.rows = call.rows;
  g.cols = call.cols;
  g.transpose = call.transpose;
  g.elem_bytes = call.elem_bytes;
  g.grida = g.gridb = place_fields(GridPlace{});
  if (model_in_use) {  // else kNoModel
    g.model_state = model_file().state;
    g.model_digest = model_file().digest;
  }
  if (empty_redist_copy(call)) return g;
  g.ia = call.ia;
  g.ja = call.ja;
  g.ib = call.ib;
  g.jb = call.jb;
  g.uplo = call.uplo;
  g.diag = call.diag;
  // A rank outside a grid may pass no descriptor at all (ScaLAPACK would read its CTXT_).
  const int context_a = call.desca != nullptr ? call.desca[1] : -1;
  const int context_b = call.descb != nullptr ? call.descb[1] : -1;
  const GridPlace a = grid_place(context_a), b = grid_place(context_b);
  // REDIST takes a CTXT_ naming no grid the rank is in as -1: the rank is outside that grid (a
  // grid process left without a rank is told below). PBLAS wants every caller in A's grid.
  const bool pblas = call.reader == Reader::Pblas;
  g.context_problem = (pblas && !a.inside())                         ? kOutsideA
                      : (pblas && !b.inside())                       ? kOutsideB
                      : (call.one_context && context_b != context_a) ? kNotShared
                                                                     : kContextsFine;
  // A rank outside a grid need not fill the descriptor beyond CTXT_ (-1): nothing of it is read.
  if (a.inside()) g.desca = fields(call.desca, call.reader);
  g.grida = place_fields(a);
  if (b.inside()) g.descb = fields(call.descb, call.reader);
  g.gridb = place_fields(b);
  return g;
}

// One side of the copy (A or B) as the checks see it.
struct SideView {
  const std::array<std::int64_t, 11>& desc;
  const std::array<std::int64_t, 4>& grid;
  std::int64_t i, j, rows, cols;
  const std::string& i_name;
  const std::string& j_name;
  const std::string& desc_name;
  const char* matrix;
};

SideView side_a(const Given& g, const SubmatrixCall& call) {
  return {g.desca, g.grida, g.ia, g.ja, g.rows, g.cols, call.names.ia, call.names.ja, call.names.desca, "A"};
}

SideView side_b(const Given& g, const SubmatrixCall& call) {
  const bool t = g.transpose != 0;
  return {g.descb, g.gridb, g.ib, g.jb, t ? g.cols : g.rows, t ? g.rows : g.cols,
          call.names.ib, call.names.jb, call.names.descb, call.names.b_matrix.c_str()};
}

// What is wrong with one rank's side alone.
std::string side_problem(const SideView& s, Reader reader) {
  const GridPlace place = place_of(s.grid);
  if (!place.inside()) return {};
  const Descriptor d = descriptor_of(s.desc);
  const bool empty = s.rows == 0 || s.cols == 0;
  if (std::string p = descriptor_problem(d, place, reader, empty); !p.empty()) return s.desc_name + ": " + p;
  if (s.i < 1) return s.i_name + ": " + std::to_string(s.i) + " is below 1";
  if (s.j < 1) return s.j_name + ": " + std::to_string(s.j) + " is below 1";
  if (!empty) {
    if (s.i + s.rows - 1 > d.rows) {
      return s.i_name + ": rows " + std::to_string(s.i) + " to " + std::to_string(s.i + s.rows - 1) + " of " + s.matrix +
             "'s " + std::to_string(d.rows);
    }
    if (s.j + s.cols - 1 > d.cols) {
      return s.j_name + ": columns " + std::to_string(s.j) + " to " + std::to_string(s.j + s.cols - 1) + " of " +
             s.matrix + "'s " + std::to_string(d.cols);
    }
  }
  return {};
}

// A side's row (column) stretches: its matrix as redist lays it out, dimension by dimension.
std::vector<Stretch> row_stretches(const Descriptor& d, std::int64_t grid_rows) {
  return stretches(d.rows, d.first_row_block, d.row_block, grid_rows, d.first_row);
}
std::vector<Stretch> col_stretches(const Descriptor& d, std::int64_t grid_cols) {
  return stretches(d.cols, d.first_col_block, d.col_block, grid_cols, d.first_col);
}

// A null local array where this rank holds part of the submatrix's rows and columns (the side's
// checks have passed: its descriptor is sound).
std::string null_array_problem(const SideView& s, bool null, const std::string& array_name) {
  const GridPlace place = place_of(s.grid);
  if (!null || !place.inside() || s.rows == 0 || s.cols == 0) return {};
  const Descriptor d = descriptor_of(s.desc);
  const Descriptor held = held_by(d, static_cast<int>(s.grid[2]), static_cast<int>(s.grid[3]));
  const Index rows = held_in(row_stretches(held, s.grid[0]), s.i - 1, s.rows, s.grid[0], s.grid[2]);
  const Index cols = held_in(col_stretches(held, s.grid[1]), s.j - 1, s.cols, s.grid[1], s.grid[3]);
  if (rows == 0 || cols == 0) return {};
  return array_name + ": null, where this rank holds " + std::to_string(rows) + " x " + std::to_string(cols) +
         " elements of sub(" + s.matrix + ")";
}

// What differs between a rank's side and the reference rank's (the lowest of the grid).
std::string side_difference(const SideView& mine, const SideView& ref, Rank ref_rank) {
  static constexpr std::array<const char*, 11> kNames = {"DTYPE_", "CTXT_", "M_",   "N_",    "IMB_",  "INB_",
                                                         "MB_",    "NB_",   "RSRC_", "CSRC_", "LLD_"};
  const auto differs = [&](const std::string& name, std::int64_t value, std::int64_t theirs) {
    return name + " is " + std::to_string(value) + " where rank " + std::to_string(ref_rank) + " passed " +
           std::to_string(theirs);
  };
  if (mine.grid[0] != ref.grid[0] || mine.grid[1] != ref.grid[1]) {
    return mine.desc_name + ": a " + std::to_string(mine.grid[0]) + " x " + std::to_string(mine.grid[1]) +
           " grid where rank " + std::to_string(ref_rank) + " is in a " + std::to_string(ref.grid[0]) + " x " +
           std::to_string(ref.grid[1]) + " one";
  }
  for (std::size_t k : {2, 3, 6, 7, 4, 5, 8, 9}) {  // not DTYPE_: 1 and 2 may describe one layout
    if (mine.desc[k] != ref.desc[k]) return mine.desc_name + ": " + differs(kNames[k], mine.desc[k], ref.desc[k]);
  }
  if (mine.i != ref.i) return differs(mine.i_name, mine.i, ref.i);
  if (mine.j != ref.j) return differs(mine.j_name, mine.j, ref.j);
  return {};
}

// The ranks of one side's grid: rank of process (r, c) at r · columns + c, or a problem.
std::string grid_ranks(const std::vector<Given>& all, bool a_side, const SubmatrixCall& call, std::vector<Rank>& ranks) {
  Rank first = -1;
  for (std::size_t r = 0; r < all.size(); ++r) {
    const auto& g = a_side ? all[r].grida : all[r].gridb;
    if (g[2] < 0) continue;
    if (first < 0) {
      first = static_cast<Rank>(r);
      ranks.assign(static_cast<std::size_t>(g[0] * g[1]), -1);
    }
    ranks[static_cast<std::size_t>(g[2] * g[1] + g[3])] = static_cast<Rank>(r);
  }
  const std::string& name = a_side ? call.names.desca : call.names.descb;
  if (first < 0) return name + ": no rank of the context holds a part of " + (a_side ? "A" : "B");
  for (std::size_t p = 0; p < ranks.size(); ++p) {
    if (ranks[p] < 0) {
      const auto& g = a_side ? all[static_cast<std::size_t>(first)].grida : all[static_cast<std::size_t>(first)].gridb;
      return name + ": no rank of the context holds process (" + std::to_string(static_cast<std::int64_t>(p) / g[1]) +
             ", " + std::to_string(static_cast<std::int64_t>(p) % g[1]) + ") of " + (a_side ? "A" : "B") +
             "'s grid (its rank is not in ICTXT, or passed a CTXT_ of no grid it is in)";
    }
  }
  return {};
}

bool empty(const Given& g) { return g.rows == 0 || g.cols == 0; }

// The first problem of the call, the same on every rank: "rank K: <argument>: <what>".
std::string first_problem(const std::vector<Given>& all, const SubmatrixCall& call, std::vector<Rank>& a_ranks,
                          std::vector<Rank>& b_ranks) {
  const Given& ref = all.front();
  Rank ref_a = -1, ref_b = -1;
  for (std::size_t r = 0; r < all.size(); ++r) {
    if (ref_a < 0 && all[r].grida[2] >= 0) ref_a = static_cast<Rank>(r);
    if (ref_b < 0 && all[r].gridb[2] >= 0) ref_b = static_cast<Rank>(r);
  }
  for (std::size_t r = 0; r < all.size(); ++r) {
    const Given& g = all[r];
    const auto at = [&](const std::string& what) { return "rank " + std::to_string(r) + ": " + what; };
    if (g.rows < 0) return at(call.names.rows + ": " + std::to_string(g.rows) + " is negative");
    if (g.cols < 0) return at(call.names.cols + ": " + std::to_string(g.cols) + " is negative");
    if (call.reader == Reader::Redist && (empty(g) || empty(ref))) {  // an empty copy read nothing else
      if (empty(g) == empty(ref)) continue;
      return at(call.names.rows + " and " + call.names.cols + ": " + std::to_string(g.rows) + " x " +
                std::to_string(g.cols) + " where rank 0 passed " + std::to_string(ref.rows) + " x " +
                std::to_string(ref.cols));
    }
    if (g.context_problem == kNotShared) return at(call.names.descb + ": CTXT_ is not A's context (both must share one)");
    if (g.context_problem != kContextsFine) {
      const std::string& name = g.context_problem == kOutsideA ? call.names.desca : call.names.descb;
      return at(name + ": CTXT_ names a context this rank is not part of");
    }
    for (const SideView& side : {side_a(g, call), side_b(g, call)}) {
      if (std::string p = side_problem(side, call.reader); !p.empty()) return at(p);
    }
    if (std::string p = null_array_problem(side_a(g, call), g.a_null != 0, call.names.a); !p.empty()) return at(p);
    if (std::string p = null_array_problem(side_b(g, call), g.b_null != 0, call.names.b); !p.empty()) return at(p);
    const auto differs = [&](const std::string& name, std::int64_t value, std::int64_t theirs) {
      return at(name + ": " + std::to_string(value) + " where rank 0 passed " + std::to_string(theirs));
    };
    if (g.rows != ref.rows) return differs(call.names.rows, g.rows, ref.rows);
    if (g.cols != ref.cols) return differs(call.names.cols, g.cols, ref.cols);
    if (g.uplo != ref.uplo) return at(call.names.uplo + ": another part than rank 0's");
    if (g.diag != ref.diag) return at(call.names.diag + ": another diagonal than rank 0's");
    if (g.transpose != ref.transpose || g.elem_bytes != ref.elem_bytes) {
      return at("a different routine or element type than rank 0's");
    }
    if (g.alpha != ref.alpha) return at(call.names.alpha + ": another value than rank 0's");
    if (g.beta != ref.beta) return at(call.names.beta + ": another value than rank 0's");
    // What changes how the data moves is set alike on every rank, or the ranks would not meet.
    if (g.shared_memory != ref.shared_memory) {
      return at(std::string("REDIST_MPI_SHARED_MEMORY ") + (g.shared_memory ? "allows" : "forbids") +
                " shared memory where rank 0's " + (ref.shared_memory ? "allows" : "forbids") + " it (set it alike on every rank)");
    }
    if (g.once_piece != ref.once_piece) return at("REDIST_MPI_ONCE_PIECE_BYTES is not rank 0's (set it alike on every rank)");
    if (g.grida[2] >= 0) {
      const Given& a = all[static_cast<std::size_t>(ref_a)];
      if (std::string p = side_difference(side_a(g, call), side_a(a, call), ref_a); !p.empty()) return at(p);
    }
    if (g.gridb[2] >= 0) {
      const Given& b = all[static_cast<std::size_t>(ref_b)];
      if (std::string p = side_difference(side_b(g, call), side_b(b, call), ref_b); !p.empty()) return at(p);
    }
  }
  if (call.reader == Reader::Redist && empty(ref)) return {};
  if (std::string p = grid_ranks(all, true, call, a_ranks); !p.empty()) return p;
  if (std::string p = grid_ranks(all, false, call, b_ranks); !p.empty()) return p;
  return {};
}

// This rank's runs in its local array, from the runs in the layout of a row and a column stretch:
// on the stretches' shift processes, `shift` elements (local columns) earlier.
void shift_back(std::vector<PeerPlan>& peers, const Stretch& rows, const Stretch& cols, Index lld,
                const std::array<std::int64_t, 4>& grid) {
  if (grid[2] < 0) return;
  const Index shift = (grid[2] == rows.shift_process ? rows.shift : 0) + (grid[3] == cols.shift_process ? cols.shift * lld : 0);
  if (shift == 0) return;
  for (PeerPlan& peer : peers) {
    for (Run& r : peer.runs) r.local_start -= shift;
  }
}

// The local rows and columns a side's descriptor gives process (row, col).
std::array<Index, 2> local_shape(const std::array<std::int64_t, 11>& d, const std::array<std::int64_t, 4>& grid,
                                 std::int64_t row, std::int64_t col) {
  const auto extent = [](std::int64_t n, std::int64_t block, std::int64_t p, std::int64_t first, std::int64_t procs) {
    return n <= 0 ? Index{0} : BlockCyclic(n, block, procs, first).local_size(p);
  };
  return {extent(d[2], d[6], row, d[8], grid[0]), extent(d[3], d[7], col, d[9], grid[1])};
}

// Whether the call copies whole matrices stored densely (LLD_ the local rows on every rank holding
// elements) without trapezoid or transposition: then it is a redistribution between two layouts,
// which a redist::mpi::Plan can run with any indexing and schedule. The same answer on every rank.
bool whole_dense_copy(const std::vector<Given>& all, const SubmatrixCall& call, Rank ref_a, Rank ref_b) {
  if (call.uplo != 0 || call.transpose || !call.move) return false;
  const Given& a = all[static_cast<std::size_t>(ref_a)];
  const Given& b = all[static_cast<std::size_t>(ref_b)];
  if (a.ia != 1 || a.ja != 1 || b.ib != 1 || b.jb != 1) return false;
  if (a.desca[2] != a.rows || a.desca[3] != a.cols || b.descb[2] != b.rows || b.descb[3] != b.cols) return false;
  for (const Given& g : all) {
    if (g.grida[2] >= 0) {
      const auto [rows, cols] = local_shape(a.desca, a.grida, g.grida[2], g.grida[3]);
      if (rows > 0 && cols > 0 && g.desca[kLld] != rows) return false;
    }
    if (g.gridb[2] >= 0) {
      const auto [rows, cols] = local_shape(b.descb, b.gridb, g.gridb[2], g.gridb[3]);
      if (rows > 0 && cols > 0 && g.descb[kLld] != rows) return false;
    }
  }
  return true;
}

Layout layout_of(const std::array<std::int64_t, 11>& d, const std::array<std::int64_t, 4>& grid) {
  return mpi::scalapack_layout({.rows = d[2], .cols = d[3], .row_block = d[6], .col_block = d[7], .grid_rows = grid[0],
                                .grid_cols = grid[1], .first_row = d[8], .first_col = d[9]});
}

// Collective over the context: the indexing and schedule `auto` predicts fastest on `model` for
// each call of the kept plan (the index phase is paid once: it is left out of the ranking), and the
// whole-matrix copy as a Plan running them in `kept`'s place, unless the schedule chosen is the
// default's own, async: then the submatrix plan stays (the same exchange, its run lists as compact
// as any indexing's). The Plan's communicator puts A's processors first, in order (a Plan's source
// processors are consecutive ranks), then the other ranks; B's processors stay where B's grid has
// them (no relabelling: B's descriptor says where its blocks are).
void choose_on_model(KeptPlan& kept, const mpi::MpiTransport& transport, const std::vector<Given>& all,
                     const std::vector<Rank>& a_ranks, const std::vector<Rank>& b_ranks, Index elem_bytes,
                     const std::shared_ptr<const MachineModel>& model) {
  const Given& a = all[static_cast<std::size_t>(a_ranks.front())];
  const Given& b = all[static_cast<std::size_t>(b_ranks.front())];
  std::vector<Index> new_rank(all.size(), -1);
  for (std::size_t p = 0; p < a_ranks.size(); ++p) new_rank[static_cast<std::size_t>(a_ranks[p])] = static_cast<Index>(p);
  Index next = static_cast<Index>(a_ranks.size());
  for (Index& r : new_rank) {
    if (r < 0) r = next++;
  }
  MPI_Comm comm = MPI_COMM_NULL;
  MPI_Comm_split(transport.comm(), 0, static_cast<int>(new_rank[static_cast<std::size_t>(transport.rank())]), &comm);
  mpi::Options options;
  options.elem_bytes = elem_bytes;
  options.indexing = "auto";
  options.schedule = "auto";
  options.relabel = "none";
  options.model = model;
  std::vector<Index> dest_ranks;
  for (const Rank r : b_ranks) dest_ranks.push_back(new_rank[static_cast<std::size_t>(r)]);
  options.ranks = RankMap::relabelled(std::move(dest_ranks));
  const Layout from = layout_of(a.desca, a.grida), to = layout_of(b.descb, b.gridb);
  std::unique_ptr<mpi::Plan> plan;
  std::string choice;
  try {  // every rank throws alike (the choice and the Plan agree on their input): none keeps `comm`
    const mpi::Options chosen = mpi::choose(comm, from, to, options, true);
    choice = "indexing " + chosen.indexing + ", schedule " + chosen.schedule;
    if (chosen.schedule != "async") plan = std::make_unique<mpi::Plan>(comm, from, to, chosen);
  } catch (...) {
    MPI_Comm_free(&comm);
    throw;
  }
  if (!plan) {
    MPI_Comm_free(&comm);
    kept.method = "redist's submatrix plan (auto chose " + choice + ": the default's exchange)";
    return;
  }
  kept.plan = std::move(plan);
  kept.comm = comm;
  kept.method = "a redist::mpi::Plan chosen on the machine model: " + choice;
}

StoredMatrix stored(const Stretch& rows, const Stretch& cols, const std::array<std::int64_t, 4>& grid, Index lld,
                    const std::vector<Rank>& ranks) {
  return {BlockCyclic(rows.size, rows.block, grid[0], rows.first), BlockCyclic(cols.size, cols.block, grid[1], cols.first),
          lld, ranks};
}

// The pieces of one dimension of sub(A), [lo, hi) of its 0-based indices, within one stretch of A
// (from sub(A)'s index a0) and one of B (from b0).
struct DimensionPiece {
  Index lo, hi;
  const Stretch* a;
  const Stretch* b;
};

std::vector<DimensionPiece> dimension_pieces(const std::vector<Stretch>& a, Index a0, const std::vector<Stretch>& b,
                                             Index b0, Index count) {
  std::vector<DimensionPiece> out;
  for (const Stretch& sa : a) {
    for (const Stretch& sb : b) {
      const Index lo = std::max({Index{0}, sa.begin - a0, sb.begin - b0});
      const Index hi = std::min({count, sa.end - a0, sb.end - b0});
      if (lo < hi) out.push_back({lo, hi, &sa, &sb});
    }
  }
  std::sort(out.begin(), out.end(), [](const DimensionPiece& x, const DimensionPiece& y) { return x.lo < y.lo; });
  return out;
}

// Where index g of a stretch's dimension lies in its layout.
Index in_layout(const Stretch& s, Index g) { return g - s.begin + s.virtual_begin; }

// The peer plans of `peers` merged by peer: one per peer, their runs in the order given (the
// order of the pieces, the same on both sides of a message).
std::vector<PeerPlan> merged_by_peer(std::vector<PeerPlan> peers) {
  std::stable_sort(peers.begin(), peers.end(), [](const PeerPlan& x, const PeerPlan& y) { return x.peer < y.peer; });
  std::vector<PeerPlan> out;
  for (PeerPlan& p : peers) {
    if (out.empty() || out.back().peer != p.peer) {
      out.push_back(std::move(p));
      continue;
    }
    PeerPlan& into = out.back();
    into.elements += p.elements;
    into.run_count += p.run_count;
    into.extra_copies += p.extra_copies;
    into.record_count += p.record_count;
    into.runs.insert(into.runs.end(), p.runs.begin(), p.runs.end());
  }
  return out;
}

// The processes (rows, or columns) holding a copy of a dimension: all of a replicated one (-1).
std::vector<int> holders(std::int64_t first, std::int64_t processes) {
  if (first != -1) return {static_cast<int>(first)};
  std::vector<int> all(static_cast<std::size_t>(processes));
  for (std::size_t p = 0; p < all.size(); ++p) all[p] = static_cast<int>(p);
  return all;
}

// This rank's plan of the call, once its arguments are agreed. A replicated A (PBLAS's RSRC_ or
// CSRC_ -1) is read from the copy of process row and column 0; a replicated B gets one copy per
// process row (column) holding one, each sent as to a matrix held by that row alone: their
// destinations differ, so the copies' sends go to distinct peers and this rank receives from one.
RankPlan plan_of_call(const std::vector<Given>& all, const Given& mine, const SubmatrixCall& call,
                      const std::vector<Rank>& a_ranks, const std::vector<Rank>& b_ranks, Rank me) {
  const Given& ra = all[static_cast<std::size_t>(a_ranks.front())];
  const Given& rb = all[static_cast<std::size_t>(b_ranks.front())];
  const Descriptor desc_a = held_by(descriptor_of(ra.desca), 0, 0);
  const std::vector<Stretch> a_rows = row_stretches(desc_a, ra.grida[0]), a_cols = col_stretches(desc_a, ra.grida[1]);
  RankPlan plan;
  int pieces = 0;
  for (const int row : holders(rb.descb[8], rb.gridb[0])) {
    for (const int col : holders(rb.descb[9], rb.gridb[1])) {
      const Descriptor desc_b = held_by(descriptor_of(rb.descb), row, col);
      const std::vector<Stretch> b_rows = row_stretches(desc_b, rb.gridb[0]);
      const std::vector<Stretch> b_cols = col_stretches(desc_b, rb.gridb[1]);
      // First blocks other than the rest (PBLAS's IMB_, INB_): the copy is cut where a stretch of
      // A or B ends, each piece a copy between block-cyclic layouts, its runs shifted to the
      // local storage (Stretch). sub(A)'s rows go to B's rows, or its columns where transposed.
      // A trapezoid (p?trmr2d) is never cut: REDIST's nine-entry descriptors make one stretch.
      const bool t = call.transpose;
      const auto rows = dimension_pieces(a_rows, mine.ia - 1, t ? b_cols : b_rows, t ? mine.jb - 1 : mine.ib - 1, mine.rows);
      const auto cols = dimension_pieces(a_cols, mine.ja - 1, t ? b_rows : b_cols, t ? mine.ib - 1 : mine.jb - 1, mine.cols);
      for (const DimensionPiece& c : cols) {
        for (const DimensionPiece& r : rows) {
          const Stretch& b_row = t ? *c.b : *r.b;
          const Stretch& b_col = t ? *r.b : *c.b;
          SubmatrixCopy copy{stored(*r.a, *c.a, ra.grida, mine.desca[kLld], a_ranks),
                             stored(b_row, b_col, rb.gridb, mine.descb[kLld], b_ranks),
                             in_layout(*r.a, mine.ia - 1 + r.lo),
                             in_layout(*c.a, mine.ja - 1 + c.lo),
                             in_layout(b_row, (t ? mine.ib - 1 + c.lo : mine.ib - 1 + r.lo)),
                             in_layout(b_col, (t ? mine.jb - 1 + r.lo : mine.jb - 1 + c.lo)),
                             r.hi - r.lo,
                             c.hi - c.lo};
          copy.part = mine.uplo == 'U' ? MatrixPart::Upper : mine.uplo == 'L' ? MatrixPart::Lower : MatrixPart::All;
          copy.unit_diagonal = mine.diag == 'U';
          copy.transpose = t;
          RankPlan piece = submatrix_plan(copy, me);
          shift_back(piece.sends, *r.a, *c.a, mine.desca[kLld], mine.grida);
          shift_back(piece.receives, b_row, b_col, mine.descb[kLld], mine.gridb);
          if (pieces++ == 0) plan.unpack_order = piece.unpack_order;
          for (PeerPlan& p : piece.sends) plan.sends.push_back(std::move(p));
          for (PeerPlan& p : piece.receives) plan.receives.push_back(std::move(p));
        }
      }
    }
  }
  if (pieces > 1) {
    plan.sends = merged_by_peer(std::move(plan.sends));
    plan.receives = merged_by_peer(std::move(plan.receives));
  }
  return plan;
}

const Written& run(const SubmatrixCall& call, const std::byte* a, std::byte* b, std::vector<std::byte>* scratch) {
  // The ranks meet by the processes their ICTXTs name, not by the handles (context_meeting.hpp).
  const MPI_Comm comm = meeting_communicator(call.context, call.routine, call.names.context);
  static const Written nothing;
  if (comm == MPI_COMM_NULL && empty_redist_copy(call)) {  // ScaLAPACK reads not even ICTXT
    log_call(call, "nothing to move");
    return nothing;
  }
  if (comm == MPI_COMM_NULL) {
    throw std::invalid_argument(call.routine + ": " + call.names.context + ": context " +
                                std::to_string(call.context) + " is not one this rank is part of");
  }
  const std::shared_ptr<mpi::MpiTransport>& transport = mpi::kept_transport(comm);
  const Rank me = transport->rank();
  // p?tran receives into scratch: its C is the caller's to check (it is written by the caller's loop).
  const Given mine = what_i_was_given(call, a, scratch != nullptr ? reinterpret_cast<const std::byte*>(scratch) : b);
  std::vector<Given> all(static_cast<std::size_t>(transport->size()));
  MPI_Allgather(&mine, kGivenFields, MPI_INT64_T, all.data(), kGivenFields, MPI_INT64_T, transport->comm());
  log_agreed = std::all_of(all.begin(), all.end(), [&](const Given& g) { return g.log_kind == mine.log_kind; });
  const auto unusable = std::find_if(all.begin(), all.end(), [](const Given& g) { return g.log_kind == kLogUnusable; });
  if (unusable != all.end() && unusable - all.begin() == me) tell_log_unused(log_path());

  std::vector<Rank> a_ranks, b_ranks;
  if (const std::string problem = first_problem(all, call, a_ranks, b_ranks); !problem.empty()) {
    log_call(call, "refused: " + problem);
    throw AgreedRefusal(call.routine + ": " + problem, me == 0);
  }
  if (mine.rows == 0 || mine.cols == 0) {
    log_call(call, "nothing to move");
    return nothing;
  }

  PlanKey key;
  key.reserve(all.size() * kKeyFields);
  for (const Given& g : all) {
    const auto* first = reinterpret_cast<const std::int64_t*>(&g);
    key.insert(key.end(), first, first + kKeyFields);
  }
  const Index eb = call.elem_bytes;
  // Every rank gathered the same key: all find the plan or all make it. The submatrix plan's
  // messages go on the context's transport, its shared window kept with the context's communicator.
  KeptPlan& kept = kept_plans().get(comm, key, [&] {
    auto made = std::make_unique<KeptPlan>();
    made->plan = std::make_unique<mpi::Plan>(
        transport, plan_of_messages(plan_of_call(all, mine, call, a_ranks, b_ranks, me), eb, "submatrix"));
    made->method = "redist's submatrix plan (the default)";
    return made;
  });
  // `auto` chooses on a plan's second use (every rank of the context meets it together): a call
  // made once does not pay for the choice (a Plan made and predicted over every candidate costs
  // far more than one small copy), a call repeated pays once.
  if (kept.uses < 2) ++kept.uses;
  if (!kept.decided) {
    const std::shared_ptr<const MachineModel> model = agreed_model(all, me);
    kept.decided = kept.uses >= 2 || !model;
    if (kept.decided && model && whole_dense_copy(all, call, a_ranks.front(), b_ranks.front())) {
      try {  // every rank predicts on the same model and arguments: all fail alike, and keep the default
        choose_on_model(kept, *transport, all, a_ranks, b_ranks, eb, model);
      } catch (const std::exception& e) {
        if (me == 0) tell_model_unused(std::string("its prediction failed: ") + e.what());
      }
    }
  }
  mpi::Plan& plan = *kept.plan;
  const RedistributionPlan& planned = plan.planned();
  last_method_text = kept.method;
  log_call(call, call.move ? "moved by " + last_method_text : "planned, nothing moved");
  if (!call.move) return planned.plan.receives;
  std::byte* into = b;
  if (scratch != nullptr) {
    scratch->assign(static_cast<std::size_t>(planned.dest_elements * eb), std::byte{0});
    into = scratch->data();
  }
  // The arguments were agreed in the MPI_Allgather above: no agreement of the Plan's own. Each
  // buffer spans what the plan reads or writes of the caller's storage.
  plan.execute_agreed({a, static_cast<std::size_t>(planned.source_elements * eb)},
                      {into, static_cast<std::size_t>(planned.dest_elements * eb)});
  // Only p?tran asks what was written, and auto's Plan (whole matrices, no transposition) never
  // runs for it.
  return kept.comm == MPI_COMM_NULL ? planned.plan.receives : nothing;
}

}  // namespace

void use_machine_model(bool use) { model_in_use = use; }

const std::string& last_method() { return last_method_text; }

const Written& copy_submatrix(const SubmatrixCall& call, const std::byte* a, std::byte* b) {
  return run(call, a, b, nullptr);
}

const Written& copy_submatrix_to_scratch(const SubmatrixCall& call, const std::byte* a, std::vector<std::byte>& scratch) {
  return run(call, a, nullptr, &scratch);
}

}  // namespace redist::scalapack
