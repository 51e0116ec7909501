/* ScaLAPACK's redistribution routines by redist, for C and Fortran programs: p?gemr2d, p?trmr2d
 * and p?tran(u,c) with ScaLAPACK's argument lists, prefixed redist_. The C forms take sizes by
 * value (as ScaLAPACK's Cp?gemr2d); the Fortran forms (trailing underscore) take every argument by
 * pointer. On a bad argument every rank of the context prints one line to stderr, naming the
 * routine, the argument and the rank, and returns with B untouched, as ScaLAPACK's PXERBLA does.
 * Link redist::scalapack_override before ScaLAPACK to have ScaLAPACK's own names run these, or
 * preload its shared form (LD_PRELOAD=libredist_scalapack_override.so) into a prebuilt program.
 * Semantics, supported descriptors and plans kept between calls: redist/scalapack/scalapack.hpp. */
#ifndef REDIST_SCALAPACK_H
#define REDIST_SCALAPACK_H

#ifdef __cplusplus
extern "C" {
#endif

typedef struct { float re, im; } redist_complex;         /* ScaLAPACK's complex */
typedef struct { double re, im; } redist_double_complex; /* ScaLAPACK's double complex */

#define REDIST_SCALAPACK_COPY_DECLARATIONS(X, T)                                                                  \
  void redist_p##X##gemr2d(int m, int n, const T* a, int ia, int ja, const int* desca, T* b, int ib, int jb,     \
                           const int* descb, int ictxt);                                                          \
  void redist_p##X##trmr2d(const char* uplo, const char* diag, int m, int n, const T* a, int ia, int ja,         \
                           const int* desca, T* b, int ib, int jb, const int* descb, int ictxt);                  \
  void redist_p##X##gemr2d_(const int* m, const int* n, const T* a, const int* ia, const int* ja,                \
                            const int* desca, T* b, const int* ib, const int* jb, const int* descb,              \
                            const int* ictxt);                                                                    \
  void redist_p##X##trmr2d_(const char* uplo, const char* diag, const int* m, const int* n, const T* a,          \
                            const int* ia, const int* ja, const int* desca, T* b, const int* ib, const int* jb,  \
                            const int* descb, const int* ictxt);
REDIST_SCALAPACK_COPY_DECLARATIONS(s, float)
REDIST_SCALAPACK_COPY_DECLARATIONS(d, double)
REDIST_SCALAPACK_COPY_DECLARATIONS(c, redist_complex)
REDIST_SCALAPACK_COPY_DECLARATIONS(z, redist_double_complex)
REDIST_SCALAPACK_COPY_DECLARATIONS(i, int)
#undef REDIST_SCALAPACK_COPY_DECLARATIONS

/* sub(C) := beta * sub(C) + alpha * op(sub(A)), op the transpose (tran, tranu) or the conjugate
 * transpose (tranc); sub(C) is m x n, sub(A) n x m. */
#define REDIST_SCALAPACK_TRAN_DECLARATIONS(NAME, T)                                                               \
  void redist_##NAME(int m, int n, T alpha, const T* a, int ia, int ja, const int* desca, T beta, T* c, int ic,   \
                     int jc, const int* descc);                                                                   \
  void redist_##NAME##_(const int* m, const int* n, const T* alpha, const T* a, const int* ia, const int* ja,      \
                        const int* desca, const T* beta, T* c, const int* ic, const int* jc, const int* descc);
REDIST_SCALAPACK_TRAN_DECLARATIONS(pstran, float)
REDIST_SCALAPACK_TRAN_DECLARATIONS(pdtran, double)
REDIST_SCALAPACK_TRAN_DECLARATIONS(pctranu, redist_complex)
REDIST_SCALAPACK_TRAN_DECLARATIONS(pctranc, redist_complex)
REDIST_SCALAPACK_TRAN_DECLARATIONS(pztranu, redist_double_complex)
REDIST_SCALAPACK_TRAN_DECLARATIONS(pztranc, redist_double_complex)
#undef REDIST_SCALAPACK_TRAN_DECLARATIONS

#ifdef __cplusplus
}
#endif

#endif /* REDIST_SCALAPACK_H */
