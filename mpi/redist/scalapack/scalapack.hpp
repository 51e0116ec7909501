// ScaLAPACK's redistribution routines, by redist: the same arguments as p?gemr2d, p?trmr2d and
// p?tran, the same results bit for bit, plans kept between calls.
//
//   #include <redist/scalapack/scalapack.hpp>
//   // A and B as a ScaLAPACK program holds them: local arrays, DTYPE-1 descriptors, BLACS contexts.
//   redist::scalapack::gemr2d<double>(m, n, a, 1, 1, desca, b, 1, 1, descb, ictxt);
//
// What is supported: descriptors read as ScaLAPACK reads them (p?gemr2d, p?trmr2d: nine entries,
// DTYPE_ never read, LLD_ at least the local rows, 0 where there are none; p?tran: PBLAS's DTYPE_
// 1 or 2, eleven entries for 2); submatrices at any offset; local arrays with LLD above the local
// rows (the padding is never written); RSRC/CSRC; BLACS grids of either order or made by
// Cblacs_gridmap (any process map); A and B on different contexts, or on ranks outside one of them
// (there pass a descriptor with CTXT_ = -1: A, B and the rest of it are not read). M or N 0: no
// descriptor is read. Every rank of `ictxt` calls. mpi/README.md has the table of what is checked.
//
// Errors: every rank checks every rank's arguments before anything moves. A bad one (a negative
// size, a submatrix past its matrix, LLD below the local rows, a block size of 0, a grid process
// no rank holds, different arguments on different ranks) makes every rank of the context throw
// std::invalid_argument with the same line — "pdgemr2d: rank 2: argument 6 (DESCA): LLD_ 3 is
// below the 5 local rows" — and B is left untouched. The C and Fortran entries
// (redist_scalapack.h) print that line and return, as ScaLAPACK's PXERBLA does.
//
// REDIST_SCALAPACK_LOG=<file>: every rank appends a line per call (how the data moved, or why not).
// REDIST_MODEL=<file>: copies of whole matrices stored densely run as a redist::mpi::Plan whose
// indexing and schedule `auto` chose on that machine model; other calls as without it. A model
// that the ranks of a call cannot all use alike is used by none: the call runs the default and
// moves the data, and the first rank concerned says why once on stderr.
//
// Plans: a call with the same arguments as one of the last 16 on its context reuses that call's
// plan (its index sets and MPI datatypes), so a repeated small copy costs little more than the move.
#pragma once

#include <complex>

namespace redist::scalapack {

/// sub(B) = sub(A): B(ib : ib+m-1, jb : jb+n-1) ← A(ia : ia+m-1, ja : ja+n-1) (1-based), as
/// p?gemr2d. T: float, double, std::complex<float>, std::complex<double> or int.
template <class T>
void gemr2d(int m, int n, const T* a, int ia, int ja, const int* desca, T* b, int ib, int jb, const int* descb, int ictxt);

/// The upper (uplo 'U' or 'u') or lower (any other letter) trapezoid of the m × n sub(A) copied to
/// sub(B), its diagonal left out when unit (diag not 'N' for an upper trapezoid, diag 'U' for a
/// lower one: ScaLAPACK's reading, either case), as p?trmr2d: element (i, j), 0-based, is copied when
/// j - i ≥ min(0, n - m) (upper) or i - j ≥ min(0, m - n) (lower), and the difference is not 0
/// when diag is 'U' (the diagonal of a tall upper or wide lower trapezoid ends in its corner).
template <class T>
void trmr2d(char uplo, char diag, int m, int n, const T* a, int ia, int ja, const int* desca, T* b, int ib, int jb,
            const int* descb, int ictxt);

/// sub(C) := beta · sub(C) + alpha · sub(A)ᵀ, with sub(C) = C(ic : ic+m-1, jc : jc+n-1) and sub(A) =
/// A(ia : ia+n-1, ja : ja+m-1), as p?tran (p?tranu for complex T; for int, which ScaLAPACK lacks,
/// the same semantics). A and C share one context.
template <class T>
void tran(int m, int n, T alpha, const T* a, int ia, int ja, const int* desca, T beta, T* c, int ic, int jc,
          const int* descc);

/// The same with the conjugate transpose, sub(A)ᴴ, as p?tranc (complex T).
template <class T>
void tranc(int m, int n, T alpha, const T* a, int ia, int ja, const int* desca, T beta, T* c, int ic, int jc,
           const int* descc);

/// Frees the kept plans, and the transports kept with the communicators (redist::mpi's one-shot
/// calls make theirs again). Collective over every set of processes a call was made on (the ranks
/// of each call's ICTXT), if memory matters (MPI_Finalize frees them anyway).
void release_plans();

}  // namespace redist::scalapack
