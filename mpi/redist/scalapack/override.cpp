// ScaLAPACK's own names for the entries of redist_scalapack.h (library redist::scalapack_override):
// a program linked with this archive before ScaLAPACK has its p?gemr2d, p?trmr2d and p?tran calls
// resolved here, without a change to its source. The signatures are ScaLAPACK's (non-const
// pointers; the C forms take sizes by value), so programs declaring them as ScaLAPACK does match.
// Nothing here calls ScaLAPACK's versions: redist_scalapack does not use them.
#include "redist/scalapack/redist_scalapack.h"

extern "C" {

#define REDIST_SCALAPACK_COPY_OVERRIDES(X, T)                                                                 \
  void Cp##X##gemr2d(int m, int n, T* a, int ia, int ja, int* desca, T* b, int ib, int jb, int* descb,        \
                     int ictxt) {                                                                             \
    redist_p##X##gemr2d(m, n, a, ia, ja, desca, b, ib, jb, descb, ictxt);                                     \
  }                                                                                                           \
  void Cp##X##trmr2d(char* uplo, char* diag, int m, int n, T* a, int ia, int ja, int* desca, T* b, int ib,    \
                     int jb, int* descb, int ictxt) {                                                         \
    redist_p##X##trmr2d(uplo, diag, m, n, a, ia, ja, desca, b, ib, jb, descb, ictxt);                         \
  }                                                                                                           \
  void p##X##gemr2d_(int* m, int* n, T* a, int* ia, int* ja, int* desca, T* b, int* ib, int* jb, int* descb,  \
                     int* ictxt) {                                                                            \
    redist_p##X##gemr2d_(m, n, a, ia, ja, desca, b, ib, jb, descb, ictxt);                                    \
  }                                                                                                           \
  void p##X##trmr2d_(char* uplo, char* diag, int* m, int* n, T* a, int* ia, int* ja, int* desca, T* b,        \
                     int* ib, int* jb, int* descb, int* ictxt) {                                              \
    redist_p##X##trmr2d_(uplo, diag, m, n, a, ia, ja, desca, b, ib, jb, descb, ictxt);                        \
  }
REDIST_SCALAPACK_COPY_OVERRIDES(s, float)
REDIST_SCALAPACK_COPY_OVERRIDES(d, double)
REDIST_SCALAPACK_COPY_OVERRIDES(c, redist_complex)
REDIST_SCALAPACK_COPY_OVERRIDES(z, redist_double_complex)
REDIST_SCALAPACK_COPY_OVERRIDES(i, int)
#undef REDIST_SCALAPACK_COPY_OVERRIDES

// ScaLAPACK has p?tran only in the Fortran form (no Cp?tran), and for complex only tranu/tranc.
#define REDIST_SCALAPACK_TRAN_OVERRIDE(NAME, T)                                                                \
  void NAME##_(int* m, int* n, T* alpha, T* a, int* ia, int* ja, int* desca, T* beta, T* c, int* ic, int* jc, \
               int* descc) {                                                                                  \
    redist_##NAME##_(m, n, alpha, a, ia, ja, desca, beta, c, ic, jc, descc);                                  \
  }
REDIST_SCALAPACK_TRAN_OVERRIDE(pstran, float)
REDIST_SCALAPACK_TRAN_OVERRIDE(pdtran, double)
REDIST_SCALAPACK_TRAN_OVERRIDE(pctranu, redist_complex)
REDIST_SCALAPACK_TRAN_OVERRIDE(pctranc, redist_complex)
REDIST_SCALAPACK_TRAN_OVERRIDE(pztranu, redist_double_complex)
REDIST_SCALAPACK_TRAN_OVERRIDE(pztranc, redist_double_complex)
#undef REDIST_SCALAPACK_TRAN_OVERRIDE

}  // extern "C"
