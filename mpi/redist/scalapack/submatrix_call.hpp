// The one collective behind every drop-in entry (gemr2d, trmr2d, tran): the ranks of the call's
// context gather what each was given, all find the same first problem or none, and the copy runs
// on a plan kept for the next call with the same arguments (plan_cache.hpp).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "redist/indexing/submatrix_plan.hpp"
#include "redist/scalapack/descriptor.hpp"

namespace redist::scalapack {

/// How the caller's arguments are named in messages ("argument 4 (IA)"), in ScaLAPACK's order.
struct ArgumentNames {
  std::string rows, cols;          ///< of sub(A) (p?tran: its N and M)
  std::string ia, ja, desca;
  std::string ib, jb, descb;
  std::string context;             ///< ICTXT (p?tran: its DESCA)
  std::string uplo, diag;          ///< p?trmr2d only
  std::string a, b;                ///< the local arrays (p?tran: A and C)
  std::string b_matrix = "B";      ///< the second matrix, as in "sub(B)" (p?tran: C)
  std::string alpha, beta;         ///< p?tran only
};

/// A scalar argument's bits (p?tran's ALPHA and BETA), compared between ranks: every rank must pass
/// the same one. A zero of either sign is one value.
using ScalarBits = std::array<std::int64_t, 2>;

/// One rank's call, in redist's terms: sub(A) is rows × cols at (ia, ja), 1-based; sub(B) at
/// (ib, jb) is the same, or cols × rows when transposed.
struct SubmatrixCall {
  std::string routine;  ///< "pdgemr2d", ... (messages start with it)
  ArgumentNames names;
  Index rows = 0, cols = 0;
  Index ia = 1, ja = 1;
  const int* desca = nullptr;
  Index ib = 1, jb = 1;
  const int* descb = nullptr;
  int context = -1;  ///< every rank of both grids is in it (p?gemr2d's ICTXT)
  char uplo = 0;  ///< 'U' or 'L' (either case) for p?trmr2d; 0: the whole submatrix
  char diag = 0;  ///< 'U' (the diagonal is left out) or 'N', with uplo
  bool transpose = false;
  bool one_context = false;  ///< A and B must share the context (p?tran)
  bool move = true;          ///< false: check and plan only (p?tran with alpha 0 reads no A)
  bool b_null = false;       ///< p?tran: its C is null and written (it receives into scratch, not C)
  Reader reader = Reader::Redist;  ///< whose reading of the descriptors (p?tran: PBLAS's)
  Index elem_bytes = 8;
  ScalarBits alpha{}, beta{};  ///< p?tran's scalars; 0 elsewhere
};

/// The elements the call wrote on this rank: its plan's receives, in its B storage.
using Written = std::vector<PeerPlan>;

/// Collective over the ranks of call.context. Checks every rank's arguments together (an empty
/// REDIST copy, M or N 0 on every rank, reads no descriptor, as ScaLAPACK's); when any is bad, every rank throws std::invalid_argument with the same line, "<routine>: rank K: <argument>:
/// <what is wrong>" for the lowest such rank K, before anything is written. A null `a` or `b` on a
/// rank whose part of A or B the submatrix's rows and columns reach is such a problem. Else copies sub(A) to
/// sub(B) (`a` is not read on ranks outside A's grid, `b` not written outside B's) and returns
/// what was written here. A rank outside the context throws alone (there is no one to tell).
const Written& copy_submatrix(const SubmatrixCall& call, const std::byte* a, std::byte* b);

/// The same, receiving into `scratch` (sized here) at the offsets sub(B) has in B's storage,
/// B itself untouched: p?tran combines it with B afterwards. Without call.move, nothing moves
/// and the offsets are returned all the same.
const Written& copy_submatrix_to_scratch(const SubmatrixCall& call, const std::byte* a, std::vector<std::byte>& scratch);

/// Whether new plans may follow the machine model REDIST_MODEL names (on by default; off: every
/// call runs the default submatrix plan). Plans are kept apart by this setting. Every rank of a
/// context must set it alike; for benchmarks that time the default beside auto's choice.
void use_machine_model(bool use);

/// How this rank's last call moved its data: "redist's submatrix plan (the default)", "redist's
/// submatrix plan (auto chose indexing <name>, schedule async: the default's exchange)" or "a
/// redist::mpi::Plan chosen on the machine model: indexing <name>, schedule <name>".
const std::string& last_method();

}  // namespace redist::scalapack
