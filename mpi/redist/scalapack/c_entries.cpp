// The C and Fortran entries of redist_scalapack.h: each calls the C++ entry of scalapack.hpp and,
// on a bad argument, prints its one line to stderr and returns (ScaLAPACK's PXERBLA reports, and
// a C or Fortran caller has no exception to catch). A refusal the ranks agreed on is printed once
// per call, by its lowest rank (agreed_refusal.hpp); every rank returns.
#include "redist/scalapack/redist_scalapack.h"

#include <complex>
#include <cstdio>
#include <stdexcept>

#include "redist/scalapack/agreed_refusal.hpp"
#include "redist/scalapack/scalapack.hpp"

namespace {

template <class F>
void reporting(F&& call) {
  try {
    call();
  } catch (const redist::scalapack::AgreedRefusal& e) {
    if (e.teller()) std::fprintf(stderr, "%s\n", e.what());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s\n", e.what());
  }
}

template <class T>
struct Native {  // the C++ type of a C element type
  using type = T;
};
template <>
struct Native<redist_complex> {
  using type = std::complex<float>;
};
template <>
struct Native<redist_double_complex> {
  using type = std::complex<double>;
};

template <class T>
auto native(const T* p) {
  return reinterpret_cast<const typename Native<T>::type*>(p);
}
template <class T>
auto native(T* p) {
  return reinterpret_cast<typename Native<T>::type*>(p);
}
template <class T>
auto native(T value) {
  return *native(&value);
}

}  // namespace

#define REDIST_SCALAPACK_COPY_ENTRIES(X, T)                                                                        \
  void redist_p##X##gemr2d(int m, int n, const T* a, int ia, int ja, const int* desca, T* b, int ib, int jb,      \
                           const int* descb, int ictxt) {                                                          \
    reporting([&] { redist::scalapack::gemr2d(m, n, native(a), ia, ja, desca, native(b), ib, jb, descb, ictxt); }); \
  }                                                                                                                \
  void redist_p##X##trmr2d(const char* uplo, const char* diag, int m, int n, const T* a, int ia, int ja,          \
                           const int* desca, T* b, int ib, int jb, const int* descb, int ictxt) {                  \
    reporting([&] {                                                                                                \
      redist::scalapack::trmr2d(*uplo, *diag, m, n, native(a), ia, ja, desca, native(b), ib, jb, descb, ictxt);    \
    });                                                                                                            \
  }                                                                                                                \
  void redist_p##X##gemr2d_(const int* m, const int* n, const T* a, const int* ia, const int* ja,                 \
                            const int* desca, T* b, const int* ib, const int* jb, const int* descb,               \
                            const int* ictxt) {                                                                    \
    redist_p##X##gemr2d(*m, *n, a, *ia, *ja, desca, b, *ib, *jb, descb, *ictxt);                                   \
  }                                                                                                                \
  void redist_p##X##trmr2d_(const char* uplo, const char* diag, const int* m, const int* n, const T* a,           \
                            const int* ia, const int* ja, const int* desca, T* b, const int* ib, const int* jb,   \
                            const int* descb, const int* ictxt) {                                                  \
    redist_p##X##trmr2d(uplo, diag, *m, *n, a, *ia, *ja, desca, b, *ib, *jb, descb, *ictxt);                       \
  }
REDIST_SCALAPACK_COPY_ENTRIES(s, float)
REDIST_SCALAPACK_COPY_ENTRIES(d, double)
REDIST_SCALAPACK_COPY_ENTRIES(c, redist_complex)
REDIST_SCALAPACK_COPY_ENTRIES(z, redist_double_complex)
REDIST_SCALAPACK_COPY_ENTRIES(i, int)
#undef REDIST_SCALAPACK_COPY_ENTRIES

#define REDIST_SCALAPACK_TRAN_ENTRIES(NAME, CPP, T)                                                                \
  void redist_##NAME(int m, int n, T alpha, const T* a, int ia, int ja, const int* desca, T beta, T* c, int ic,    \
                     int jc, const int* descc) {                                                                   \
    reporting([&] {                                                                                                \
      redist::scalapack::CPP(m, n, native(alpha), native(a), ia, ja, desca, native(beta), native(c), ic, jc, descc); \
    });                                                                                                            \
  }                                                                                                                \
  void redist_##NAME##_(const int* m, const int* n, const T* alpha, const T* a, const int* ia, const int* ja,      \
                        const int* desca, const T* beta, T* c, const int* ic, const int* jc, const int* descc) {   \
    redist_##NAME(*m, *n, *alpha, a, *ia, *ja, desca, *beta, c, *ic, *jc, descc);                                  \
  }
REDIST_SCALAPACK_TRAN_ENTRIES(pstran, tran, float)
REDIST_SCALAPACK_TRAN_ENTRIES(pdtran, tran, double)
REDIST_SCALAPACK_TRAN_ENTRIES(pctranu, tran, redist_complex)
REDIST_SCALAPACK_TRAN_ENTRIES(pctranc, tranc, redist_complex)
REDIST_SCALAPACK_TRAN_ENTRIES(pztranu, tran, redist_double_complex)
REDIST_SCALAPACK_TRAN_ENTRIES(pztranc, tranc, redist_double_complex)
#undef REDIST_SCALAPACK_TRAN_ENTRIES
